"""The site's generators that read the source tree: traceability, and the overviews in our own words."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.docs.site_modules import EXT, load

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"


def _load(name: str):
    return load(EXT / f"{name}.py", f"_docs_{name}")


from tablerules import traceability as tr  # noqa: E402  (the scan the site and `tablerules explain` share)


@pytest.fixture(scope="module")
def report():
    return tr.scan(REPO)


def test_the_repository_has_no_dangling_reference(report):
    assert report.dangling == []


def test_every_clause_of_every_spec_is_traced(report):
    from tablerules.model import registry
    from tablerules.spec import load_spec

    for rs in registry.ruleset_ids():
        ids = set(load_spec(rs).clauses)
        assert {e.id for e in report.clauses(rs)} == ids
    counts = report.counts()
    assert counts["clauses"] == sum(len(load_spec(rs).clauses) for rs in registry.ruleset_ids())
    assert counts["with vectors"] <= counts["clauses"] and counts["tagged"] <= counts["with code"]


def test_vectors_are_read_from_their_meta(report):
    path = next((REPO / "vectors" / "dishes").glob("2p-3x4-default-s1.itf.json"))
    clauses = json.loads(path.read_text())["#meta"]["clauses"]
    rel = path.relative_to(REPO).as_posix()
    assert all(rel in report.traces[c].vectors for c in clauses)


def _tree(tmp_path: Path) -> Path:
    """A copy of what the scanner reads, small enough to edit."""
    for folder in ("spec", "tests/spec"):
        shutil.copytree(REPO / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "model").mkdir()
    (tmp_path / "vectors").mkdir()
    return tmp_path


def test_a_rule_tag_marks_the_decision_and_an_unknown_id_dangles(tmp_path):
    root = _tree(tmp_path)
    (root / "model" / "toy.py").write_text(
        "x = 1\n"
        "if stuck:  # rule: dishes.end.no-moves, dishes.ruling.stuck-player\n"
        "    pass\n"
        "y = 'dishes.end.no-moves'\n"
        "if z:  # rule: dishes.play.no-such-clause\n")
    rep = tr.scan(root)
    assert rep.traces["dishes.end.no-moves"].tagged == [
        ("model/toy.py", 2, "if stuck:  # rule: dishes.end.no-moves, dishes.ruling.stuck-player")
    ]
    assert rep.traces["dishes.end.no-moves"].mentions == [("model/toy.py", 4, "y = 'dishes.end.no-moves'")]
    assert rep.traces["dishes.ruling.stuck-player"].tagged
    assert rep.dangling == ["model/toy.py:5: '# rule: dishes.play.no-such-clause' names no clause or ruling"]


def test_a_rule_tag_on_a_comment_line_of_its_own_marks_the_code_line_below(tmp_path):
    root = _tree(tmp_path)
    (root / "model" / "toy.py").write_text(
        "x = 1\n"
        "# rule: dishes.end.no-moves\n"
        "if stuck:\n"
        "    pass\n")
    rep = tr.scan(root)
    assert rep.traces["dishes.end.no-moves"].tagged == [("model/toy.py", 3, "if stuck:")]


def test_an_id_is_not_found_inside_a_longer_id(tmp_path):
    root = _tree(tmp_path)
    (root / "model" / "toy.py").write_text("'dishes.play.place-match-extra' and 'xdishes.play.place-match'\n")
    assert tr.scan(root).traces["dishes.play.place-match"].mentions == []


def test_a_vector_or_witness_naming_an_unknown_id_and_a_missing_evidence_file_dangle(tmp_path):
    root = _tree(tmp_path)
    (root / "vectors" / "v.itf.json").write_text(json.dumps({"#meta": {"clauses": ["dishes.goal", "dishes.nope"]}}))
    (root / "spec" / "witnesses" / "extra.json").write_text(
        json.dumps({"ruleset": "dishes", "ruling": "dishes.ruling.nope"})
    )
    toml = root / "spec" / "dishes.toml"
    toml.write_text(toml.read_text().replace("spec/witnesses/dishes-tie-for-most.json", "spec/witnesses/gone.json"))
    rep = tr.scan(root)
    text = "\n".join(rep.dangling)
    assert "vectors/v.itf.json: #meta.clauses names 'dishes.nope'" in text
    assert "spec/witnesses/extra.json: names ruling 'dishes.ruling.nope'" in text
    assert "cites evidence file spec/witnesses/gone.json, which does not exist" in text
    assert rep.traces["dishes.goal"].vectors == ["vectors/v.itf.json"]


def test_a_reading_clause_naming_an_unknown_ruling_dangles_and_a_known_one_inherits_its_witness(tmp_path):
    root = _tree(tmp_path)
    toml = root / "spec" / "dishes.toml"
    text = toml.read_text()

    def make_reading(text: str, clause: str, ruling: str) -> str:
        """Turn one clause's basis into a reading of ``ruling`` (whatever basis it had)."""
        head, sep, rest = text.partition(f'id = "{clause}"\n')
        block, nxt, tail = rest.partition("[[")
        block = re.sub(r'^basis = "[a-z]+"\n', "", block, flags=re.M)
        block = re.sub(r'^ruling = "[^"]*"\n', "", block, flags=re.M)
        return head + sep + f'basis = "reading"\nruling = "{ruling}"\n' + block + nxt + tail

    text = make_reading(text, "dishes.goal", "dishes.ruling.missing")
    text = make_reading(text, "dishes.setup.sort", "dishes.ruling.tie-for-most")
    toml.write_text(text)
    rep = tr.scan(root)
    assert any("dishes.goal is a reading of ruling 'dishes.ruling.missing'" in d for d in rep.dangling)
    assert "spec/witnesses/dishes-tie-for-most.json" in rep.traces["dishes.setup.sort"].witnesses


@pytest.mark.parametrize("stem", ["dishes", "just_desserts", "just_desserts_v23"])
def test_overviews_are_in_our_own_words(stem):
    """No overview shares a run of eight words with its rulebook (the rule the spec follows)."""
    import tomllib

    seed_name = tomllib.loads((REPO / "spec" / f"{stem}.toml").read_text())["ruleset"]["seed"]
    seed = SEEDS / seed_name
    if not seed.exists():
        pytest.skip(f"rulebook {seed} is not beside the checkout")

    def grams(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"[a-z0-9']+", text.lower())
        return {tuple(words[i:i + 8]) for i in range(len(words) - 7)}

    overview = (REPO / "docs" / "overviews" / f"{stem}.rst").read_text()
    shared = grams(overview) & grams(seed.read_text())
    assert not shared, f"copies the rulebook: {' '.join(next(iter(shared)))!r}"


def _site():
    return _load("pages")


def test_clause_provenance_is_shown_when_present_and_said_missing_when_absent():
    site = _site()
    spec = {"ruleset": {"seed": "003_x.txt"}}
    known = {"dishes.ruling.tie-for-most": tr.Entry("dishes.ruling.tie-for-most", "ruling", "dishes", "dishes", {})}
    bare = {"id": "dishes.goal", "heading": "Goal"}
    assert "line range not recorded yet" in site.rulebook_line(spec, bare)
    assert "not recorded yet" in site.basis_line(bare, known)
    full = dict(bare, lines=[6, 7], digest="dbc9ec4ec20d5e3a", basis="reading", ruling="dishes.ruling.tie-for-most")
    line = site.rulebook_line(spec, full)
    assert "``003_x.txt``" in line and "lines 6\u20137" in line and "dbc9ec4ec20d5e3a" in line
    assert site.basis_line(full, known) == ("**reading**: an interpretation, the default of "
                                            ":ruling:`dishes.ruling.tie-for-most`")
    assert site.basis_line(dict(bare, basis="text"), known).startswith("**text**")


def test_every_clause_of_a_spec_gets_an_anchor_on_its_page(report):
    site = _site()
    for spec in site.load_specs():
        page = site.clauses_page(spec, report.entries, report)
        ids = re.findall(r"^\.\. clause:: (\S+)$", page, flags=re.M)
        assert sorted(ids) == sorted(c["id"] for c in spec["clause"])  # grouped by heading


def test_without_dot_the_state_graph_stops_the_build_saying_what_to_install(monkeypatch, tmp_path):
    pages = _site()
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot here
    with pytest.raises(pages.SiteError, match="graphviz"):
        pages.render_dot("digraph g { a -> b }")
