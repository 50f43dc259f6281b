"""Keep numba's on-disk cache of this package honest.

numba invalidates a cached kernel only when the file that defines it changes, not when
a module it reads constants from does (``game.dice``, ``game.rules``, ``kernels.policy``,
...): after such an edit the old machine code would be loaded. Every kernel module calls
:func:`check` before defining kernels: when any source file of the package (its
subpackages included) differs from the stamp left by the last check, the cached kernels
of every folder of the package are deleted and rebuilt. Only the default cache folders
(``__pycache__`` beside each module) are managed; a custom ``NUMBA_CACHE_DIR`` is the
user's to clear.

numba compiles a kernel when it is first called. What a command compiles is named by the
driver around it (:func:`compiling`, with one of the kinds below), so the first compile
of a kind can say so (:func:`on_first_compile`); ``solver.warmup`` compiles the
everyday kind ahead, or every kind.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

_PACKAGE = Path(__file__).resolve().parent
_CACHE = _PACKAGE / "__pycache__"
_STAMP = _CACHE / "kernels-source.sha256"
_checked = False
_listening = False


class Kind(NamedTuple):
    """A kind of kernels compiled together: what a note calls them, and about how many
    seconds compiling them takes on a quiet 2-core machine (empty cache)."""

    what: str
    seconds: int


EVERYDAY = Kind("kernels", 15)
"""The table's turn values and the exact statistics (advise, play, analyze, strategy,
stats, the why's figures) and the solver's levels: any compile outside
:func:`compiling`."""
SIMULATOR = Kind("the simulator's kernels", 15)
TARGETS = Kind("the target and win kernels", 10)
KINDS = (EVERYDAY, SIMULATOR, TARGETS)

_on_compile: list[Callable[[Kind], None]] = []
_told: set[Kind] = set()
_naming = threading.local()  # .kinds: the stack of kinds named in this thread


def on_first_compile(callback: Callable[[Kind], None]) -> None:
    """Call ``callback(kind)`` when numba first compiles a kernel of that kind in this
    process (once per kind; a kernel loaded from the on-disk cache does not count).
    Imports nothing heavy."""
    if callback not in _on_compile:
        _on_compile.append(callback)


@contextmanager
def compiling(kind: Kind) -> Iterator[None]:
    """Count what numba compiles in this block (in this thread) as ``kind``."""
    kinds = _naming.__dict__.setdefault("kinds", [])
    kinds.append(kind)
    try:
        yield
    finally:
        kinds.pop()


def _first_compile() -> None:
    """A compile starts: tell the callbacks when it is the first of its kind."""
    kinds = _naming.__dict__.get("kinds")
    kind = kinds[-1] if kinds else EVERYDAY
    if kind in _told:
        return
    _told.add(kind)
    for callback in _on_compile:
        callback(kind)


def _listen() -> None:
    """Register the numba event listener behind :func:`on_first_compile` (numba loaded)."""
    global _listening
    if _listening:
        return
    _listening = True
    from numba.core import event

    class FirstCompile(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            _first_compile()

        def on_end(self, ev: event.Event) -> None:
            pass

    event.register("numba:compile", FirstCompile())


def _source_digest() -> str:
    """SHA-256 of every ``*.py`` of the package and its subpackages, with their paths."""
    h = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        h.update(path.relative_to(_PACKAGE).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def check() -> None:
    """Delete stale cached kernels of this package (once per process)."""
    global _checked
    _listen()
    if _checked or os.environ.get("NUMBA_CACHE_DIR"):
        _checked = True
        return
    _checked = True
    digest = _source_digest()
    try:
        if _STAMP.read_text() == digest:
            return
    except OSError:
        pass
    try:
        _CACHE.mkdir(exist_ok=True)
        for folder in _PACKAGE.rglob("__pycache__"):
            for stale in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                stale.unlink(missing_ok=True)
        _STAMP.write_text(digest)
    except OSError:
        pass  # a read-only install: numba falls back to its own cache location
