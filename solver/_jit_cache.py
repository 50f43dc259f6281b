"""Keep numba's on-disk cache of this package honest.

numba invalidates a cached kernel only when the file that defines it changes, not when
a module it reads constants from does (``game.dice``, ``game.rules``, ``kernels.policy``,
...): after such an edit the old machine code would be loaded. Every kernel module calls
:func:`check` before defining kernels: when any source file of the package (its
subpackages included) differs from the stamp left by the last check, the cached kernels
of every folder of the package are deleted and rebuilt. Only the default cache folders
(``__pycache__`` beside each module) are managed; a custom ``NUMBA_CACHE_DIR`` is the
user's to clear.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CACHE = _PACKAGE / "__pycache__"
_STAMP = _CACHE / "kernels-source.sha256"
_checked = False
_on_compile: list[Callable[[], None]] = []
_listening = False


def on_first_compile(callback: Callable[[], None]) -> None:
    """Call ``callback()`` once, when numba first compiles a kernel in this process (a
    kernel loaded from the on-disk cache does not count). Imports nothing heavy."""
    if callback not in _on_compile:
        _on_compile.append(callback)


def _listen() -> None:
    """Register the numba event listener behind :func:`on_first_compile` (numba loaded)."""
    global _listening
    if _listening:
        return
    _listening = True
    from numba.core import event

    class FirstCompile(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            while _on_compile:
                _on_compile.pop(0)()

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
