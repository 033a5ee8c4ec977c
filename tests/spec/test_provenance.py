"""Every clause cites the rulebook lines it rests on, with a digest, and says whether it is
the text or a reading; every rulebook line is cited or listed as not a rule (spec/provenance.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablerules.model import registry
from tablerules.spec import SpecError, load_spec
from tablerules.spec.provenance import Sources, basis_counts, check_citations, digest_of, stamp, uncited_lines

REPO = Path(__file__).resolve().parents[2]
SOURCES = Sources.beside(REPO.parent / "shared")
IDS = registry.ruleset_ids()


def _need_seed(spec) -> None:
    if not (SOURCES.seeds / spec.seed).exists():
        pytest.skip(f"the rulebooks are not beside the checkout ({SOURCES.seeds / spec.seed} is absent)")


@pytest.mark.parametrize("ruleset", IDS)
def test_every_citation_matches_the_rulebook(ruleset):
    spec = load_spec(ruleset)
    _need_seed(spec)
    problems, missing = check_citations(spec, SOURCES)
    if missing and not problems:
        pytest.skip(f"cited files absent: {missing}")
    assert not problems, "\n".join(problems)
    assert not missing, f"cited files absent while the seed is there: {missing}"


@pytest.mark.parametrize("ruleset", IDS)
def test_every_rulebook_line_is_cited_or_not_a_rule(ruleset):
    spec = load_spec(ruleset)
    _need_seed(spec)
    left = uncited_lines(spec, SOURCES)
    seed = (SOURCES.seeds / spec.seed).read_text(encoding="utf-8").splitlines()
    assert not left, "lines cited by no clause and listed as no not_rule:\n" + "\n".join(
        f"  {spec.seed}:{i}: {seed[i - 1][:60]}..." for i in left)


@pytest.mark.parametrize("ruleset", IDS)
def test_every_clause_says_text_or_reading_and_readings_name_a_ruling_with_alternatives(ruleset):
    spec = load_spec(ruleset)
    counts = basis_counts(spec)
    assert counts["text"] + counts["reading"] == len(spec.clauses)
    for c in spec.clauses.values():
        if c.basis == "reading":
            ruling = spec.rulings[c.ruling]
            assert len(ruling.alternatives) >= 2, c.id
            assert c.id in ruling.clauses, (
                f"{c.id} is a reading of {c.ruling}, which does not list it among its clauses"
            )


@pytest.mark.parametrize("ruleset", IDS)
def test_every_rulebook_clause_cites_lines(ruleset):
    spec = load_spec(ruleset)
    for c in spec.clauses.values():
        assert c.lines is not None or (c.source == "public" and c.cite), c.id


def test_digest_is_sha256_of_the_joined_lines():
    lines = ["first", "second", "third"]
    import hashlib

    assert digest_of(lines, 2, 3) == hashlib.sha256(b"second\nthird").hexdigest()[:16]


def test_a_changed_rulebook_line_is_a_stale_citation(tmp_path):
    seeds, data = tmp_path / "seeds", tmp_path / "data"
    seeds.mkdir(), data.mkdir()
    (seeds / "book.txt").write_text("Title\nRule one.\nRule two.\n", encoding="utf-8")
    spec_file = tmp_path / "toy.toml"
    spec_file.write_text(_TOY, encoding="utf-8")
    sources = Sources(seeds, data)
    assert stamp(spec_file, "book.txt", sources) == 2
    spec = load_spec(spec_file)
    assert check_citations(spec, sources) == ([], [])
    assert uncited_lines(spec, sources) == [3]
    (seeds / "book.txt").write_text("Title\nRule one, edited.\nRule two.\n", encoding="utf-8")
    problems, _ = check_citations(spec, sources)
    assert len(problems) == 1 and "clause toy.one" in problems[0] and "the cited text changed" in problems[0]


_TOY = '''
[ruleset]
id = "toy"
seed = "book.txt"

[[not_rule]]
lines = [1, 1]
digest = "0000000000000000"
reason = "title"

[[clause]]
id = "toy.one"
lines = [2, 2]
digest = "0000000000000000"
basis = "text"
heading = "Title"
text = "The first rule."
'''


_CLAUSE = {"lines": "[2, 2]", "digest": '"0000000000000000"', "basis": '"text"'}


def _toy_with(**fields: str) -> str:
    """The toy spec with the clause's provenance fields replaced (a value of None drops the field)."""
    values = {**_CLAUSE, **fields}
    head, _, tail = _TOY.partition('id = "toy.one"\n')
    tail = "".join(line + "\n" for line in tail.splitlines() if line.split(" =")[0] not in _CLAUSE)
    own = "".join(f"{k} = {v}\n" for k, v in values.items() if v is not None)
    return head + 'id = "toy.one"\n' + own + tail


@pytest.mark.parametrize("fields, message", [
    ({}, None),
    ({"lines": "[3, 2]"}, "'lines' must be [FIRST, LAST]"),
    ({"lines": "[0, 1]"}, "'lines' must be [FIRST, LAST]"),
    ({"lines": '"2"'}, "'lines' must be [FIRST, LAST]"),
    ({"lines": None}, "missing 'lines'"),
    ({"digest": '"XYZ"'}, "'digest' must be 16 lowercase hex digits"),
    ({"digest": None}, "missing 'digest'"),
    ({"basis": '"guess"'}, "basis must be 'text' or 'reading'"),
    ({"basis": None}, "missing 'basis'"),
    ({"basis": '"reading"'}, "missing 'ruling'"),
    ({"basis": '"reading"', "ruling": '"toy.ruling.nope"'}, "names unknown ruling 'toy.ruling.nope'"),
    ({"ruling": '"toy.ruling.nope"'}, "'ruling' is only for basis = 'reading'"),
    ({"cite_file": '"FACTS.md"'}, "'cite_file' is only for source = 'public'"),
    ({"restates": '"toy.two"'}, "restates 'toy.two'"),
])
def test_bad_provenance_is_a_one_line_error_naming_the_clause(tmp_path, fields, message):
    f = tmp_path / "toy.toml"
    f.write_text(_toy_with(**fields), encoding="utf-8")
    if message is None:
        assert load_spec(f).clauses["toy.one"].lines == (2, 2)
        return
    with pytest.raises(SpecError) as e:
        load_spec(f)
    text = str(e.value)
    assert "\n" not in text and message in text and "toy.one" in text and str(f) in text


def test_a_public_clause_may_cite_a_source_we_do_not_hold(tmp_path):
    f = tmp_path / "toy.toml"
    f.write_text(_TOY + '''
[[clause]]
id = "toy.faq"
basis = "text"
source = "public"
cite = "the publisher's FAQ, question 7"
heading = "FAQ"
text = "A fact from the publisher."
''', encoding="utf-8")
    spec = load_spec(f)
    assert spec.clauses["toy.faq"].lines is None
