"""tablerules: executable, checkable specifications of tabletop game rules, and a verifier."""

__version__ = "0.1.0"
