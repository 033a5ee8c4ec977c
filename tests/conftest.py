"""Shared test settings: Hypothesis profiles ("dev" by default, "ci" in .ci/run) and data paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The quick tier runs as many examples in CI as at a desk; the deep runs are slow-tier tests of their own
# (tests/strategies.py DEEP_EXAMPLES), so that the quick tier's minutes go to covering more, not to repeating.
settings.register_profile(
    "ci", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def retail_deck_path() -> str:
    """The retail card list, found through TABLERULES_RETAIL_DECK; tests skip without it."""
    path = os.environ.get("TABLERULES_RETAIL_DECK")
    if not path:
        pytest.skip("TABLERULES_RETAIL_DECK is not set: the retail card list is not shipped with the project")
    if not Path(path).exists():
        pytest.fail(f"TABLERULES_RETAIL_DECK={path} does not exist")
    return path


@pytest.fixture(scope="session")
def retail_deck(retail_deck_path):
    from tablerules.model.decks import load_deck

    return load_deck(retail_deck_path, name="retail-2015")
