"""``yahtzee solve``: a rule set's expected-score table; with --targets its target table,
with --tournament N a tournament's solve (``yahtzee export`` writes the table out:
:mod:`advisor.cli.export`)."""

from __future__ import annotations

import time

import click

from solver import stats_file, target_table
from solver.formats.tablefile import check_table_target
from solver.game.rules import RuleSet, get_rules
from solver.stats import highest_score
from solver.table import SolveSummary, build_table, default_table_path
from solver.target_table import (
    check_targets_target,
    default_max,
    forget_targets,
    solve_targets,
    write_targets,
)
from solver.tournament_file import (
    check_tournament_target,
    forget_tournaments,
    solve_tournament,
    tournament_path,
    write_tournament,
)

from ..objective import Objective
from ..request.params import options
from ._base import emit_json
from ._progress import command_memory, load_new_game_stats, load_table, progress_bar


@click.command()
@options("rules", "table_out", "targets", "max_target", "tournament", "field", "field_scores",
         "force", "json",
         tournament={
    "help": "Solve a tournament of N players in all (2 to 100,000) from a new game and keep "
            "the solve beside the table (a file per rules, field and N), so that every later "
            "--tournament N question answers at once (minutes, and hundreds of MB)."})
def solve(rules_name: str, out: str | None, targets: bool, max_target: int | None,
          tournament: str | None, field: str | None, field_scores: str | None,
          force: bool, as_json: bool) -> None:
    """Build the table of a rule set and print the new-game expected score; with
    --targets, the target table beside it; with --tournament N, a tournament's solve.

    Example: yahtzee solve --rules yatzy; yahtzee solve --targets; yahtzee solve
    --tournament 10000
    """
    rules = get_rules(rules_name)
    if max_target is not None and not targets:
        raise click.UsageError("--max is the largest target of --targets: give both")
    if tournament is not None or field is not None or field_scores is not None:
        if targets or out is not None:
            raise click.UsageError("--tournament solves a tournament alone: leave out "
                                   "--targets and --out (the solve is kept where tournament "
                                   "questions read it, in the table cache)")
        objective = Objective.parse_options(tournament=tournament, field=field,
                                            field_scores=field_scores, rules=rules)
        _solve_tournament(rules, objective, force, as_json)
        return
    if targets:
        if out is not None:
            raise click.UsageError("--out is where the expected-score table goes; the target "
                                   "table is written where target questions read it "
                                   "(<rules>.ytargets in the table cache)")
        _solve_targets(rules, max_target, force, as_json)
        return
    if out is not None:
        check_table_target(out, rules, force=force)
    else:
        check_table_target(default_table_path(rules), rules, force=True)
    update, close = progress_bar(f"solving {rules_name}")
    start = time.perf_counter()
    try:
        table, build_seconds = build_table(rules, path=out, progress=update, force=force)
    finally:
        close()
    summary = SolveSummary(table, build_seconds, time.perf_counter() - start)
    if as_json:
        emit_json(summary.to_json())
        return
    click.echo(f"rules:          {table.rules.name}")
    click.echo(f"expected score: {table.expected_score:.6f}")
    click.echo(f"states:         {table.states:,}")
    click.echo(f"wall time:      {summary.seconds:.2f} s (solve {build_seconds:.2f} s)")
    click.echo(f"table:          {table.path}")


def _solve_targets(rules: RuleSet, max_target: int | None, force: bool, as_json: bool) -> None:
    """``yahtzee solve --targets``: the target DP for every target up to R, stored."""
    highest = highest_score(rules)
    top = default_max(rules) if max_target is None else max_target
    if top > highest:
        raise click.UsageError(f"--max {top}: the highest score of {rules.name} is "
                               f"{highest}; give --max {highest} or less")
    path = target_table.default_targets_path(rules)  # (a test points it elsewhere)
    check_targets_target(path, rules, force=force)
    table = load_table(rules.name)
    update, close = progress_bar(f"targets up to {top}")
    start = time.perf_counter()
    try:
        vectors = solve_targets(table, top, update)
    finally:
        close()
    solved = time.perf_counter() - start
    size = write_targets(path, table, top, vectors, force=force)
    entries = int(vectors.entries)
    forget_targets()
    del vectors
    load_new_game_stats(table)  # stats --target's expected-score column, from a new game
    seconds = time.perf_counter() - start
    if as_json:
        emit_json({"rules": rules.name, "max_target": top, "path": str(path), "bytes": size,
                   "entries": entries, "seconds": seconds,
                   "solve_seconds": solved})
        return
    click.echo(f"rules:          {rules.name}")
    click.echo(f"targets:        1 to {top} (W(s, r) for every r <= {top})")
    click.echo(f"size:           {size / 1e6:.0f} MB")
    click.echo(f"wall time:      {seconds:.2f} s (solve {solved:.2f} s)")
    click.echo(f"target table:   {path}")
    click.echo(f"new-game stats: {stats_file.default_stats_path(rules)}")


def _solve_tournament(rules: RuleSet, objective: Objective, force: bool,
                      as_json: bool) -> None:
    """``yahtzee solve --tournament N``: the tournament's DP from a new game, every level
    kept, written where tournament questions read it."""
    from solver.target import turn_at  # numba (about 1 s to load)

    assert objective.players is not None and objective.field is not None
    players, field = objective.players, objective.field
    path = tournament_path(rules, players, field)
    check_tournament_target(path, rules, players, field, force=force)
    table = load_table(rules.name)
    start = time.perf_counter()
    utility = objective.utility(table, command_memory())
    update, close = progress_bar(f"tournament of {players:,} from a new game", unit="step")
    try:
        vectors = solve_tournament(table, utility, update)
    finally:
        close()
    solved = time.perf_counter() - start
    share = min(max(turn_at(vectors, 0, 0, 0, 0).value, 0.0), 1.0)
    size = write_tournament(path, table, players, field, vectors, force=force)
    entries = int(vectors.entries)
    forget_tournaments()
    del vectors
    seconds = time.perf_counter() - start
    if as_json:
        emit_json({"rules": rules.name, "objective": objective.to_json(), "players": players,
                   "win_share": share, "path": str(path), "bytes": size,
                   "entries": entries, "seconds": seconds, "solve_seconds": solved})
        return
    click.echo(f"rules:          {rules.name}")
    click.echo(f"tournament:     {players:,} players, the others' final scores from "
               f"{field.describe()}")
    click.echo(f"share of 1st:   {100 * share:.4f} % from a new game (tournament play)")
    click.echo(f"size:           {size / 1e6:.0f} MB")
    click.echo(f"wall time:      {seconds:.2f} s (solve {solved:.2f} s)")
    click.echo(f"kept solve:     {path}")
