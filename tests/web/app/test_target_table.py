"""The page's reach chart with a target table: ``GET /api/distribution`` adds the best
chance of each target (``p_best``), exactly as ``stats --target X`` gives it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from advisor.model import Scorecard
from advisor.target_stats import target_stats
from solver.target_table import forget_targets, solve_targets, write_targets

R = 30

def test_the_reach_chart_gets_the_best_chance_of_each_target(server, table_of, tables_dir):
    """With a target table, /api/distribution adds ``p_best``: P(final >= X) under the best
    strategy for each X, as ``stats --target X`` gives it (two-rolls: no other test reads
    a two-rolls target table; the file is removed after)."""
    table = table_of("two-rolls")
    card = "aces=1,twos=2,threes=3,fours=0,fives=0,sixes=0,3k=0,4k=0,fh=0,ss=0"
    path = Path(tables_dir) / "two-rolls.ytargets"
    status, before = server.get("/api/distribution", {"rules": "two-rolls", "card": card})
    assert status == 200 and "p_best" not in before
    write_targets(path, table, R, solve_targets(table, R))
    try:
        status, body = server.get("/api/distribution", {"rules": "two-rolls", "card": card})
    finally:
        path.unlink()
    assert status == 200, body
    best = {int(x): p for x, p in body.pop("p_best").items()}
    assert body == before  # the rest as without the table
    assert sorted(best) == list(range(7, R + 1))  # above the total of 6, up to R
    forget_targets()  # (this process: no table)
    parsed = Scorecard.parse(card, "two-rolls")
    for x in (7, 12, 20, R):
        assert best[x] == target_stats(table, parsed, x, ()).p_target, x
    assert np.all(np.diff(list(best.values())) <= 1e-13)  # harder targets, smaller chances
    status, after = server.get("/api/distribution", {"rules": "two-rolls", "card": card})
    assert status == 200 and "p_best" not in after
