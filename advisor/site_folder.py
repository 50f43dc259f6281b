"""The folder of ``yahtzee site``: where a site may be written, and its replacement.

A site's own entries are the top-level names of :data:`SITE_ENTRIES` (``static/`` and
``tables/`` whole). A rebuild replaces those and keeps everything else the folder holds
(a host's ``CNAME``, ``.nojekyll``, ``.git/``, a ``README.md``...). The new site is
written beside the folder, the entries kept are moved into it, then it takes the
folder's place (the earlier site is set aside, then removed): a failure puts everything
back, and the temporary folders an interrupted build leaves (``.NAME.XXXXXXXX``, the new
site; ``.NAME.old.XXXXXXXX/site``, the earlier one) are put back or removed by the next
build (:func:`recover`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from solver.errors import WriteError, shown_path

MARKER = "site.json"
KIND = "yahtzee-site"
SITE_ENTRIES = frozenset({"index.html", MARKER, "sw.js", "manifest.webmanifest",
                          "icon-192.png", "icon-512.png", "static", "tables"})
"""The top-level names a site writes: replaced by a rebuild, everything else kept."""


class SiteError(WriteError):
    """The site cannot be written where asked."""


def check_target(out: str | os.PathLike[str], *, force: bool) -> Path:
    """``out`` as a path; raise :class:`SiteError` unless it is missing, an empty folder
    or an earlier site (``force``: any folder), and not the current folder, the home
    folder, the root or a folder that holds one of them, however spelled."""
    if os.fspath(out) == "":
        raise SiteError("the site's folder is empty text; give a new folder for the site")
    target = Path(out)
    _check_place(target)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise SiteError(f"{shown_path(target)} is not a folder; give a new folder for the site")
    if not target.exists():
        if not target.parent.is_dir():
            raise SiteError(f"cannot create {shown_path(target)}: its parent folder does not "
                            f"exist")
        return target
    if force:
        return target
    if any(target.iterdir()) and not is_site(target / MARKER):
        raise SiteError(f"{shown_path(target)} is a folder that is not empty and holds no "
                        f"site ({MARKER}); give a new or empty folder, or --force to "
                        f"write the site in it (what it holds beside the site is kept)")
    return target


def _check_place(target: Path) -> None:
    real = target.resolve()
    here = Path.cwd().resolve()
    try:
        home: Path | None = Path.home().resolve()
    except (RuntimeError, KeyError):  # (no home folder known)
        home = None
    what = ("the root folder" if real.parent == real else
            "the current folder" if real == here else
            "the home folder" if real == home else
            "a folder that holds the current folder" if real in here.parents else
            "a folder that holds the home folder" if home and real in home.parents else None)
    if what is not None:
        raise SiteError(f"{shown_path(target)} is {what}; give a new folder for the site "
                        f"(a site's folder is set aside while the new one takes its place)")


def is_site(marker: Path) -> bool:
    """True when ``marker`` is the ``site.json`` of a site."""
    try:
        return json.loads(marker.read_text("utf-8")).get("kind") == KIND
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


def _leftovers(target: Path) -> tuple[list[Path], list[Path]]:
    """(new sites, set-aside earlier sites) that builds of ``target`` left beside it."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(old\.)?[a-z0-9_]{{8}}")
    fresh: list[Path] = []
    old: list[Path] = []
    for path in sorted(target.parent.iterdir()):
        if pattern.fullmatch(path.name) and path.is_dir() and not path.is_symlink():
            (old if path.name.startswith(f".{target.name}.old.") else fresh).append(path)
    return fresh, old


def _move_kept(source: Path, into: Path) -> None:
    """Move what ``source`` holds beside a site's entries into ``into`` (a name ``into``
    holds already stays where it is)."""
    for entry in sorted(source.iterdir()):
        if entry.name not in SITE_ENTRIES and not os.path.lexists(into / entry.name):
            os.rename(entry, into / entry.name)


def recover(target: Path) -> None:
    """Put back what an interrupted build of ``target`` left beside it: the earlier site
    set aside becomes ``target`` again when ``target`` is missing, the entries kept that
    were moved into the new site go back into ``target``; then the temporary folders are
    removed (only when nothing but a site's entries is left in them)."""
    fresh, old = _leftovers(target)
    for aside in old:
        earlier = aside / "site"
        if earlier.is_dir() and not os.path.lexists(target):
            os.rename(earlier, target)
    for folder in fresh + [aside / "site" for aside in old]:
        if folder.is_dir() and target.is_dir():
            _move_kept(folder, target)
    for folder in fresh + old:
        inside = [folder / "site"] if folder in old else [folder]
        if all(not p.is_dir() or {e.name for e in p.iterdir()} <= SITE_ENTRIES
               for p in inside):
            shutil.rmtree(folder, ignore_errors=True)


def write_folder(target: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` (path inside the site -> bytes) as the site ``target``, keeping
    what ``target`` holds beside a site's entries (:data:`SITE_ENTRIES`)."""
    target = target.resolve()  # (never a link: check_target refuses one)
    parent = target.parent
    try:
        recover(target)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    except OSError as exc:
        raise SiteError(f"cannot write the site in {shown_path(parent)}: "
                        f"{exc.strerror}") from None
    try:
        for key, data in files.items():
            path = fresh / key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        os.chmod(fresh, 0o755)
        if target.exists():
            _move_kept(target, fresh)
            aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=parent))
            os.rename(target, aside / "site")
        os.rename(fresh, target)
        recover(target)  # (the earlier site set aside: removed)
    except OSError as exc:
        try:
            recover(target)  # (the earlier site and what was kept put back)
        except OSError:
            pass
        raise SiteError(f"cannot write the site {shown_path(target)}: "
                        f"{exc.strerror}") from None
