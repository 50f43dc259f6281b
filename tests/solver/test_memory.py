"""solver/memory.py: the one bounded-cache helper (least recently used out first, by
hand-worked sequences)."""

from __future__ import annotations

import threading

from solver.memory import Bounded


def test_the_least_recently_used_goes_first_and_a_read_makes_an_entry_recent():
    kept: Bounded[str, int] = Bounded(3)
    for i, key in enumerate("abc"):
        assert kept.put(key, i) == i
    assert list(kept.keys()) == ["a", "b", "c"]
    assert kept.get("a") == 0  # now the most recent: b is the least
    kept.put("d", 3)
    assert list(kept.keys()) == ["c", "a", "d"] and "b" not in kept and len(kept) == 3
    assert kept.get("b") is None
    kept.put("c", 9)  # written again: its new value, the most recent
    assert list(kept.keys()) == ["a", "d", "c"] and kept.get("c") == 9


def test_make_builds_once_and_find_takes_the_most_recent_match():
    kept: Bounded[int, str] = Bounded(4)
    built: list[int] = []

    def build(n: int):
        return lambda: built.append(n) or f"v{n}"

    assert [kept.make(n, build(n)) for n in (1, 2, 1, 3)] == ["v1", "v2", "v1", "v3"]
    assert built == [1, 2, 3]  # 1 kept, not built again
    assert list(kept.keys()) == [2, 1, 3]
    # the most recent of the odd keys is 3; found, it stays the most recent
    assert kept.find(lambda key, value: key % 2 == 1) == "v3"
    assert kept.find(lambda key, value: value == "v1") == "v1"
    assert list(kept.keys()) == [2, 3, 1]
    assert kept.find(lambda key, value: key > 10) is None
    kept.shrink(1)
    assert list(kept.keys()) == [1]
    kept.shrink(-1)
    assert len(kept) == 0


def test_a_size_of_zero_keeps_nothing_and_make_still_answers():
    kept: Bounded[str, int] = Bounded(0)
    assert kept.make("a", lambda: 7) == 7 and len(kept) == 0


def test_threads_writing_at_once_never_pass_the_bound():
    kept: Bounded[int, int] = Bounded(50)

    def write(offset: int) -> None:
        for i in range(2000):
            kept.put(offset + i, i)
            kept.get(offset + i // 2)

    threads = [threading.Thread(target=write, args=(10_000 * n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(kept) == 50 and len(list(kept.keys())) == 50
