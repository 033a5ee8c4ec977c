"""`--json` output: every schema in spec/schemas/ is a valid JSON Schema, and the real output
of the commands it lists under ``x-commands`` matches it (a schema added for a new command
is tested without touching this file)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from tablerules import schemas
from tests.tool.runner import run_cli

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "spec" / "schemas"
FILES = sorted(FOLDER.glob("*.schema.json"))


def _registry() -> Registry:
    resources = [Resource.from_contents(json.loads(p.read_text())) for p in FILES]
    return Registry().with_resources((r.contents["$id"], r) for r in resources)


def _validator(command: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((FOLDER / f"{command}.schema.json").read_text()),
                                           registry=_registry())


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_schema_is_a_valid_versioned_schema(path):
    schema = json.loads(path.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    command = path.name.removesuffix(".schema.json")
    assert schema["$id"].endswith(f"/{path.name}")
    assert schema["properties"]["schema"]["const"] == f"tablerules/{command}/1" == schemas.version(command)
    assert schema.get("x-commands"), "each schema lists commands whose output the tests check against it"


def test_the_installed_package_ships_every_schema():
    assert schemas.commands() == [p.name.removesuffix(".schema.json") for p in FILES]


CASES = [(p.name.removesuffix(".schema.json"), cmd) for p in FILES for cmd in json.loads(p.read_text())["x-commands"]]


@pytest.mark.slow
@pytest.mark.parametrize("command,argv", CASES, ids=[" ".join(c[1]) for c in CASES])
def test_real_output_matches_its_schema(command, argv, tmp_path):
    """``{tmp}`` in a listed command stands for a fresh folder (an output the run may write)."""
    r = run_cli(*(a.replace("{tmp}", str(tmp_path)) for a in argv), input="{", cwd=REPO)
    assert "Traceback" not in r.stderr
    assert r.returncode in (0, 1, 2, 3), r.stderr[-2000:]
    doc = json.loads(r.stdout)
    errors = sorted(_validator(command).iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    assert doc["exit_status"] == r.returncode


def test_a_document_of_another_version_is_rejected():
    with pytest.raises(jsonschema.ValidationError):
        _validator("vectors-verify").validate({"schema": "tablerules/vectors-verify/2", "tablerules": "0", "files": [],
                                               "summary": {"files": 0, "steps": 0, "passed": 0, "failed": 0,
                                                           "unreadable": 0}, "exit_status": 0})


def test_the_docs_render_every_schema():
    page = schemas.rst_page()
    for p in FILES:
        assert f".. literalinclude:: ../../spec/schemas/{p.name}" in page
    callers = [f for f in (REPO / "docs").rglob("*.py") if "rst_page(" in f.read_text(encoding="utf-8")]
    assert callers, "the docs build writes docs/schemas/index.rst from tablerules.schemas.rst_page()"
