"""Executable rules: the core API (:mod:`tablerules.model.core`) and one module per rule set."""
