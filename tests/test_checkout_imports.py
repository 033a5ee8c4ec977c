"""Python started in the repository root after a plain (not editable) install finds every layer.

The folder ``tablerules/`` comes first on ``sys.path`` there and holds only the command line;
the installed package holds ``model/``, ``proofs/`` and ``spec/`` inside it.  ``tablerules`` is a
namespace package (no ``__init__.py``, in the checkout or installed), so the checkout's folder and
the installed copy are two portions of one package, merged along ``sys.path``: the layers are
found in the installed portion, and no code runs at import to make it so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
IMPORT = re.compile(r"^\s*(?:>>>\s*)?(?:from|import) (tablerules[\w.]*)", re.M)


def guide_imports() -> list[str]:
    """``import M`` for every module of tablerules the guides' examples (doctests and Python
    blocks) import from (but the OpenSpiel adapter, which needs the extra ``[openspiel]``)."""
    pages = sorted((REPO / "docs").rglob("*.rst"))
    found = {"import " + m.group(1) for p in pages for m in IMPORT.finditer(p.read_text("utf-8"))
             if not m.group(1).startswith("tablerules.openspiel")}
    return sorted(found | {"import tablerules.model", "import tablerules.proofs.checks", "import tablerules.spec"})


def test_tablerules_is_a_namespace_package_and_nothing_edits_the_import_system():
    """The layout, not code, joins the portions: no ``__init__.py`` in ``tablerules/`` (a regular
    package there would shadow the installed copy), and no module of it edits ``__path__`` or
    ``sys.meta_path``."""
    assert not (REPO / "tablerules" / "__init__.py").exists(), "tablerules/ must stay a namespace package"
    edits = [f"{p.relative_to(REPO)}:{n}" for p in sorted((REPO / "tablerules").rglob("*.py"))
             for n, line in enumerate(p.read_text("utf-8").splitlines(), 1)
             if re.search(r"\bmeta_path\b|\b__path__\s*(\+=|=|\.(append|insert|extend))", line)]
    assert not edits, f"import-system edits: {edits}"


def test_the_guides_import_what_the_package_has():
    imports = guide_imports()
    assert "import tablerules.model.core" in imports and len(imports) > 4, imports


@pytest.fixture(scope="module")
def plain_install(tmp_path_factory) -> Path:
    """The checkout installed plainly (``pip install --target``, no dependencies): its folder.

    pip builds in the source tree (``build/``, ``*.egg-info``), so each install builds from a copy
    of its own: two test workers that each need the fixture would otherwise build in one tree."""
    base = tmp_path_factory.mktemp("plain")
    source, target = base / "source", base / "site"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "node_modules", "_build", "build",
                                                                "*.egg-info", "__pycache__", ".hypothesis"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(source)],
                   check=True, capture_output=True, timeout=300)
    return target


@pytest.mark.slow
def test_python_in_the_repository_root_imports_the_layers_after_a_plain_install(plain_install):
    target = plain_install
    assert (target / "tablerules" / "model").is_dir(), "the installed package holds the layers inside it"
    site = [p for p in sys.path if p.endswith("site-packages")]
    # -S: no .pth files, so an editable install of the checkout plays no part; the dependencies
    # come from this interpreter's site-packages, after the plain install
    script = ("import sys; sys.path[1:1] = %r\n" % [str(target)] + f"sys.path += {site!r}\n"
              + "\n".join(guide_imports()) + "\nimport tablerules.model.registry as r; print(sorted(r.ENTRIES))\n"
              + "import tablerules.cli, tablerules.proofs.exact.run as x\n"
              + "print('portions', tablerules.__file__, tablerules.cli.__file__, r.__file__, x.__file__)\n"
              + "import itertools, pkgutil, tablerules\n"
              + "names = [m.name for m in itertools.islice(pkgutil.walk_packages(tablerules.__path__, 'tablerules.',"
              + " onerror=lambda n: None), 2000)]\n"
              + "print('walk', len(names), sum(n.startswith('tablerules.tablerules') for n in names))\n")
    r = subprocess.run([sys.executable, "-S", "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "dishes" in r.stdout
    init, cli, registry, engine = r.stdout.split("portions ")[1].split()[:4]
    assert init == "None", "tablerules is a namespace package: no __init__ ran"
    assert Path(cli).is_relative_to(REPO / "tablerules"), "the command line: the checkout's portion, first on sys.path"
    for layer in (registry, engine):
        assert Path(layer).is_relative_to(target / "tablerules"), f"a layer from the installed portion: {layer}"
    walked, nested = r.stdout.split("walk ")[1].split()
    assert int(walked) < 2000 and int(nested) == 0, "a walk over the package must end (no tablerules.tablerules...)"


@pytest.mark.slow
def test_the_guides_examples_run_from_the_repository_root_after_a_plain_install(plain_install, tmp_path):
    """The guides' doctests themselves (sphinx's doctest builder, as the docs build runs them),
    from the root, where the folder ``tablerules/`` shadows the plain install."""
    pytest.importorskip("sphinx", reason="the guides' doctests need the docs extra: pip install '.[docs]'")
    if shutil.which("dot") is None and not os.environ.get("CI"):
        pytest.skip("the docs build draws the state graph with graphviz's dot: apt-get install graphviz")
    target = plain_install
    site = [p for p in sys.path if p.endswith("site-packages")]
    guides = [str(p.relative_to(REPO)) for p in sorted((REPO / "docs" / "guides").glob("*.rst"))]
    script = ("import sys; sys.path[1:1] = %r\n" % [str(target)] + f"sys.path += {site!r}\n"
              + "from sphinx.cmd.build import main\n"
              + f"sys.exit(main(['-q', '-b', 'doctest', 'docs', {str(tmp_path / 'out')!r}, *{guides!r}]))\n")
    r = subprocess.run([sys.executable, "-S", "-c", script], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    report = (tmp_path / "out" / "output.txt").read_text(encoding="utf-8")
    assert "0 failures in tests" in report and "0 failures in setup code" in report, report[-2000:]
    assert re.search(r"\b[1-9]\d* tests\b", report), report[-2000:]


def test_every_package_folder_is_listed_in_pyproject():
    """A plain install ships only the packages pyproject names: a new folder with an ``__init__.py`` that is
    not listed works from the checkout (an editable install) and is missing from a wheel."""
    import tomllib

    setup = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    listed = set(setup["packages"])
    missing = []
    for name, folder in setup["package-dir"].items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            if "_build" in rel.parts or "node_modules" in rel.parts:
                continue
            package = ".".join([name, *rel.parts]) if rel.parts else name
            if package not in listed:
                missing.append(package)
    assert not missing, f"packages pyproject does not list: {sorted(set(missing))}"
