"""Sphinx configuration.  The rule pages, ruling pages, pictures and the traceability page are
generated at build time by the extension in ``_ext/tablerules_site.py``."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "tablerules"
author = "the tablerules team"
copyright = "2026, the tablerules team"
extensions = ["tablerules_site", "workbench_screens", "sphinx.ext.autodoc", "sphinx.ext.doctest"]
exclude_patterns = ["_build", "overviews/*", ".venv"]
html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["tablerules.css"]
html_theme_options = {"page_width": "1180px", "sidebar_width": "230px"}
nitpicky = True
rst_prolog = """
.. role:: gap
   :class: gap
.. role:: muted
   :class: muted
"""

# The API reference: signatures without type hints (they name typing constructs that have
# no page here); the docstrings say what each argument is.
autodoc_typehints = "none"
autodoc_member_order = "bysource"
# Names docstrings mention that are not documented here (standard library and third parties).
nitpick_ignore_regex = [
    ("py:class", r"(typing|collections\.abc|fractions|dataclasses|pathlib|random|networkx)\..*"),
    ("py:class", r"(Any|Fraction|Path|Counter|Callable|Sequence|Mapping|Iterable|Iterator)"),
    ("py:class", r"'.*"),  # attribute annotations kept as strings (``from __future__ import annotations``)
    ("py:class", r"RuleGap"),  # named without its module in the explorer's docstring
    ("py:(func|class|meth)", r"(.*\.)?_[a-z].*"),  # private helpers named in docstrings have no page
]

doctest_global_setup = "import tablerules"
