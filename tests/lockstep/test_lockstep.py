"""The lockstep of tablerules.lockstep: it sees every difference a reading makes, groups them, and
names the ruling that explains a group, or reports a finding with a shortest witness."""

from __future__ import annotations

from tablerules.lockstep import run as lockstep
from tablerules.lockstep.walk import Config
from tablerules.model import registry

from . import model_reading

JD = registry.get("just-desserts")
V23 = registry.get("just-desserts-2.3")
ALL = ("poaching", "buffet", "surprise-parties")


def _run(rules, engine: str, configs, max_states=1_500):
    return lockstep.run(rules, configs, lockstep.Budget(max_states=max_states, games=2, max_moves=400),
                        f"{model_reading.__name__}:{engine}")


def test_the_model_dressed_as_a_reading_parts_from_the_model_nowhere():
    for rules, config in ((JD, Config(2, "jd-rivals", ALL)), (V23, Config(2, "v23-tiny"))):
        result = _run(rules, "Engine", [config])
        assert result.walked[0].states == 1_500
        assert not result.rounds[0].groups.by_key, [g.key for g in [g for _, g in result.all_groups()]]


def test_a_reading_with_one_ruling_changed_is_that_ruling_found_again():
    result = _run(JD, "ServeNoneAllowed", [Config(2, "jd-rivals", ("poaching",))])
    groups = [g for _, g in result.all_groups()]
    assert groups, "the reading that may serve nobody parts from the model"
    for g in groups:
        assert ("jd.ruling.serve-none", "allowed") in g.explained_by, g.to_json()


def test_a_difference_no_ruling_explains_is_a_finding_with_a_shortest_witness():
    result = _run(JD, "NoKitchen", [Config(2, "jd-one-suit")])
    findings = [g for g in [g for _, g in result.all_groups()] if not g.explained_by]
    assert [g.key[0] for g in findings] == ["legal move ours only"]
    g = findings[0]
    assert g.key[3] == "kitchen"
    # breadth-first: the deal (3 + 3 desserts, 3 guests) is the whole deck, so the first draw phase draws
    # nothing and the choice comes next
    assert len(g.witness.path) == 9, g.witness.path
    assert g.witness.part.ours == "allow 'kitchen'"


def test_play_goes_on_past_a_difference():
    """The reading without the kitchen still walks every state both share: the difference at the
    first turn hides nothing after it."""
    plain = _run(JD, "Engine", [Config(2, "jd-one-suit")], max_states=800)
    kitchenless = _run(JD, "NoKitchen", [Config(2, "jd-one-suit")], max_states=800)
    assert kitchenless.walked[0].states == plain.walked[0].states == 800
    kinds = {g.key[3] for g in [g for _, g in kitchenless.all_groups()]}
    assert "kitchen" in kinds


def test_random_games_see_the_same_difference(retail_deck_path):
    result = _run(JD, "NoKitchen", [Config(3, retail_deck_path, (), "random games")])
    assert result.walked[0].games == 2
    assert any(g.key[3] == "kitchen" for g in [g for _, g in result.all_groups()])


def test_a_reading_that_raises_is_a_part_not_a_traceback():
    result = _run(JD, "Crashes", [Config(2, "jd-one-suit")], max_states=200)
    assert [g.key[0] for g in [g for _, g in result.all_groups()]] == ["reading error"]
    assert "ZeroDivisionError" in [g for _, g in result.all_groups()][0].witness.part.theirs
