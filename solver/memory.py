"""What a process keeps between solves: one bounded-cache helper and the solver's caches.

:class:`Bounded` is a least-recently-used mapping of at most ``size`` entries, safe to
share between threads (play's reader thread, the server's loop and its worker threads).
:class:`TurnMemory` holds what the solves of turns keep for the next question: the
distributions of the points to come (:mod:`solver.points_to_come`) and the goal's
vectors of the last games (:mod:`solver.vector_cache`). It is handed to the solver
explicitly by whoever owns the work (the advisor's :class:`advisor.caches.Caches` is
one), never held in a module global.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A thread-safe least-recently-used mapping of at most ``size`` entries: a read
    (:meth:`get`, :meth:`find`) or a write makes an entry the most recent, and a write
    past ``size`` lets the least recent go."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recent), or None."""
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` as the most recent; returns it."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def make(self, key: K, build: Callable[[], V]) -> V:
        """The value of ``key``, built by ``build()`` when missing (outside the lock: two
        threads asking at once may both build it; the last one built is kept)."""
        found = self.get(key)
        return found if found is not None else self.put(key, build())

    def find(self, test: Callable[[K, V], bool]) -> V | None:
        """The most recent value whose ``test(key, value)`` holds (now the most recent),
        or None."""
        with self._lock:
            for key in reversed(self._items):
                if test(key, self._items[key]):
                    self._items.move_to_end(key)
                    return self._items[key]
        return None

    def shrink(self, size: int) -> None:
        """Let the least recent go until at most ``size`` entries are left."""
        with self._lock:
            while len(self._items) > max(size, 0):
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def keys(self) -> Iterator[K]:
        """The keys, least recent first (a copy)."""
        with self._lock:
            return iter(list(self._items))


POINTS_KEPT = 64
"""Distributions of the points to come kept (in a game the same cards come back turn
after turn; a review keeps every card of its game)."""
VECTORS_KEPT = 2
"""Games whose goal vectors are kept (both players of a two-player game)."""


@dataclass
class TurnMemory:
    """What the solves of turns keep: ``points``, the distributions of the points to come
    by ``(table, state)``; ``vectors``, the goal's vectors of the last games
    (:mod:`solver.vector_cache`)."""

    points: Bounded[Any, Any] = field(default_factory=lambda: Bounded(POINTS_KEPT))
    vectors: Bounded[Any, Any] = field(default_factory=lambda: Bounded(VECTORS_KEPT))
