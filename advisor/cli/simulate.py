"""``yahtzee simulate``: seeded games of a strategy, judged against optimal play."""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable
from typing import Any

import click
from tqdm import tqdm

from solver.errors import shown, shown_path
from solver.stats import PERCENTILES

from ..record_file import check_records_folder, records_from_traces, write_records
from ..request.params import options
from ._base import emit_json, note
from ._progress import load_table, progress_bar


def _resolve_strategy(name: str, option: str) -> str | Callable[..., Any]:
    """A built-in name, or ``module:function`` naming a Python strategy callable (the
    module is imported from the current folder or the Python path). ``option`` names
    the option the name came from, for the error message."""
    # the simulator's modules here and below: they load numba (half a second), which
    # `yahtzee simulate --help` skips
    from solver.simulate.strategies import (
        PREFIX,
        STRATEGIES,
        TOURNAMENT_PREFIX,
        is_target_strategy,
        is_tournament_strategy,
        parse_target,
        parse_tournament,
    )

    key = name.strip()
    if key.lower() in STRATEGIES:
        return key.lower()
    if is_tournament_strategy(key):
        try:
            return f"{TOURNAMENT_PREFIX}{parse_tournament(key)}"
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=option) from None
    if is_target_strategy(key):
        try:
            return f"{PREFIX}{parse_target(key)}"
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=option) from None
    if ":" not in key:
        raise click.BadParameter(
            f"unknown strategy {shown(key, 40)}; use one of {', '.join(STRATEGIES)}, "
            "target:X or module:function", param_hint=option)
    module_name, _, attr = key.partition(":")
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module_name, re.ASCII) or \
            not re.fullmatch(r"[A-Za-z_]\w*", attr, re.ASCII):
        raise click.BadParameter(
            f"{shown(key, 40)} is not module:function (an absolute module name, e.g. "
            "mystrategies:cautious; relative names are not accepted)", param_hint=option)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # modules of the current folder, as `python -m`
    try:
        func = getattr(importlib.import_module(module_name), attr)
    except Exception as exc:  # noqa: BLE001  (any error of the user's module)
        raise click.BadParameter(
            f"cannot import strategy {shown(key, 40)}: {type(exc).__name__}: "
            f"{shown(exc, 60)}", param_hint=option) from None
    if not callable(func) or isinstance(func, type):
        raise click.BadParameter(f"{shown(key, 40)} is not a strategy function (a callable "
                                 f"taking one Decision)", param_hint=option)
    return func


def _run(table: Any, strategy: str | Callable[..., Any], label: str, games: int,
         seed: int, *, record: bool = False, workers: int = 1) -> Any:
    from solver.simulate import simulate
    from solver.simulate.strategies import is_target_strategy, is_tournament_strategy

    solving = progress_bar(f"{label} vectors")
    playing = progress_bar(label, unit="game")

    def played(done: int, total: int) -> None:
        solving[1]()  # the solve's bar (if any) ends when the games' starts
        playing[0](done, total)

    target = isinstance(strategy, str) and (is_target_strategy(strategy)
                                            or is_tournament_strategy(strategy))
    try:
        return simulate(table, strategy, games, seed, progress=played, name=label,
                        record=record, solve_progress=solving[0] if target else None,
                        workers=workers, note=note)
    finally:
        solving[1]()
        playing[1]()


@click.command()
@options("rules", "games", "strategy", "compare", "seed", "workers", "records", "table",
         "json")
def simulate(rules_name: str, games: int, strategy: str | None, compare: str | None, seed: int,
             workers: int, records_dir: str | None, table_path: str | None,
             as_json: bool) -> None:
    """Play seeded games with a strategy and report its scores (see solver/simulate/ for
    the strategies and for writing your own). target:X also reports how often the games
    reached X against the exact probability (`yahtzee help objectives`). Every decision
    is judged against optimal play: the corrected mean, E(new game) minus the mean loss
    (with the luck of the rolls as control variates), estimates the expected score
    without the dice's luck (`yahtzee help simulate`).

    Example: yahtzee simulate --games 1000 --strategy greedy-turn --records games/;
    yahtzee simulate --strategy target:300 --games 20000
    """
    from solver.simulate import comparison_json

    if compare is not None and strategy is not None:
        raise click.UsageError("give --strategy (one strategy) or --compare (several), "
                               "not both")
    if compare is not None and records_dir is not None:
        raise click.UsageError("records are written for one strategy at a time; use "
                               "--strategy with --records, not --compare")
    if compare is not None:
        items = [s.strip() for s in compare.split(",")]
        if not any(items) or not all(items):
            raise click.BadParameter("name strategies separated by single commas, e.g. "
                                     "optimal,greedy", param_hint="--compare")
        resolved = [(name, _resolve_strategy(name, "--compare")) for name in items]
    else:
        name = "optimal" if strategy is None else strategy.strip()
        if not name:
            raise click.BadParameter("name a strategy, e.g. optimal", param_hint="--strategy")
        resolved = [(name, _resolve_strategy(name, "--strategy"))]
    if records_dir is not None:
        check_records_folder(records_dir)
    table = load_table(rules_name, table_path)
    results = [_run(table, strat, name, games, seed, record=records_dir is not None,
                    workers=workers) for name, strat in resolved]
    if records_dir is not None:
        _write_records(records_dir, table.rules.name, results[0])
    if as_json:
        emit_json(comparison_json(table, results) if compare is not None
                  else results[0].to_json())
        return
    lines = _compare_lines(table, results) if compare is not None else _result_lines(results[0])
    for line in lines:
        click.echo(line)


def _write_records(folder: str, rules_name: str, result: Any) -> None:
    """The games of ``result`` as records in ``folder``, with a progress bar."""
    with tqdm(total=result.games, desc="writing records", unit="record", file=sys.stderr,
              unit_scale=True, leave=False) as bar:
        count = write_records(folder, records_from_traces(rules_name, result.traces),
                              progress=lambda done: bar.update(done - bar.n))
    click.echo(f"wrote {count:,} game records to {shown_path(folder)}", err=True)


def _result_lines(result: Any) -> list[str]:
    """One strategy's figures as text."""
    data = result.to_json()
    solving = (f"vectors {result.solve_seconds:.1f} s, "
               if result.target is not None or result.players is not None else "")
    lines = [f"Strategy {result.strategy}, rules {result.rules.name}: {result.games:,} games, "
             f"seed {result.seed} ({result.seconds:.2f} s, {solving}"
             f"{data['games_per_second']:,.0f} games/s)",
             f"  mean score       {result.mean:.4f} +- {result.stderr:.4f} (standard error)",
             f"  standard dev.    {result.sd:.4f}",
             "  percentiles      " + "  ".join(f"{q}%: {result.percentile(q)}"
                                                for q in PERCENTILES),
             f"  upper bonus      {100 * data['upper_bonus_rate']:.3f} %",
             f"  Yahtzees         {data['yahtzees_per_game']:.4f} per game "
             f"(at least one in {100 * data['any_yahtzee_rate']:.3f} % of games)",
             f"  Yahtzee bonuses  {data['yahtzee_bonuses_per_game']:.4f} per game",
             *_corrected_lines(result)]
    if result.players is not None:
        lines += [f"  share of 1st     {100 * data['win_share']:.4f} % +- "
                  f"{100 * data['win_share_stderr']:.4f} (each game's final score against "
                  f"the field of {result.players:,} players)",
                  f"  exact win_share  {100 * result.win_share_exact:.4f} % (this strategy, "
                  f"new game; 1/N = {100 / result.players:.4f} % for expected-score play)"]
    if result.target is not None:
        lines += [f"  reached {result.target:<8} {_reach_text(result, result.target)}",
                  f"  exact p_target   {100 * result.p_target:.4f} % (this strategy, new game)"]
    return lines


def _corrected_lines(result: Any) -> list[str]:
    """The luck-corrected estimate and the losses against optimal play, as text."""
    if result.losses is None:
        return []
    per = result.mean_loss_per_decision()
    needed = result.plain_games_needed
    games = (f"{needed:,.0f} games for the plain mean to be as precise"
             if needed is not None else "exact: no decision lost anything")
    by_box = sorted(result.loss_by_box.items(), key=lambda item: -item[1])
    worst = ", ".join(f"{name} {loss:.3f}" for name, loss in by_box[:4] if loss > 0)
    turns = result.loss_by_turn
    loss = result.total_loss.mean()
    luck = result.corrected_mean - (result.new_game - loss)
    return [f"  corrected mean   {result.corrected_mean:.4f} +- "
            f"{result.corrected_stderr:.4f} (E(new game) {result.new_game:.4f} - mean loss "
            f"{loss:.4f} {'+' if luck >= 0 else '-'} luck terms {abs(luck):.4f})",
            f"                   the dice's luck taken out; {games}",
            f"  loss/decision    keep {_loss(per['keep'])}, box {_loss(per['box'])}, all "
            f"{_loss(per['all'])} (expected points against optimal play)",
            "  loss by turn     " + " ".join(f"{x:.2f}" for x in turns),
            f"  loss by box      {worst or 'none'}" + (" (largest)" if worst else "")]


def _loss(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _reach_text(result: Any, target: int) -> str:
    """``17.830 % +- 0.383 of games``: the games of ``result`` scoring at least ``target``
    and the standard error."""
    rate, stderr = result.reached(target)
    return f"{100 * rate:.3f} % +- {100 * stderr:.3f} of games"


def _compare_lines(table: Any, results: list[Any]) -> list[str]:
    """Strategies played on the same games, side by side, as text."""
    exact = table.expected_score
    first = results[0]
    lines = [f"Rules {table.rules.name}: {first.games:,} games per strategy, seed {first.seed}",
             f"  {'strategy':<14} {'mean':>9} {'stderr':>7} {'sd':>7} {'vs exact':>9} "
             f"{'bonus %':>8} {'Yahtzees':>9} {'corrected':>10} {'stderr':>7} "
             f"{'loss/dec.':>9}",
             f"  {'exact optimal':<14} {exact:9.4f} {'':>7} {'':>7} {0.0:9.4f}"]
    for r in results:
        d = r.to_json()
        corrected = (f" {r.corrected_mean:10.4f} {r.corrected_stderr:7.4f} "
                     f"{_loss(r.mean_loss_per_decision()['all']):>9}"
                     if r.losses is not None else "")
        lines.append(f"  {r.strategy:<14} {r.mean:9.4f} {r.stderr:7.4f} {r.sd:7.4f} "
                     f"{r.mean - exact:9.4f} {100 * d['upper_bonus_rate']:8.3f} "
                     f"{d['yahtzees_per_game']:9.4f}{corrected}")
    lines.append("  corrected: E(new game) - mean loss against optimal play, the dice's "
                 "luck taken out by control variates (yahtzee help simulate)")
    for target in sorted({r.target for r in results if r.target is not None}):
        p = next(r.p_target for r in results if r.target == target)
        lines.append(f"Reached {target} (exact for target:{target}: {100 * p:.4f} %):")
        lines += [f"  {r.strategy:<14} {_reach_text(r, target)}" for r in results]
    return lines
