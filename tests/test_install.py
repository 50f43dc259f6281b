"""A normal (non-editable) install works: build the wheel, install it into a fresh virtual
environment outside the checkout, and run the console script from another folder with
``HOME`` pointed at a temporary folder, so the table cache lands there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent



def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the sources: a build in the checkout itself reads
    folders the other test worker writes at the same time (numba's cache files come and go
    in solver's __pycache__ folders), and once failed with "No such file or directory"."""
    source = tmp_path_factory.mktemp("source") / "yahtzee-solver"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for package in ("solver", "advisor"):
        shutil.copytree(ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("wheel")
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "--quiet", "-w", str(out), str(source)])
    assert done.returncode == 0, done.stderr
    (found,) = out.glob("yahtzee_solver-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict:
    """A fresh venv with the wheel installed; returns its yahtzee path and a clean env."""
    base = tmp_path_factory.mktemp("installed")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    done = _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)])
    assert done.returncode == 0, done.stderr
    home = base / "home"
    home.mkdir()
    workdir = base / "elsewhere"
    workdir.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("YAHTZEE_TABLES", "XDG_CACHE_HOME", "NUMBA_CACHE_DIR", "PYTHONPATH",
                        "VIRTUAL_ENV")}
    env["HOME"] = str(home)
    return {"yahtzee": str(env_dir / "bin" / "yahtzee"), "env": env, "cwd": str(workdir),
            "home": home, "site": env_dir}


@pytest.mark.slow
def test_wheel_holds_every_subpackage_and_no_tests_or_tables(wheel):
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    packages = {n.rsplit("/", 1)[0] for n in names if n.endswith("__init__.py")}
    expected = {str(p.parent.relative_to(ROOT)) for p in ROOT.glob("solver/**/__init__.py")}
    expected |= {str(p.parent.relative_to(ROOT)) for p in ROOT.glob("advisor/**/__init__.py")}
    assert expected <= packages
    assert "advisor/cli" in packages
    assert not [n for n in names if n.startswith("tests/") or "/tests/" in n]
    assert not [n for n in names if n.endswith(".ytable") or n.startswith("tables/")]
    assert not [n for n in names if "__pycache__" in n or n.endswith((".nbi", ".nbc"))]
    static = [p for p in ROOT.glob("advisor/**/static/**/*") if p.is_file()]
    for path in static:  # every static file the web page needs ships in the wheel
        assert str(path.relative_to(ROOT)) in names
    pages = list(ROOT.glob("docs/*.md"))
    assert len(pages) > 10  # and every documentation page of `yahtzee help`, as in docs/
    for path in pages:
        shipped = f"advisor/help/{path.name}"
        assert shipped in names and archive.read(shipped) == path.read_bytes()


@pytest.mark.slow
def test_installed_commands_run_from_another_folder(installed):
    run = installed
    solve = _run([run["yahtzee"], "solve", "--json"], env=run["env"], cwd=run["cwd"])
    assert solve.returncode == 0, solve.stderr
    result = json.loads(solve.stdout)
    assert round(result["expected_score"], 6) == 254.587729
    cache = run["home"] / ".cache" / "yahtzee-solver" / "official.ytable"
    assert Path(result["path"]) == cache and cache.is_file()

    advise = _run([run["yahtzee"], "advise", "--dice", "22256", "--json"], env=run["env"],
                  cwd=run["cwd"])
    assert advise.returncode == 0, advise.stderr
    options = json.loads(advise.stdout)["options"]
    assert options[0]["action"] == "keep" and options[0]["keep"] == [2, 2, 2]

    # the static site from the installed package: every page file, the table of the cache
    site = _run([run["yahtzee"], "site", "--out", str(run["home"] / "site"), "--json"],
                env=run["env"], cwd=run["cwd"])
    assert site.returncode == 0, site.stderr
    built = json.loads(site.stdout)["files"]
    assert {"index.html", "static/app.js", "static/engine.js", "static/local.js", "sw.js",
            "tables/official.f64planes.gz"} <= set(built)
    assert all((run["home"] / "site" / name).is_file() for name in built)

    rules = _run([run["yahtzee"], "rules"], env=run["env"], cwd=run["cwd"])
    assert rules.returncode == 0, rules.stderr
    assert "official" in rules.stdout and "yatzy" in rules.stdout

    # the docs a pip user needs come with the package, equal to the repository's docs/
    page = _run([run["yahtzee"], "help", "records"], env=run["env"], cwd=run["cwd"])
    assert page.returncode == 0, page.stderr
    assert page.stdout.startswith("# Game records\n")
    assert "Ann: 22256 222 22234 2223 22235 twos" in page.stdout
    assert "`yahtzee help boxes`" in page.stdout
    listing = _run([run["yahtzee"], "help"], env=run["env"], cwd=run["cwd"])
    assert listing.returncode == 0 and "  json " in listing.stdout
    assert not list(Path(run["cwd"]).iterdir())  # nothing written where it ran


@pytest.mark.slow
def test_installed_kernels_are_compiled_once(installed):
    """The second run reuses numba's cache: no cache index is rewritten."""
    run = installed
    args = [run["yahtzee"], "advise", "--dice", "11345", "--json"]
    first = _run(args, env=run["env"], cwd=run["cwd"])
    assert first.returncode == 0, first.stderr
    caches = list(Path(run["site"]).glob("lib/python*/site-packages/solver/**/__pycache__/*.nbi"))
    assert caches, "numba wrote no cache for the installed package"
    before = {p: p.stat().st_mtime_ns for p in caches}
    second = _run(args, env=run["env"], cwd=run["cwd"])
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
    assert {p: p.stat().st_mtime_ns for p in caches} == before


def test_cache_folder_follows_the_platform_convention(monkeypatch, tmp_path):
    from solver import table

    monkeypatch.delenv("YAHTZEE_TABLES", raising=False)
    assert table.is_source_checkout()
    assert table.tables_dir() == ROOT / "tables"
    monkeypatch.setattr(table, "is_source_checkout", lambda: False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert table.tables_dir() == tmp_path / ".cache" / "yahtzee-solver"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert table.tables_dir() == tmp_path / "xdg" / "yahtzee-solver"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the spec: absolute paths only
    assert table.tables_dir() == tmp_path / ".cache" / "yahtzee-solver"
    monkeypatch.setenv("YAHTZEE_TABLES", str(tmp_path / "mine"))
    assert table.tables_dir() == tmp_path / "mine"
