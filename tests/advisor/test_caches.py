"""advisor/caches.py: the one object that holds every cache of the advisor (the bounded
helper itself: tests/solver/test_memory.py)."""

from __future__ import annotations

from advisor import caches as caches_module
from advisor.caches import ADVISORS_KEPT, POINTS_KEPT, VECTORS_KEPT, Caches, caches
from solver.memory import TurnMemory


def test_one_object_holds_every_cache_with_its_bounds(monkeypatch):
    fresh = Caches()
    assert {family: kept.size for family, kept in fresh.advisors.items()} == ADVISORS_KEPT
    assert (fresh.points.size, fresh.vectors.size) == (POINTS_KEPT, VECTORS_KEPT)
    assert Caches().points is not fresh.points  # each object its own caches
    assert isinstance(fresh, TurnMemory)  # what the solver is handed
    monkeypatch.setattr(caches_module, "_process", fresh)
    assert caches() is fresh
