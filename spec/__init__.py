"""The rules as data: one TOML file per rule set (clauses, rulings, components) and its loader."""

from .loader import Clause, NotRule, Ruling, Spec, SpecError, load_spec, spec_path

__all__ = ["Clause", "NotRule", "Ruling", "Spec", "SpecError", "load_spec", "spec_path"]
