"""The tablerules site, generated from the project at build time.

* ``.. clause:: ID`` and ``.. ruling:: ID`` give every clause and ruling an anchor and an
  index entry; ``:clause:`ID``` and ``:ruling:`ID``` link to them (a dangling one fails a
  ``-n -W`` build).
* ``.. tablerules-position:: RULESET`` draws an example position from a seeded random game.
* On ``builder-inited`` the pages under ``docs/rules/`` are written from ``spec/*.toml``,
  the witness files, the models and the proofs: per rule set an overview, its clauses and
  one page per ruling (witness step table, the position where the readings part, impact
  table and plot); "Pictures from the tools"; the traceability page.  A dangling
  reference (see ``tablerules/traceability.py``) or a missing ``dot`` program stops the build.

Slow numbers (impact tables, plots) are cached under ``docs/_build/.tablerules-cache``,
keyed by a digest of the installed package's code and data, so the doctest build after the
HTML build, or a rebuild with nothing changed, computes nothing again.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tablerules import traceability  # noqa: E402  (the clause-to-code scan, shared with `tablerules explain`)
from pages import (  # noqa: E402
    HERE, OUT, PICTURES, ROOT, SiteError, clauses_page, load_specs, ruling_job, ruling_page, ruleset_page,
    rulings_index, slug, tools_jobs, tools_page, traceability_page, write_if_changed, heading,
)

logger = logging.getLogger(__name__)
GENERATOR_VERSION = "1"


# --------------------------------------------------------------------------- the cache


def code_digest() -> str:
    """A digest of every source and data file of the installed package, and of this extension."""
    h = hashlib.sha256(GENERATOR_VERSION.encode())
    for pkg in ("tablerules", "tablerules.model", "tablerules.proofs", "tablerules.spec"):
        # a package's folders: ``tablerules`` is a namespace package, one folder per portion
        folders = sorted({Path(f).resolve() for f in importlib.import_module(pkg).__path__ if Path(f).is_dir()})
        for folder in folders:
            for p in sorted(folder.rglob("*")):
                if p.suffix in (".py", ".toml", ".json") and "__pycache__" not in p.parts:
                    h.update(f"{pkg}/{p.relative_to(folder).as_posix()}".encode())
                    h.update(p.read_bytes())
    for p in sorted(HERE.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


class Cache:
    """Computed results by name, in a folder per code digest."""

    def __init__(self, root: Path) -> None:
        self.folder = root / code_digest()
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in root.iterdir():  # results of older code are never read again
            if old != self.folder and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)

    def get(self, name: str) -> Any:
        p = self.folder / name
        return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None

    def put(self, name: str, value: Any) -> None:
        (self.folder / name).write_text(json.dumps(value), encoding="utf-8")

    def many(self, jobs: dict[str, Callable[[], Any]], workers: int = 2) -> dict[str, Any]:
        """Every job's result, computing only those not cached (in ``workers`` processes)."""
        from tablerules import console
        from tablerules.proofs.discovery.impact import run_all

        out = {name: self.get(name) for name in jobs}
        todo = [name for name, value in out.items() if value is None]
        if todo:
            t0 = time.perf_counter()
            logger.info(f"tablerules: computing {len(todo)} figures ({workers} workers) ...")
            cpu = 0.0
            with console.heartbeat():  # a line on standard error at least every few seconds, log or terminal
                console.activity(f"tablerules: computing {len(todo)} figures", total=len(todo), unit="figures")
                computed = run_all([_timed(jobs[n]) for n in todo], workers, done=console.advance)
            for name, (value, seconds) in zip(todo, computed):
                self.put(name, value)
                out[name] = value
                cpu += seconds
            logger.info(f"tablerules: computed in {time.perf_counter() - t0:.1f}s ({cpu:.1f} CPU seconds)")
        return out


def _timed(job: Callable[[], Any]) -> Callable[[], tuple[Any, float]]:
    """The job, returning its result and the CPU seconds it took (the load of the machine aside)."""

    def run() -> tuple[Any, float]:
        c0 = time.process_time()
        value = job()
        return value, time.process_time() - c0

    return run


# --------------------------------------------------------------------------- the position directive


class PositionDirective(SphinxDirective):
    """``.. tablerules-position:: RULESET`` with :players:, :moves:, :seed:, :deck: and a caption as content."""

    required_arguments = 1
    has_content = True
    option_spec = {"players": directives.positive_int, "moves": directives.nonnegative_int,
                   "seed": directives.nonnegative_int, "deck": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        from tablerules.model.core import TERMINAL, actor_text
        from tablerules.pictures.figures import random_position
        from tablerules.pictures.positions import draw

        ruleset = self.arguments[0]
        players = self.options.get("players", 2)
        moves = self.options.get("moves", 10)
        seed = self.options.get("seed", 1)
        deck = self.options.get("deck")
        rules, state, played = random_position(ruleset, players, deck, moves, seed)
        actor = rules.to_move(state)
        title = f"{rules.title}: {players} players after {played} seat moves"
        svg = draw(rules.id, rules.state_vars(state), title=title, players=players, components=state.setup.components,
                   to_move=actor_text(actor))
        name = f"example-{slug(ruleset)}-{players}p-{moves}m-{seed}.svg"
        write_if_changed(PICTURES / name, svg)
        whose = "the game is over" if actor is TERMINAL else f"{actor_text(actor)} to move"
        caption = " ".join(self.content) or title
        text = [f".. figure:: /rules/_pictures/{name}", f"   :alt: {title}", "",
                f"   {caption} (Drawn by the site's build from the model's state after {played} seat moves of a "
                f"seeded random game, {players} players, {deck or 'default components'}; {whose}.)", ""]
        container = nodes.container()
        self.state.nested_parse(StringList(text, source=self.get_source_info()[0]), self.content_offset, container)
        return container.children


# --------------------------------------------------------------------------- the output directive


class OutputDirective(SphinxDirective):
    """``.. tablerules-output:: ARGS`` runs ``tablerules ARGS`` from the repository root as the
    build runs and shows the command and what it printed, so a page never shows stale output.
    ``:env: NAME=VALUE`` sets a variable for the run (repeat with spaces between); ``:status:``
    the exit status expected (default 0; any other stops the build)."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"env": directives.unchanged, "status": directives.nonnegative_int}

    def run(self) -> list[nodes.Node]:
        import contextlib
        import io
        import os
        import shlex

        from tablerules import cli

        argv = shlex.split(self.arguments[0])
        env = dict(pair.split("=", 1) for pair in self.options.get("env", "").split())
        saved = {k: os.environ.get(k) for k in env}
        out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
        try:
            os.environ.update(env)
            os.chdir(ROOT)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main(argv)
        finally:
            os.chdir(here)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        if status != self.options.get("status", 0):
            raise self.error(f"tablerules {self.arguments[0]} exited {status}: {err.getvalue().strip()[:300]}")
        shown = " ".join(f"{k}={v}" for k, v in env.items())
        text = f"$ {shown + ' ' if shown else ''}tablerules {self.arguments[0]}\n{out.getvalue().rstrip()}"
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


# --------------------------------------------------------------------------- the build step


def generate(app: Any) -> None:
    """Write every generated page (see the module docstring)."""
    try:
        _generate(app)
    except SiteError as e:
        raise ExtensionError(f"tablerules: {e}") from None


def _generate(app: Any) -> None:
    from tablerules.model import registry
    from tablerules.model.core import ruling_fields, short_ruling_name
    from tablerules.proofs.discovery.gaps import small_configs
    from tablerules.pictures.witnesses import witness_traces

    t0 = time.perf_counter()
    OUT.mkdir(exist_ok=True)
    PICTURES.mkdir(exist_ok=True)
    report = traceability.scan(ROOT)
    if report.dangling:
        raise SiteError(f"{len(report.dangling)} dangling reference(s):\n  " + "\n  ".join(report.dangling))
    known = report.entries
    specs = load_specs()
    cache = Cache(Path(os.environ.get("TABLERULES_DOCS_CACHE") or Path(app.outdir).parent / ".tablerules-cache"))

    plans = []  # (spec, ruling, rules, traces, config label, job name)
    jobs: dict[str, Callable[[], Any]] = dict(tools_jobs())
    for spec in specs:
        rid_set = spec["ruleset"]["id"]
        try:
            rules = registry.get(rid_set)
        except Exception as e:  # noqa: BLE001 - any import failure stops the build with its cause
            raise SiteError(f"the model of {rid_set} does not load: {e}") from e
        for ruling in spec.get("ruling", []):
            traces = []
            for wf in report.traces[ruling["id"]].witnesses:
                got, problems = witness_traces(rules, ROOT / wf)
                for p in problems:
                    raise SiteError(p)
                traces += got
            if traces:
                t = traces[0]
                players, deck, options = t.players, t.components or None, t.options
                comps = rules.load_components(deck) if deck and rules.load_components else rules.default_components()
            else:
                config = small_configs(rules).configs[0]
                players, comps, options = config.players, config.components, {}
                deck = config.deck or getattr(comps, "name", None)
            label = f"{players} players, components {deck or 'default'}"
            name = f"ruling-{short_ruling_name(ruling['id'])}-{rid_set}.json"
            if ruling["id"] in ruling_fields(rules.Options):
                jobs[name] = ruling_job(rules, ruling["id"], players, comps, deck, options)
            else:  # registered before the model has its option (``pending``): nothing to measure yet
                name = ""
            plans.append((spec, ruling, rules, traces, label, name))
    results = cache.many(jobs, workers=min(2, os.cpu_count() or 1))

    index = heading("Rule sets", "=") + [
        "Each rule set has an overview of play with a drawn position, its clauses (each with an anchor, its place "
        "in the rulebook and its basis) and one page per ruling (the witness where the readings part, and what "
        "each alternative changes).", "", ".. toctree::", "   :maxdepth: 2", ""]
    for spec in specs:
        stem = spec["_stem"]
        index.append(f"   {stem}/index")
        write_if_changed(OUT / stem / "index.rst", ruleset_page(spec, stem, known))
        write_if_changed(OUT / stem / "clauses.rst", clauses_page(spec, known, report))
        write_if_changed(OUT / stem / "rulings" / "index.rst", rulings_index(spec, known))
    index += ["   tools", "   traceability", ""]
    write_if_changed(OUT / "index.rst", "\n".join(index) + "\n")
    for spec, ruling, rules, traces, label, name in plans:
        page = ruling_page(spec, ruling, known, traces, results.get(name), label, rules)
        write_if_changed(OUT / spec["_stem"] / "rulings" / f"{slug(short_ruling_name(ruling['id']))}.rst", page)
    write_if_changed(OUT / "traceability.rst", traceability_page(report, specs))
    write_if_changed(OUT / "tools.rst", tools_page(results))
    counts = report.counts()
    logger.info(f"tablerules: pages generated in {time.perf_counter() - t0:.1f}s; traceability: "
                + ", ".join(f"{k} {v}" for k, v in counts.items()))


def generate_schemas(app: Any) -> None:
    """docs/schemas/index.rst: every JSON Schema of spec/schemas/ (tablerules.schemas.rst_page)."""
    from tablerules import schemas

    folder = Path(__file__).resolve().parent.parent / "schemas"
    folder.mkdir(exist_ok=True)
    text = schemas.rst_page()
    page = folder / "index.rst"
    if not page.exists() or page.read_text(encoding="utf-8") != text:
        page.write_text(text, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.add_object_type("clause", "clause", indextemplate="pair: %s; clause", objname="rule clause",
                        ref_nodeclass=nodes.literal)
    app.add_object_type("ruling", "ruling", indextemplate="pair: %s; ruling", objname="ruling",
                        ref_nodeclass=nodes.literal)
    app.add_directive("tablerules-position", PositionDirective)
    app.add_directive("tablerules-output", OutputDirective)
    app.connect("builder-inited", generate)
    app.connect("builder-inited", generate_schemas)
    return {"version": GENERATOR_VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
