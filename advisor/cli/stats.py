"""``yahtzee stats``: exact figures of optimal play (``yahtzee simulate`` plays games:
:mod:`advisor.cli.simulate`)."""

from __future__ import annotations

from typing import Any

import click
import numpy as np

from solver.stats import PERCENTILES, THRESHOLDS, most_points_to_come, percentile_of

from ..model import box_label
from ..objective import Objective
from ..request.params import options
from ..request.stats_question import StatsQuestion
from ._base import emit_json
from ._progress import (
    command_memory,
    load_new_game_stats,
    load_table,
    note_targets,
    progress_bar,
)

HISTOGRAM_BIN = 20
HISTOGRAM_WIDTH = 50


def _histogram(distribution: Any) -> list[str]:
    """Plain-text bars of P(score in bin), bins of ``HISTOGRAM_BIN`` points; the rare
    low scores (the first 0.1 %) and high ones (the last 0.5 %) share one line each."""
    cumulative = np.cumsum(distribution)
    first = int(np.searchsorted(cumulative, 0.001)) // HISTOGRAM_BIN * HISTOGRAM_BIN
    top = (int(np.searchsorted(cumulative, 0.995)) // HISTOGRAM_BIN + 1) * HISTOGRAM_BIN
    bins = [(f"{lo:4d}-{lo + HISTOGRAM_BIN - 1:<4d}",
             float(distribution[lo:lo + HISTOGRAM_BIN].sum()))
            for lo in range(first, top, HISTOGRAM_BIN)]
    if first > 0:
        bins.insert(0, (f"   <{first:<5d}", float(distribution[:first].sum())))
    bins.append((f"{top:4d}+    ", float(distribution[top:].sum())))
    scale = HISTOGRAM_WIDTH / max(p for _, p in bins)
    return [f"  {label} {100 * p:6.2f}% {'#' * round(p * scale)}" for label, p in bins]


@click.command()
@options("card", "target", "tournament", "field", "field_scores", "rules", "table", "json",
         target={
    "help": "Also P(final score >= X): for the best strategy for X (p_target) and for the "
            "expected-score strategy (p_target_ev), with a table of targets."},
         tournament={
    "help": "The expected share of first place among N players in all who each play "
            "alone (2 to 100,000): of tournament play (win_share) and of expected-score "
            "play (win_share_ev; 1/N against an expected-score field), and the exact "
            "final-score distribution of tournament play (its mean against expected-score "
            "play's: the score it gives up), the solve played forward (about four times "
            "the solve). From a card with 6 or more boxes open, a whole game is solved "
            "first: from a new game, minutes in all."})
def stats(card_text: str, target: str | None, tournament: str | None, field: str | None,
          field_scores: str | None, rules_name: str, table_path: str | None,
          as_json: bool) -> None:
    """Exact statistics of optimal play: the whole score distribution, computed, not
    sampled (ties between equally good choices: lowest box index; keeps in dice keep
    order, fewest dice first), from a new game or from the start of a turn with --card.

    Example: yahtzee stats --rules two-rolls; yahtzee stats --target 300
    """
    question = StatsQuestion.parse(card_text=card_text, rules_name=rules_name, target=target,
                                   tournament=tournament, field=field,
                                   field_scores=field_scores)
    table = load_table(rules_name, table_path)
    if question.tournament is not None:
        _tournament(question, table, as_json)
        return
    goal = question.target
    beyond = goal is not None and Objective.for_target(goal).is_out_of_reach(question.card)
    if question.card.mask == 0 and not beyond:  # a new game: its figures are cached
        load_new_game_stats(table)
    if goal is not None and not beyond:
        # here: advisor.target_stats loads numba (half a second) that `stats --help` skips
        from advisor.target_stats import asked_targets, stored_top

        wanted = asked_targets(question.card, goal)
        held = stored_top(table, wanted)
        solved = [x for x in wanted if held is None or x > held]  # (the rows' too)
        note_targets(question.card, table, Objective.for_target(solved[-1] if solved else goal),
                     command_memory(), solved)
    update, close = progress_bar(f"stats {rules_name}" if goal is None else f"target {goal}")
    try:
        if as_json:
            data = question.json(table, update, memory=command_memory())
        else:
            result = question.solve(table, update, memory=command_memory())
    finally:
        close()
    if as_json:
        emit_json(data)
        return
    card = question.card
    lines = _stats_lines(card, result) if goal is None else _target_lines(card, goal, result)
    for line in lines:
        click.echo(line)


def _tournament(question: Any, table: Any, as_json: bool) -> None:
    """``stats --tournament N``: the two shares of first place and tournament play's
    final-score distribution, as text or JSON."""
    load_new_game_stats(table)
    objective = question.tournament
    update, close = progress_bar(objective.describe(), unit="step")
    try:
        result = question.solve(table, update, memory=command_memory())
    finally:
        close()
    if as_json:
        emit_json(result.to_json())
        return
    card = question.card
    where = f"card {card} (total {card.total})" if card.turn > 1 else "a new game"
    n = objective.players
    play = result.play
    for line in (f"Tournament of {n:,} players, rules {card.rules_name}, from {where}: "
                 f"exact (computed in {result.seconds:.1f} s)",
                 f"  the others' final scores from {objective.field.describe()}",
                 f"  win_share     {100 * result.win_share:9.4f} %   tournament play "
                 f"(the expected share of first place)",
                 f"  win_share_ev  {100 * result.win_share_ev:9.4f} %   expected-score play",
                 f"  ratio         {result.win_share / max(result.win_share_ev, 1e-300):9.4f}"):
        click.echo(line)
    for line in ("",
                 f"Tournament play's final score (exact): mean {play.mean:.4f}, against "
                 f"{result.mean_ev:.4f} for expected-score play",
                 f"  score given up  {result.score_given_up:.4f} points on average",
                 f"  standard dev.   {play.sd:.4f}",
                 "  percentiles     " + "  ".join(f"{q}%: {percentile_of(play.distribution, q)}"
                                                  for q in PERCENTILES),
                 "", f"Distribution of the final score (bins of {HISTOGRAM_BIN} points):",
                 *_histogram(play.distribution)):
        click.echo(line)


def _stats_lines(card: Any, result: Any) -> list[str]:
    """The figures of :func:`advisor.target_stats.card_stats` as text."""
    lines = [f"Optimal play, rules {result.rules.name}: exact figures "
             f"(computed in {result.seconds:.1f} s)"]
    if card.turn > 1:
        lines.append(f"  from the card    {card} (total {card.total}, turn {card.turn}); "
                     "boxes: the open ones")
    lines += [f"  mean score       {result.mean:.10f}",
              f"  standard dev.    {result.sd:.4f}",
              f"  most likely      {result.most_likely}",
              "  percentiles      " + "  ".join(f"{q}%: {result.percentile(q)}"
                                                for q in PERCENTILES)]
    lines += [f"  P(score >= {score})  {100 * result.probability_at_least(score):.4f} %"
              for score in THRESHOLDS]
    lines += [f"  upper bonus      {100 * result.upper_bonus_probability:.4f} %",
              f"  Yahtzees         {result.yahtzees:.4f} per game (turns ending with five "
              "alike)",
              f"  Yahtzee bonuses  {result.yahtzee_bonuses:.4f} per game",
              "", f"  {'box':<16} {'mean':>8} {'P(zero)':>9}"]
    lines += [f"  {box_label(box.name):<16} {result.box_means[b]:8.4f} "
              f"{100 * result.box_zero[b]:8.3f}%"
              for b, box in enumerate(result.rules.boxes) if card.entries[b] is None]
    return [*lines, "", f"Distribution of the final score (bins of {HISTOGRAM_BIN} points):",
            *_histogram(result.distribution)]


def _target_lines(card: Any, target: int, result: Any) -> list[str]:
    """The figures of :func:`advisor.target_stats.target_stats` as text."""
    where = f"card {card} (total {card.total})" if card.turn > 1 else "a new game"
    lines = [f"Target {target}, rules {card.rules_name}, from {where}: exact "
             f"(computed in {result.seconds:.1f} s)",
             f"  p_target     {100 * result.p_target:9.4f} %   best strategy for {target}",
             f"  p_target_ev  {100 * result.p_target_ev:9.4f} %   expected-score strategy"]
    if Objective.for_target(target).is_out_of_reach(card):  # (0 at once, no rows)
        most = card.total + most_points_to_come(card.rules, (card.mask, card.upper, card.flag))
        return [*lines, "", f"  out of reach: a game from here scores at most {most} "
                f"(0 % for every strategy)"]
    return [*lines, "", f"  {'target':>6}  {'p_target':>10}  {'p_target_ev':>11}",
            *(f"  {x:>6}  {100 * p:9.4f}%  {100 * q:10.4f}%" for x, p, q in result.rows)]
