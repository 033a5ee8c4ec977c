"""The decision-point tool (proofs/discovery/decisions.py): annotations read from the code, planted
decisions found with their shortest trace, exemptions without a ruling, unknown ids; and the
project's own model files pass it."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

from tablerules.proofs.discovery import decisions as dp
from tablerules.proofs.discovery.gaps import Config

# --------------------------------------------------------------------------- a toy model in a folder of its own

TOY = '''
from dataclasses import dataclass
from tablerules.model.core import TERMINAL, IllegalMove, Invariant, Outcome, RuleSet, Setup, ruling
from tests.proofs.toy import Add, State

PLUMBING = {"shown": "the text form of a total"}


@dataclass(frozen=True, slots=True)
class Options:
    big: str = ruling("toy.ruling.big", "no", "yes")


def new_game(setup):
    return State(setup)


def to_move(s):
    return TERMINAL if s.total >= 5 else s.turn  # rule: toy.end


def legal_moves(s):
    if s.total >= 5:  # rule: toy.end
        return ()
    if s.total == 3:  # rule: toy.three
        return _at_three(s)
    return (Add(1), Add(2))


def _at_three(s):
    if s.turn == 0:
        return (Add(2),)
    return (Add(1),)


def shown(s):
    return "big" if s.total > 3 else "small"


def never(s):
    if s.total == 99:
        return 1
    return 0


def illegal_reason(s, m):
    return None if m in legal_moves(s) else "toy.add"  # rule: toy.nope


def apply(s, m):
    if illegal_reason(s, m):  # plumbing: refuse an illegal move
        raise IllegalMove("toy.add", m)
    return State(s.setup, s.total + m.n, 1 - s.turn)


def outcome(s):
    return Outcome(winners=frozenset({1 - s.turn})) if s.total >= 5 else None  # rule: toy.end


def _no_bad_total(s):
    if s.total == 0:  # rule: toy.end
        return None
    return None if s.total < 9 else "too big"  # plumbing: the check proper


INVARIANTS = [Invariant("total", "toy.end", _no_bad_total)]
RULES = RuleSet.from_module(
    dict(globals(), chance_outcomes=lambda s: (), observation=lambda s, seat: {}, parse_move=lambda t, setup: None,
         state_vars=lambda s: {"total": s.total, "shown": shown(s)}),
    id="toy", title="toy", spec_file="", player_counts=(2,))
'''

IDS = {"toy.end", "toy.three", "toy.ruling.big"}


@pytest.fixture()
def toy(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    path = folder / "toymodel.py"
    path.write_text(textwrap.dedent(TOY), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("toymodel_for_decisions", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield folder, module
    del sys.modules[spec.name]


def _report(toy):
    folder, module = toy
    return dp.explore_decisions(folder=folder, not_yet={}, targets=[("toy", module.RULES, [Config(2)])], ids=IDS,
                                budget=dp.DecisionBudget(states=100, games=2))


def test_scan_finds_every_kind_of_decision_and_reads_annotations(toy):
    folder, _ = toy
    sc = dp.scan(folder)
    kinds = {p.kind for p in sc.points}
    assert {"if", "conditional"} <= kinds
    by_function = {p.function for p in sc.points}
    assert {"legal_moves", "_at_three", "never", "_no_bad_total"} <= by_function
    exempt = [p for p in sc.points if p.exemption]
    assert [p.function for p in exempt] == ["_no_bad_total"]
    point = next(p for p in sc.points if p.function == "apply")
    assert sc.annotation_of(point).kind == "plumbing"
    point = next(p for p in sc.points if p.function == "shown")
    assert sc.annotation_of(point).why == "the text form of a total", "declared in PLUMBING"
    assert not sc.problems


def test_an_undeclared_branch_that_decides_play_is_found_beside_declared_ones(toy):
    """The toy declares ``shown`` in PLUMBING; ``_at_three`` (undeclared, untagged) decides the moves
    at a total of three: it is an unregistered decision, and the declared helper is no finding."""
    report = _report(toy)
    assert ("toymodel.py", "shown") in report.scan.exemptions
    assert any(p.function == "shown" and (p.file, p.line) in report.reached for p in report.scan.points)
    assert not [f for f in report.findings if f.point.function == "shown"]
    assert [f.point.function for f in report.findings if f.kind == dp.UNREGISTERED] == ["_at_three"]


def test_an_unannotated_decision_is_found_with_its_shortest_trace(toy):
    report = _report(toy)
    found = [f for f in report.findings if f.kind == dp.UNREGISTERED]
    assert [f.point.function for f in found] == ["_at_three"]
    reach = found[0].reach
    assert reach.shortest and reach.length == 2  # add 1, add 2 (or add 2, add 1): the total is three
    assert sum(int(s.move.split()[1]) for s in reach.steps) == 3


def test_a_decision_never_reached_is_listed_apart(toy):
    report = _report(toy)
    assert [f.point.function for f in report.findings if f.kind == dp.UNREACHED] == ["never"]


def test_an_invariant_exemption_without_a_ruling_is_a_special_case(toy):
    report = _report(toy)
    special = [f for f in report.findings if f.kind == dp.SPECIAL]
    assert [f.point.function for f in special] == ["_no_bad_total"]
    assert special[0].reach is not None and special[0].reach.length == 0


def test_an_unannotated_exemption_is_both_unregistered_and_a_special_case(toy, tmp_path):
    folder, module = toy
    path = folder / "toymodel.py"
    path.write_text(
        path.read_text(encoding="utf-8").replace("if s.total == 0:  # rule: toy.end", "if s.total == 0:"),
        encoding="utf-8",
    )
    report = _report(toy)
    kinds = sorted(f.kind for f in report.findings if f.point.function == "_no_bad_total")
    assert kinds == [dp.SPECIAL, dp.UNREGISTERED]


def test_an_unknown_id_is_a_finding(toy):
    report = _report(toy)
    unknown = [f for f in report.findings if f.kind == dp.UNKNOWN]
    assert [f.point.function for f in unknown] == ["illegal_reason"] and "toy.nope" in unknown[0].detail
    assert not report.ok


@pytest.mark.parametrize("comment, kind, ids, problem", [
    ("# rule: jd.turn.kitchen", "rule", ("jd.turn.kitchen",), ""),
    ("# rule: jd.turn.kitchen, jd.ruling.dump-none", "rule", ("jd.turn.kitchen", "jd.ruling.dump-none"), ""),
    ("# plumbing: caching", "plumbing", (), ""),
    ("# plumbing:", "plumbing", (), "needs a reason"),
    ("# rule: see above", "rule", (), "expects ids"),
])
def test_parse_annotation(comment, kind, ids, problem):
    a = dp.parse_annotation(comment)
    assert a.kind == kind and a.ids == ids and problem in a.problem and bool(problem) == bool(a.problem)


def test_an_ordinary_comment_is_no_annotation():
    assert dp.parse_annotation("# the guest leaves") is None


# --------------------------------------------------------------------------- the project's own model


def test_every_annotation_in_the_model_names_a_known_id_and_every_judged_point_is_annotated():
    findings, problems = dp.static_findings()
    assert not problems, problems
    lines = [f"{f.kind}: {f.point.where}: {f.point.source} ({f.detail})" for f in findings]
    assert not lines, "\n".join(lines)


def test_files_not_yet_annotated_still_wait_for_annotations():
    """NOT_YET_ANNOTATED excuses a file only while a decision point in it has no annotation; then the entry must go."""
    sc = dp.scan()
    assert set(dp.NOT_YET_ANNOTATED) <= set(sc.files()), "NOT_YET_ANNOTATED names files that are gone"
    done = set(dp.NOT_YET_ANNOTATED) - dp.excused_files(sc, dp.NOT_YET_ANNOTATED)
    assert not done, f"every decision point of {sorted(done)} is annotated: remove them from NOT_YET_ANNOTATED"


def test_an_entry_for_a_wholly_annotated_file_is_stale(toy):
    folder, _ = toy
    findings, problems = dp.judge(dp.scan(folder), {}, IDS, {"toymodel.py": "elsewhere", "gone.py": "moved"})
    assert any("gone.py" in p and "no decision point" in p for p in problems)
    assert not any("toymodel.py" in p for p in problems)  # still has unannotated points: excused
    assert not findings


def test_the_just_desserts_package_is_judged():
    """Every file of model/just_desserts/ is judged (none excused), and every decision point in it is annotated."""
    sc = dp.scan()
    package = {f for f in sc.files() if f.startswith("just_desserts/")}
    assert {"just_desserts/game.py", "just_desserts/advanced.py", "just_desserts/v23.py"} <= package
    assert not package & set(dp.NOT_YET_ANNOTATED)
    findings, _ = dp.judge(sc, {}, dp.known_ids(), {})
    bad = [f"{f.kind}: {f.point.where}: {f.point.source}" for f in findings if f.point.file in package]
    assert not bad, "\n".join(bad)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, states", [("just-desserts-2.3", 200), ("just-desserts", 120)])
def test_the_explorations_find_no_unregistered_decision_in_just_desserts(ruleset, states):
    """A small exploration of each edition of Just Desserts: the points it reaches in the package are annotated."""
    report = dp.explore_decisions([ruleset], dp.DecisionBudget(states=states, games=2))
    assert report.runs and any(f.startswith("just_desserts/") for f, _ in report.reached)
    bad = [f for f in report.findings if f.kind != dp.UNREACHED]
    assert not bad, "\n".join(f"{f.kind}: {f.point.where} {f.point.source}" for f in bad)


def _model(tmp_path, **files: str):
    folder = tmp_path / "model"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
    return dp.scan(folder)


def test_a_helper_is_exempt_once_by_its_module_declaration(tmp_path):
    sc = _model(tmp_path, helpers='''\
        """Helpers."""
        from math import gcd as _gcd

        PLUMBING = {
            "shown": "formatting",
            ("gcd", "Table.width"): "arithmetic",
        }


        def shown(x):
            return 'a' if x else 'b'


        def gcd(a, b):
            while b:
                a, b = b, a % b
            return a


        class Table:
            def width(self, n):
                def inner(y):
                    return y if y else 0
                return inner(n) if n else 1


        def decides(x):
            def inner(y):
                return y if y else 0
            if x:  # rule: toy.rule
                return inner(x)
            return 1 if x > 3 else 2
        ''', text='''\
        """A module of text forms."""

        PLUMBING = (
            "the text form "
            "of moves"
        )


        def parse(t):
            return t if t else None
        ''')
    assert not sc.problems, sc.problems
    kind = {(p.file, p.function, p.kind): sc.annotation_of(p) for p in sc.points}
    assert kind[("helpers.py", "shown", "conditional")].why == "formatting"
    assert kind[("helpers.py", "gcd", "while")].why == "arithmetic"
    assert kind[("helpers.py", "Table.width", "conditional")].why == "arithmetic"
    assert kind[("helpers.py", "Table.width.inner", "conditional")].why == "arithmetic", "nested functions too"
    assert kind[("helpers.py", "decides", "if")].ids == ("toy.rule",)
    assert kind[("helpers.py", "decides", "conditional")] is None, "a declaration covers its own functions only"
    assert kind[("helpers.py", "decides.inner", "conditional")] is None
    assert kind[("text.py", "parse", "conditional")].why == "the text form of moves"


def test_the_old_tags_for_a_whole_function_or_module_are_refused(tmp_path):
    """``# plumbing:`` on a def line, or on a comment line right above a def and its decorators,
    and ``# plumbing-module:``: each a problem naming file and line; they exempt nothing."""
    sc = _model(tmp_path, helpers='''\
        def shown(x):  # plumbing: formatting
            return 'a' if x else 'b'


        # plumbing: arithmetic
        @staticmethod
        def gcd(a, b):
            while b:  # plumbing: a loop
                a, b = b, a % b
            return a
        ''', text='''\
        """A module of text forms."""
        # plumbing-module: the text form of moves


        def parse(t):
            return t if t else None
        ''')
    assert len(sc.problems) == 3, sc.problems
    assert sc.problems[0].startswith("model/helpers.py:1: '# plumbing:' on the def of shown is the old form")
    assert sc.problems[1].startswith("model/helpers.py:5: '# plumbing:' on the def of gcd is the old form")
    assert sc.problems[2].startswith("model/text.py:2: '# plumbing-module:' is the old form")
    kind = {(p.file, p.function, p.kind): sc.annotation_of(p) for p in sc.points}
    assert kind[("helpers.py", "shown", "conditional")] is None
    assert kind[("helpers.py", "gcd", "while")].why == "a loop", "a branch's own tag still counts"
    assert kind[("text.py", "parse", "conditional")] is None
    findings, problems = dp.judge(sc, {}, set(), {})
    assert problems == sc.problems and {f.kind for f in findings} == {dp.UNREACHED}


@pytest.mark.parametrize("declaration, problem", [
    ('PLUMBING = {"shown": "formatting", "gone": "moved away"}', "3: PLUMBING: 'gone' is no function of this module"),
    ('PLUMBING = {"shown": "formatting", ("decides", "shown"): "twice"}', "3: PLUMBING: 'shown' is declared twice"),
    ('PLUMBING = {"shown": ""}', "3: PLUMBING: shown: the reason must be a non-empty string"),
    ('PLUMBING = {shown: "formatting"}', "3: PLUMBING: a key must be a function's name or a tuple of them"),
    ('PLUMBING = ["shown"]', "3: PLUMBING: expected a dict of function names to reasons"),
    ('PLUMBING = ""', "3: PLUMBING: the whole module's declaration needs a reason"),
    ('PLUMBING = "text"\nPLUMBING = "again"', "4: PLUMBING is declared a second time"),
])
def test_a_declaration_that_cannot_be_read_is_a_problem(tmp_path, declaration, problem):
    sc = _model(tmp_path, helpers=f'"""Helpers."""\n\n{declaration}\n\n\n'
                "def shown(x):\n    return 'a' if x else 'b'\n\n\n"
                "def decides(x):\n    return 1 if x > 3 else 2  # rule: toy.rule\n")
    assert [p for p in sc.problems if p.startswith("model/helpers.py:" + problem)], sc.problems


def test_a_tag_on_a_comment_line_of_its_own_names_the_decision_right_below(tmp_path):
    """Where a tag at the end of the line would make it too long, it stands on a comment line of its
    own right above; a tag at the end of the line itself comes first, and a blank line breaks the tie."""
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "rules.py").write_text(
        "def deal(n, o):\n"
        "    # rule: toy.deal\n"
        "    scheme = 'a' if n == 4 else 'b'\n"
        "    # rule: toy.ignored\n"
        "    if o:  # rule: toy.own\n"
        "        return 1\n"
        "    # rule: toy.far\n"
        "\n"
        "    while n:\n"
        "        n -= 1\n"
        "    # an ordinary comment\n"
        "    # rule: toy.first, toy.second\n"
        "    return [x for x in range(n)\n"
        "            if x]\n")
    sc = dp.scan(folder)
    kind = {(p.function, p.kind): sc.annotation_of(p) for p in sc.points}
    assert kind[("deal", "conditional")].ids == ("toy.deal",)
    assert kind[("deal", "if")].ids == ("toy.own",), "the tag on the line itself comes first"
    assert kind[("deal", "while")] is None, "a blank line between the tag and the code: it tags nothing"
    assert kind[("deal", "filter")].ids == ("toy.first", "toy.second")
