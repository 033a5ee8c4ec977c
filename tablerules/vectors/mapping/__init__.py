"""Traces written by other tools, read through a declared mapping (docs/guides/quint.rst).

A model written in another language names and shapes things its own way: its state
variables (``dishes3::dishes::board``), its kinds and colours (``MainCourse``, ``"c0"``), a
board kept as a map keyed by records or as lists of lists, its moves (``mbt::actionTaken`` =
``placePile`` with nondet picks ``from`` and ``onto``); it may deal every hidden colour at
the start where our rules reveal a colour when a tile is turned
(dishes.play.turn-own-tile), add stuttering steps once nobody can move (dishes.end.no-moves),
and keep the result in a variable of its own.  A *mapping file* (TOML,
``tablerules/mappings/*.toml``) declares each of these once per source and rule set.

The work is split by what it does:

* :mod:`.values`: a foreign trace's values as plain Python, and the walk down ``levels``;
* :mod:`.templates`: our text from their values, renamed through ``[names]``;
* :mod:`.files`: reading and checking mapping files, and the shipped ones;
* :mod:`.translate`: a foreign trace as a trace document of ours, and what it leaves unchecked;
* :mod:`.draft`: a first mapping drafted from a trace's shapes (``vectors map``);
* here: ``vectors verify`` for a file that may be foreign.
"""

from __future__ import annotations

import re
from typing import Any

from ..itf import MAX_FILE_BYTES
from ..verifier import FileResult, check_trace, verify_path as verify_own_path
from .files import (
    MAPPING_SUFFIX, MAX_MAPPING_BYTES, Mapping, detect, is_ours, load_mapping, parse_mapping, read_mapping_text,
    shipped_mapping_names,
)
from .translate import Translation, translate
from .values import GUIDE, MappingError, Variant, read_value


def verify_path(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES,
                mapping: str | None = None) -> FileResult:
    """`vectors verify` for one file (``-``: standard input, read once).  Our own traces go to
    the verifier as they are; any other trace is translated first, through ``mapping`` (a
    shipped mapping's name or a file) or the shipped mapping that recognises it, and the
    result says what the translation could not check."""
    translated: list[Translation] = []

    def prepare(document: dict[str, Any]) -> dict[str, Any]:
        if mapping is None and is_ours(document):
            return document
        tr = translate(document, load_mapping(mapping) if mapping else detect(document))
        translated.append(tr)
        return tr.document

    result = verify_own_path(path, deck, max_bytes, prepare=prepare)
    if translated and result.verdict is None:  # unreadable after translation: say where in *their* trace
        found = re.search(r"\$\.states\[(\d+)\]", result.line)
        if found and translated[0].where(int(found.group(1))):
            line = (f"{result.line}{translated[0].where(int(found.group(1)))}, as translated through mapping "
                    f"{translated[0].mapping.name}: see its [names] and [moves]")
            return FileResult(result.file, result.status, line, None, result.problem)
    if not translated or result.verdict is None:
        return result
    tr = translated[0]
    v = result.verdict
    v.notes.extend([f"not checked: {u}" for u in tr.unchecked] + [f"note: {n}" for n in tr.notes])
    if v.finding is not None:
        where = tr.where(v.finding.step, v.finding.what == "wrong outcome")
        return FileResult(result.file, 1, v.finding.line(result.file) + where, v)
    for k in range(len(tr.stutters)):  # a dropped step that changed something: checked as the state it repeats
        finding = check_trace(tr.stutter_document(k), deck).finding
        if finding is not None:
            v.finding = finding
            return FileResult(result.file, 1, finding.line(result.file) + tr.stutter_where(k), v)
    meta = tr.document["#meta"]
    lines = [f"{result.file}: ok ({v.steps} steps of ours from {len(tr.actions) - 1} of the trace, {meta['ruleset']}, "
             f"{meta['players']} players, read through mapping {tr.mapping.name})"]
    lines += [f"  not checked: {u}" for u in tr.unchecked] + [f"  note: {n}" for n in tr.notes]
    return FileResult(result.file, 0, "\n".join(lines), v)


def verify_file(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES,
                mapping: str | None = None) -> tuple[int, str]:
    """(exit status, report lines) for one file (see :func:`verify_path`)."""
    result = verify_path(path, deck, max_bytes, mapping)
    return result.status, result.line


__all__ = [
    "GUIDE", "MAPPING_SUFFIX", "MAX_MAPPING_BYTES", "Mapping", "MappingError", "Translation", "Variant", "detect",
    "is_ours", "load_mapping", "parse_mapping", "read_mapping_text", "read_value", "shipped_mapping_names",
    "translate", "verify_file", "verify_path",
]
