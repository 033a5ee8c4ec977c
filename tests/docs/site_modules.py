"""The site's generator modules (docs/_ext), loaded by path for the tests that call them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXT = REPO / "docs" / "_ext"

if str(EXT) not in sys.path:
    sys.path.insert(0, str(EXT))  # the site's modules import each other by name


def load(path: Path, name: str):
    """The module at ``path`` under the name ``name`` (registered in sys.modules: dataclasses look it up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
