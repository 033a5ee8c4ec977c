"""proofs/properties/<rule set>/: each rule set's properties live by clause family, a module a
family with its own table, and the package gathers every family's table once, in the order the
properties are run and reported."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from tablerules.proofs.properties import dishes, just_desserts, just_desserts_v23, property_set

PACKAGES = {"dishes": dishes, "just-desserts": just_desserts, "just-desserts-2.3": just_desserts_v23}


def family_tables(package, table: str) -> dict[str, tuple]:
    """Module name -> its own table (``PROPERTIES`` or ``EXAMPLES``), for every module of the package."""
    out = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        if hasattr(module, table):
            out[info.name] = getattr(module, table)
    return out


@pytest.mark.parametrize("ruleset", list(PACKAGES))
@pytest.mark.parametrize("table", ["PROPERTIES", "EXAMPLES"])
def test_the_package_gathers_every_familys_table_once(ruleset, table):
    package = PACKAGES[ruleset]
    gathered = getattr(package, table)
    families = family_tables(package, table)
    assert families, f"{package.__name__} has no family module with a {table} table"
    for name, rows in families.items():
        missing = [p.key for p in rows if sum(q is p for q in gathered) != 1]
        assert not missing, f"{name}.{table}: not gathered exactly once by {package.__name__}: {missing}"
    assert len(gathered) == sum(len(rows) for rows in families.values()), \
        f"{package.__name__}.{table} holds rows of no family module"


@pytest.mark.parametrize("ruleset", list(PACKAGES))
def test_the_rule_set_runs_its_text_properties_first(ruleset):
    ps = property_set(ruleset)
    package = PACKAGES[ruleset]
    assert ps.properties[:len(package.PROPERTIES)] == package.PROPERTIES
    assert ps.examples[:len(package.EXAMPLES)] == package.EXAMPLES
