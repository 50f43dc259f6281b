"""``yahtzee site --out DIR`` replaces only the site's own entries: a rebuild keeps what
else the folder holds (a host's CNAME, .nojekyll, .git/...), whether it ends, fails or
is interrupted at any step (the next build puts things right); the current folder, the
home folder, the root and the folders holding them are refused however spelled."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import advisor.site_folder as site_folder
from advisor.cli import cli
from advisor.site import build_site
from solver.errors import WriteError
from tests.advisor.cli.test_solve import assert_clean_error

SITE_FILES = {"index.html", "site.json", "sw.js", "manifest.webmanifest", "icon-192.png",
              "icon-512.png"}


def snapshot(folder: Path) -> dict[str, object]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder's mark."""
    seen: dict[str, object] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            key = path.relative_to(folder).as_posix()
            seen[key] = (f"link to {os.readlink(path)}" if path.is_symlink() else
                         "folder" if path.is_dir() else path.read_bytes())
    return seen


def the_users(folder: Path) -> dict[str, object]:
    """What ``folder`` holds beside a site's entries."""
    return {k: v for k, v in snapshot(folder).items()
            if k.split("/")[0] not in site_folder.SITE_ENTRIES}


def add_the_users_files(out: Path) -> dict[str, object]:
    """A host's and a user's files beside the site (a dozen kinds); returns them."""
    (out / "CNAME").write_text("yahtzee.example.org\n")
    (out / ".nojekyll").write_bytes(b"")
    (out / ".git" / "objects" / "ab").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / ".git" / "objects" / "ab" / "cdef").write_bytes(bytes(range(256)))
    (out / "README.md").write_text("my site\n")
    (out / "404.html").write_text("<p>lost</p>")
    (out / "static.bak").mkdir()
    (out / "static.bak" / "app.js").write_text("old")
    (out / ".site.json").write_text("{}")
    (out / "tables.txt").write_text("notes")
    os.symlink("/etc/hostname", out / "a-link")
    os.symlink("no-such-file", out / "broken-link")
    (out / "empty-folder").mkdir()
    return the_users(out)


@pytest.fixture(scope="module")
def built(table_of, tmp_path_factory) -> Path:
    """An earlier site, built once: official's, and a table of another rule set (as a
    site of two leaves it; a rebuild for one rule set removes it)."""
    out = tmp_path_factory.mktemp("built") / "site"
    build_site(out, ["official"], table_of=table_of)
    (out / "tables" / "yatzy.f64planes.gz").write_bytes(b"an earlier table")
    return out


@pytest.fixture
def earlier(built, tmp_path) -> tuple[Path, dict[str, object]]:
    """A copy of the earlier site in ``tmp_path/site`` and the user's files in it."""
    out = tmp_path / "site"
    shutil.copytree(built, out)
    return out, add_the_users_files(out)


def assert_rebuilt(out: Path, users: dict[str, object]) -> None:
    """``out`` is the official-only site with the user's entries as they were, and no
    temporary folder is left beside it."""
    assert the_users(out) == users
    names = {p.name for p in out.iterdir()} - set(users)
    assert names == SITE_FILES | {"static", "tables"}
    assert [p.name for p in (out / "tables").iterdir()] == ["official.f64planes.gz"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["site"]


def test_a_rebuild_keeps_what_the_site_did_not_write(earlier, table_of):
    out, users = earlier
    result = CliRunner().invoke(cli, ["site", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert_rebuilt(out, users)


def test_force_writes_in_a_folder_that_is_no_site_and_keeps_its_files(table_of, tmp_path):
    table_of("official")
    out = tmp_path / "site"
    out.mkdir()
    users = add_the_users_files(out)
    line = assert_clean_error(CliRunner().invoke(cli, ["site", "--out", str(out)]))
    assert "not empty" in line and the_users(out) == users
    result = CliRunner().invoke(cli, ["site", "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert_rebuilt(out, users)


class Stop(BaseException):
    """A kill at one step: nothing after it runs, no clean-up either."""


def _stopping_at(monkeypatch, what: str, step: int, fault: BaseException) -> list[int]:
    """Make the ``step``-th call of ``os.rename`` or ``Path.write_bytes`` in the site
    writer raise ``fault``; returns the count of calls made."""
    calls = [0]
    real = os.rename if what == "rename" else Path.write_bytes

    def counted(*args):
        calls[0] += 1
        if calls[0] == step:
            raise fault
        return real(*args)

    if what == "rename":
        monkeypatch.setattr(site_folder.os, "rename", counted)
    else:
        monkeypatch.setattr(Path, "write_bytes", counted)
    return calls


def _steps(what: str) -> list[int]:
    # renames: the 11 entries kept (the first, one, the last), the earlier site set
    # aside, the new one moved in; writes: the first file, a later one
    return [1, 6, 11, 12, 13] if what == "rename" else [1, 20] if what == "rename" else [1, 5, 20]


@pytest.mark.parametrize("what, step", [(w, s) for w in ("rename", "write")
                                        for s in _steps(w)])
def test_a_build_interrupted_at_any_step_is_put_right_by_the_next(earlier, table_of,
                                                                  monkeypatch, what, step):
    out, users = earlier
    with monkeypatch.context() as patch:
        calls = _stopping_at(patch, what, step, Stop())
        with pytest.raises(Stop):
            build_site(out, ["official"], table_of=table_of)
        assert calls[0] == step
    result = CliRunner().invoke(cli, ["site", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert_rebuilt(out, users)


@pytest.mark.parametrize("what, step", [(w, s) for w in ("rename", "write")
                                        for s in _steps(w)])
def test_a_build_that_fails_at_any_step_leaves_the_earlier_site(earlier, table_of,
                                                               monkeypatch, what, step):
    out, _ = earlier
    before = snapshot(out)
    with monkeypatch.context() as patch:
        _stopping_at(patch, what, step, OSError(28, "No space left on device"))
        with pytest.raises(WriteError, match="No space left on device"):
            build_site(out, ["official"], table_of=table_of)
    assert snapshot(out) == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["site"]


def test_leftovers_of_the_earlier_writer_are_removed(earlier, table_of):
    """The temporary folders the writer before this one left (a new site half written; an
    earlier site set aside) hold only a site's entries: removed; other folders of like
    names are not the writer's and stay."""
    out, users = earlier
    for name in (".site.abcd_123", ".site.old.x1y2z3w4"):
        (out.parent / name / "static").mkdir(parents=True)
        (out.parent / name / "index.html").write_text("half")
    (out.parent / ".site.old.x1y2z3w4" / "static").rename(
        out.parent / ".site.old.x1y2z3w4" / "site")
    (out.parent / ".site.backup").mkdir()
    (out.parent / ".site.old.toolong123").mkdir()
    result = CliRunner().invoke(cli, ["site", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.parent.iterdir()) == [
        ".site.backup", ".site.old.toolong123", "site"]


@pytest.mark.parametrize("spelling", [".", "", "./", ".//", "./.", "here/..", "HERE",
                                      "HERE/", "..", "../..", "/", "//", "/..", "/./",
                                      "HOME", "HOME/", "HOME/../home", "HOMEPARENT"])
def test_the_current_folder_home_and_root_are_refused(built, tmp_path, monkeypatch,
                                                      spelling):
    """The current folder an earlier site with the user's files (as ``--out .`` meets
    it): refused, however spelled, with one line, and nothing changed anywhere."""
    home = tmp_path / "home"
    work = home / "work"
    shutil.copytree(built, work)
    add_the_users_files(work)
    (work / "here").mkdir()
    shutil.copytree(built, home / "site")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    out = (spelling.replace("HOMEPARENT", str(tmp_path)).replace("HOME", str(home))
           .replace("HERE", str(work)))
    before = snapshot(tmp_path)
    line = assert_clean_error(CliRunner().invoke(cli, ["site", "--out", out]))
    assert any(what in line for what in (
        "is the current folder", "is the home folder", "is the root folder",
        "holds the current folder", "holds the home folder", "is empty text")), line
    assert "give a new folder for the site" in line
    assert snapshot(tmp_path) == before
