"""The JSON documents the commands write with ``--json``, and their schemas.

Every schema is one file, ``spec/schemas/<command>.schema.json`` (installed as
``tablerules/spec/schemas/``), a JSON Schema (draft 2020-12).  Its ``properties.schema.const``
is the version string the document carries in its ``schema`` key, e.g.
``"tablerules/check/1"``: a reader checks it before anything else, and the number goes up
whenever a reader written for the old documents would misread the new ones.  A command
builds its document with :func:`document`; adding a command's JSON output is adding its
schema file (the docs, the package data and the tests find every file in the folder).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


def _folder() -> Any:
    return resources.files("tablerules.spec").joinpath("schemas")


def commands() -> list[str]:
    """Commands with a schema, from the file names."""
    return sorted(p.name.removesuffix(".schema.json") for p in _folder().iterdir() if p.name.endswith(".schema.json"))


@lru_cache(maxsize=None)
def schema(command: str) -> dict[str, Any]:
    """The JSON Schema of ``command``'s document."""
    return json.loads(_folder().joinpath(f"{command}.schema.json").read_text(encoding="utf-8"))


def version(command: str) -> str:
    """The version string documents of ``command`` carry (``tablerules/check/1``)."""
    return schema(command)["properties"]["schema"]["const"]


def tool_version() -> str:
    """The installed tablerules version."""
    from importlib.metadata import PackageNotFoundError, version as dist_version

    try:
        return dist_version("tablerules")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        from .version import __version__

        return __version__


def document(command: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as ``command``'s JSON document: its ``schema`` version first, then the tool version."""
    return {"schema": version(command), "tablerules": tool_version(), **body}


def rst_page() -> str:
    """The docs page that shows every schema as it ships (docs/schemas/index.rst, written at
    build time, so a schema added to the folder appears without editing the docs)."""
    out = ["JSON output schemas", "===================", "",
           "``--json`` writes one JSON document whose ``schema`` key names its version; each version has a "
           "JSON Schema (draft 2020-12), installed as ``tablerules/spec/schemas/<command>.schema.json``.", ""]
    for command in commands():
        doc = schema(command)
        title = f"``{command}.schema.json``"
        out += [title, "-" * len(title), "", doc.get("description", "").replace("*", "\\*"), "",
                f"Version: ``{version(command)}``.", "",
                f".. literalinclude:: ../../spec/schemas/{command}.schema.json", "   :language: json", ""]
    return "\n".join(out) + "\n"
