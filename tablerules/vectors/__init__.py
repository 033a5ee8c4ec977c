"""Reference vectors and the verifier: the public names in one place.

The work is split by what it does:

* ``tablerules.vectors.itf``: the ITF trace format (values, reading and writing files);
* ``tablerules.vectors.recording``: recording a game as a trace;
* ``tablerules.vectors.verifier``: the verifier's rules, and ``check_trace``, the one
  function that checks a parsed trace document (a reader of other tools' traces maps the
  document first, then calls it);
* ``tablerules.vectors.generation`` and ``tablerules.vectors.files``: the golden set;
* ``tablerules.cli.vectors``: the command line.
"""

from __future__ import annotations

from .itf import (
    FORMAT_VERSION, ITF_DESCRIPTION, MAX_FILE_BYTES, NONE, VectorError, decode, dumps, encode, fraction_text,
    load_document, normal, parse_document,
)
from .recording import Trace, components_meta, record_game, trace_document
from .verifier import (
    FileResult, Finding, Verdict, check_trace, first_difference, setup_from_meta, verify_document, verify_file,
    verify_path,
)

__all__ = [
    "FORMAT_VERSION", "FileResult", "Finding", "ITF_DESCRIPTION", "MAX_FILE_BYTES", "NONE", "Trace", "Verdict",
    "VectorError", "check_trace", "components_meta", "decode", "dumps", "encode", "first_difference", "fraction_text",
    "load_document", "normal",
    "parse_document", "record_game", "setup_from_meta", "trace_document", "verify_document", "verify_file",
    "verify_path",
]
