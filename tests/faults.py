"""Faults the tests inject: a process start that fails as it does when no file
descriptor is left (``os.pipe`` or a pool's start raising EMFILE)."""

from __future__ import annotations

import errno
import os
from typing import Any


def emfile() -> OSError:
    """The error of a start with no file descriptor left."""
    return OSError(errno.EMFILE, os.strerror(errno.EMFILE))


def fail_next(monkeypatch: Any, module: Any, name: str, failures: list[int]) -> None:
    """``module.name`` raises :func:`emfile` the next ``failures[0]`` times it is called
    (the test may raise the count as it goes), and is the real one otherwise."""
    real = getattr(module, name)

    def failing(*args: Any, **kwargs: Any) -> Any:
        if failures[0]:
            failures[0] -= 1
            raise emfile()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, failing)
