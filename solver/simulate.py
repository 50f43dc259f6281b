"""Play many seeded games with a strategy and report how it scores.

Built-in strategies (``STRATEGIES``):

- ``optimal``: the table's policy, ties broken by the one order of
  :mod:`solver.game.ties` (keeps fewest dice first, in keep order; boxes in scorecard
  order), as in :mod:`solver.stats`. Its mean converges to the exact expected score.
- ``greedy``: before each reroll keeps every die of the most common face (ties: the
  higher face) and rerolls the rest, never stopping early; after the last roll fills
  the allowed box worth the most points now (entry plus any upper bonus it earns;
  ties: lowest box index).
- ``greedy-turn``: the greedy of the literature: each turn, the keeps and the box that
  maximise this turn's points (entry plus any upper bonus it earns) exactly, as if the
  game ended after it. It is the optimal policy run on a table of zeros; exact mean
  217.3834 (``optimal_stats`` on that table), published: about 218.
- ``heuristic``: a careful human without lookahead. Each turn is played to maximise that
  turn's placement value, the entry minus the box's *par* plus any upper bonus it earns,
  with the best keeps for that aim. Par: three dice of the face for an upper box (the
  pace for the bonus); for another box, the mean points of a whole turn aimed at that
  box alone.

- ``target:X``: every decision maximises P(final score >= X), exactly as
  ``advise(..., target=X)`` ranks the options (ties: :mod:`solver.game.ties`), from the
  target DP's vectors (:mod:`solver.simulate_target`). The
  result adds ``p_target``, the exact new-game probability of reaching X under that
  strategy, beside the rate of games that reached it.

A strategy of your own is a Python callable ``strategy(decision: Decision)`` (slower):
while ``decision.rolls_left > 0`` it returns the faces to keep (any iterable of ints, a
sub-multiset of ``decision.dice``; all five keeps the dice as they are) or a box name to
score now; with ``rolls_left == 0`` it returns a box name (any alias). It may also return
a :class:`~solver.move.Move`. An illegal answer
raises :class:`IllegalStrategyMoveError` naming the move and the state.

Same seed, same games: game ``g`` draws its dice from its own splitmix64 stream (see
``kernels.simulate``), whatever the thread count, batch size or strategy.
"""

from __future__ import annotations

import itertools
import operator
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from .errors import (
    IllegalStrategyMoveError,
    LimitError,
    StrategyError,
    Terminated,
    UnknownStrategyError,
    YahtzeeError,
    shown,
)
from .game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_INDEX,
    N_KEEPS,
    ROLL_PROBABILITY,
    ROLLS,
    counts_of,
)
from .game.move import Move
from .game.rules import N_UPPER, UPPER_TARGET, Placement, RuleSet, filled_mask, upper_subtotal
from .kernels import policy as pk
from .kernels import simulate as sim
from .levels import level_states, masks_by_level
from .stats import PERCENTILES
from .table import Table

STRATEGIES = ("optimal", "greedy", "greedy-turn", "heuristic")
"""The built-in strategies: fixed policies of ``kernels.policy`` (see :func:`_policy`)."""
BATCH = 20_000
CACHED_LEVELS = 3
MAX_SEED = 2**64 - 1
MAX_GAMES = 10_000_000
"""Most games one simulation plays: 24 bytes of results per game (240 MB at the most);
about 7 minutes for the optimal strategy at 25,000 games/s."""

Progress = Callable[[int, int], None]
"""progress(games_done, games_total), called after each batch."""


@dataclass(frozen=True)
class Decision:
    """What a user strategy sees at each decision."""

    rules: RuleSet
    dice: tuple[int, ...]
    """The five faces showing, ascending."""
    rolls_left: int
    entries: tuple[int | None, ...]
    """The entry of each box in scorecard order, None while open."""
    yahtzee_bonuses: int
    turn: int
    """1 .. number of boxes."""

    @property
    def filled_mask(self) -> int:
        return filled_mask(self.entries)

    @property
    def open_boxes(self) -> tuple[str, ...]:
        return tuple(box.name for box, e in zip(self.rules.boxes, self.entries, strict=True)
                     if e is None)

    @property
    def upper_total(self) -> int:
        """Sum of the upper entries so far (not capped)."""
        return upper_subtotal(self.entries)

    @property
    def yahtzee_holds_50(self) -> bool:
        return bool(self.entries[self.rules.yahtzee_box])

    @property
    def total(self) -> int:
        """The grand total so far (entries, upper bonus if earned, Yahtzee bonuses)."""
        return self.rules.total(self.entries, self.yahtzee_bonuses)

    def placements(self) -> list[Placement]:
        """The boxes the rules allow for the dice showing, with points and bonus."""
        return self.rules.placements(self.dice, self.filled_mask, self.yahtzee_holds_50)


UserStrategy = Callable[[Decision], Any]


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Per-game outcomes of a simulation and the figures drawn from them."""

    rules: RuleSet
    strategy: str
    seed: int
    scores: np.ndarray
    """(games,) int64 final scores."""
    upper_bonus: np.ndarray
    """(games,) int8: 1 when the upper bonus was earned."""
    yahtzees: np.ndarray
    """(games,) int8: turns that ended with five alike."""
    yahtzee_bonuses: np.ndarray
    """(games,) int8: Yahtzee bonuses earned."""
    entries: np.ndarray
    """(games, n_boxes) int8: the entry of each box."""
    seconds: float = field(default=0.0)
    target: int | None = None
    """X of a ``target:X`` strategy, else None."""
    p_target: float | None = None
    """The exact new-game P(final >= target) of the ``target:X`` strategy."""
    solve_seconds: float = 0.0
    """Part of ``seconds`` spent solving the target vectors (before any game)."""
    traces: np.ndarray | None = None
    """With ``record=True``: (games, n_boxes, 2 * rerolls + 2) int16, each game's turns in
    playing order as keep indices (``dice.KEEP_COUNTS``): roll, keep, roll, ..., box;
    -1 where a turn stopped early (see :func:`turn_moves`)."""

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def sd(self) -> float:
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def stderr(self) -> float:
        return self.sd / float(np.sqrt(self.games))

    def reached(self, x: int) -> tuple[float, float]:
        """(fraction of games scoring at least ``x``, its standard error
        sqrt(rate (1 - rate) / games))."""
        rate = float((self.scores >= x).mean())
        return rate, float(np.sqrt(rate * (1.0 - rate) / self.games))

    @property
    def reached_rate(self) -> float | None:
        """The fraction of games scoring at least ``target`` (None without a target)."""
        return None if self.target is None else self.reached(self.target)[0]

    @property
    def reached_stderr(self) -> float | None:
        """The standard error of :attr:`reached_rate` (None without a target)."""
        return None if self.target is None else self.reached(self.target)[1]

    def percentile(self, q: float) -> int:
        """Smallest score x with (games scoring <= x) >= q% of games."""
        ordered = np.sort(self.scores)
        index = max(0, int(np.ceil(q / 100.0 * self.games)) - 1)
        return int(ordered[index])

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures (docs/json.md keys ``games``, ``strategy``, ``mean``, ``sd``,
        ``stderr`` and more; a target strategy adds ``target``, ``p_target``,
        ``reached_rate``, ``reached_stderr`` and ``solve_seconds``). ``games_per_second``
        counts the time playing, not solving."""
        playing = self.seconds - self.solve_seconds
        rate = self.games / playing if playing > 0 else None
        extra = {} if self.target is None else {
            "target": self.target, "p_target": self.p_target,
            "reached_rate": self.reached_rate, "reached_stderr": self.reached_stderr,
            "solve_seconds": self.solve_seconds}
        return {
            "games": self.games,
            "strategy": self.strategy,
            "rules": self.rules.name,
            "seed": self.seed,
            "mean": self.mean,
            "sd": self.sd,
            "stderr": self.stderr,
            "percentiles": {str(q): self.percentile(q) for q in PERCENTILES},
            "min_score": int(self.scores.min()),
            "max_score": int(self.scores.max()),
            "upper_bonus_rate": float(self.upper_bonus.mean()),
            "yahtzees_per_game": float(self.yahtzees.mean()),
            "any_yahtzee_rate": float((self.yahtzees > 0).mean()),
            "yahtzee_bonuses_per_game": float(self.yahtzee_bonuses.mean()),
            "box_means": {box.name: float(self.entries[:, b].mean())
                          for b, box in enumerate(self.rules.boxes)},
            **extra,
            "seconds": self.seconds,
            "games_per_second": rate,
        }


def comparison_json(table: Table, results: list[SimulationResult]) -> dict[str, Any]:
    """JSON-ready side-by-side figures of strategies played on the same games (``yahtzee
    simulate --compare``): the exact optimal mean and each result's :meth:`to_json`."""
    first = results[0]
    return {"rules": table.rules.name, "games": first.games, "seed": first.seed,
            "exact_optimal_mean": table.expected_score,
            "strategies": [r.to_json() for r in results]}


def check_games(games: int) -> int:
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or \
            not 1 <= games <= MAX_GAMES:
        raise LimitError(f"the number of games must be an integer 1 to {MAX_GAMES:,}, "
                         f"not {shown(games, 40)}")
    return int(games)


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or \
            not 0 <= seed <= MAX_SEED:
        raise YahtzeeError(f"the seed must be an integer in 0..2**64-1, not {shown(seed, 40)}")
    return int(seed)


def strategy_name(name: str) -> str:
    """The built-in strategy ``name`` (any case), or raise UnknownStrategyError."""
    key = name.strip().lower()
    if key not in STRATEGIES:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}; built-in strategies: {', '.join(STRATEGIES)} "
            "and target:X")
    return key


def _policy(table: Table, name: str) -> tuple[bool, np.ndarray, np.ndarray]:
    """(greedy keeps, values, par) of a built-in strategy: the table for ``optimal``,
    else a table of zeros (only this turn counts); the heuristic's par per box."""
    rules = table.rules
    values = np.ascontiguousarray(table.values)
    if name != "optimal":
        values = np.where(np.isnan(values), np.nan, 0.0)
        values.flags.writeable = False  # as the table's: one compiled game loop for all
    par = _pars(rules) if name == "heuristic" else np.zeros(rules.n_boxes)
    return name == "greedy", values, par


@cache
def _pars(rules: RuleSet) -> np.ndarray:
    """(n_boxes,) par of each box for the heuristic (see module docstring)."""
    # one turn aimed at box b alone: no Yahtzee bonus, no Joker; the box scores its entry
    arrays = rules.arrays._replace(yahtzee_bonus=0.0, has_joker=False, n_flags=1)
    zeros = np.zeros(rules.table_shape)
    zeros.flags.writeable = False  # read-only, as a table's values: one compiled turn
    turn = pk.new_turn(rules.n_boxes, arrays.n_rerolls, 1)
    par = np.array([3.0 * (b + 1) for b in range(N_UPPER)] + [0.0] * (rules.n_boxes - N_UPPER))
    for b in range(N_UPPER, rules.n_boxes):
        pk.play_turns(rules.full_mask & ~(1 << b), 1, zeros, np.zeros(rules.n_boxes), arrays,
                      turn, 2)
        par[b] = float(ROLL_PROBABILITY @ turn.bests[arrays.n_rerolls, FIRST_ROLL_KEEP:, 0])
    return par


def simulate(table: Table, strategy: str | UserStrategy = "optimal", games: int = 10_000,
             seed: int = 0, *, progress: Progress | None = None,
             name: str | None = None, record: bool = False,
             solve_progress: Progress | None = None) -> SimulationResult:
    """Play ``games`` games of the table's rule set with ``strategy`` (a built-in name,
    ``target:X`` or a :data:`UserStrategy` callable) from seed ``seed``; with ``record``
    keep every game's moves in ``traces`` (same games either way). ``target:X`` first
    solves its vectors, reporting ``solve_progress(levels_done, levels_total)``."""
    from . import simulate_target as stg

    games = check_games(games)
    seed = check_seed(seed)
    target = None
    if isinstance(strategy, str) and stg.is_target_strategy(strategy):
        target = stg.parse_target(strategy)
    start = time.perf_counter()
    rules = table.rules
    traces = np.full((games if record else 0, rules.n_boxes, 2 * rules.rolls_per_turn),
                     -1, dtype=np.int16)
    if target is not None:
        plan = stg.target_plan(table, target, solve_progress)
        out = stg.play_target(table, plan, games, seed, progress, traces)
        scores, upper, fives, bonuses, entries = out
        return SimulationResult(rules, f"{stg.PREFIX}{target}", seed, scores, upper, fives,
                                bonuses, entries, seconds=time.perf_counter() - start,
                                target=target, p_target=plan.p_target,
                                solve_seconds=plan.seconds,
                                traces=traces if record else None)
    if callable(strategy):
        label = str(name or getattr(strategy, "__name__", "custom"))
        out = _simulate_python(rules, strategy, label, games, seed, progress, traces)
    else:
        label = strategy_name(strategy)
        out = _simulate_builtin(table, label, games, seed, progress, traces)
    scores, upper, fives, bonuses, entries = out
    return SimulationResult(rules, label, seed, scores, upper, fives, bonuses, entries,
                            seconds=time.perf_counter() - start,
                            traces=traces if record else None)


def turn_moves(trace_row: np.ndarray) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]],
                                                int]:
    """One turn of a trace: (rolls as sorted faces, keeps as sorted faces, box index)."""
    from .game.dice import KEEP_COUNTS, faces_of

    width = trace_row.shape[0]
    rolls, keeps = [], []
    for slot in range(0, width - 1):
        k = int(trace_row[slot])
        if k < 0:
            break
        faces = faces_of(KEEP_COUNTS[k])
        if slot % 2 == 0:
            rolls.append(faces)
        elif len(faces) < 5:
            keeps.append(faces)
        else:
            break
    return rolls, keeps, int(trace_row[width - 1])


def _simulate_builtin(table: Table, name: str, games: int, seed: int,
                      progress: Progress | None, traces: np.ndarray) -> tuple[np.ndarray, ...]:
    rules = table.rules
    greedy, values, par = _policy(table, name)
    cache = _early_turns(rules, values, par)

    def play(first: int, out: sim.Games) -> None:
        sim.play_games(greedy, np.uint64(seed), np.uint64(first), values, par, rules.arrays,
                       cache, out)

    return sim.play_in_batches(games, rules.n_boxes, traces, BATCH, play, progress)


def _early_turns(rules: RuleSet, values: np.ndarray, par: np.ndarray) -> sim.TurnCache:
    """The prepared turns of every state with at most ``CACHED_LEVELS - 1`` boxes filled
    (the same in most games)."""
    slot = np.full(values.shape, -1, dtype=np.int32)
    m, u, y = level_states(values, np.concatenate(masks_by_level(rules.n_boxes)[:CACHED_LEVELS]))
    slot[m, u, y] = np.arange(len(m), dtype=np.int32)
    stages = (len(m), rules.rolls_per_turn, N_KEEPS, 1)
    cache = sim.TurnCache(slot, np.zeros((len(m), 6 * rules.n_boxes, 1)), np.empty(stages),
                          np.empty(stages))
    sim.prepare_turns(m, u, y, values, par, rules.arrays, cache)
    return cache


# ---------------------------------------------------------------------- user strategies
class _Stream:
    """A game's dice, from the kernels' own per-game stream (same seed, same dice)."""

    def __init__(self, seed: int, game: int) -> None:
        self.state = np.uint64(sim.game_stream(np.uint64(seed), np.uint64(game)))

    def complete(self, keep: int) -> int:
        """The roll (keep index) after completing ``keep`` with fresh dice."""
        roll, state = sim.roll_from(keep, self.state)
        self.state = np.uint64(state)
        return int(roll)


def _describe(decision: Decision) -> str:
    card = ", ".join(f"{box.name}={e}" for box, e in zip(decision.rules.boxes,
                                                          decision.entries, strict=True)
                     if e is not None) or "empty"
    dice = "".join(str(f) for f in decision.dice)
    return (f"turn {decision.turn}, dice {dice}, rolls left {decision.rolls_left}, "
            f"card [{card}], Yahtzee bonuses {decision.yahtzee_bonuses}")


def _parse_move(answer: Any, decision: Decision) -> Move:
    """The strategy's answer as a checked :class:`Move` (box names made canonical), or
    raise IllegalStrategyMoveError. Answers: a Move, a box name, or faces to keep."""
    def illegal(why: str) -> IllegalStrategyMoveError:
        return IllegalStrategyMoveError(f"illegal move {shown(answer, 40)} ({why}) at "
                                        f"{_describe(decision)}")

    if isinstance(answer, str):
        try:
            move = Move.scoring(answer, decision.rules)
        except YahtzeeError as exc:
            raise illegal("not a box") from exc
    elif isinstance(answer, Move):
        move = answer
        if move.box is not None:
            try:
                move = Move.scoring(move.box, decision.rules)
            except YahtzeeError as exc:
                raise illegal("not a box of these rules") from exc
    else:
        try:
            given = list(itertools.islice(iter(answer), 6))
            faces = [operator.index(f) for f in given if not isinstance(f, bool)]
        except Exception as exc:  # noqa: BLE001  (any object a strategy may return)
            raise illegal("neither a box name nor faces to keep") from exc
        if len(faces) != len(given) or any(not 1 <= f <= 6 for f in faces):
            raise illegal("faces are 1..6")
        if len(faces) > 5:
            raise illegal("the keep is not part of the dice showing")
        move = Move(keep=tuple(faces))
    if move.box is not None:
        if _placement(move, decision) is None:
            raise illegal("that box is filled or the Joker rule forbids it")
        return move
    if decision.rolls_left == 0:
        raise illegal("no rolls are left: a box name is needed")
    have = counts_of(decision.dice)
    if any(c > h for c, h in zip(counts_of(move.keep or ()), have, strict=True)):
        raise illegal("the keep is not part of the dice showing")
    return move


def _ask(strategy: UserStrategy, decision: Decision) -> Any:
    """The strategy's answer; any error it raises becomes a :class:`StrategyError`."""
    try:
        return strategy(decision)
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (the user's code may raise anything)
        if isinstance(exc, Terminated):  # SIGTERM while the strategy ran: not its failure
            raise
        name = getattr(strategy, "__name__", "the strategy")
        raise StrategyError(f"strategy {shown(name, 40)} failed with {type(exc).__name__}: "
                            f"{shown(exc, 60)} at {_describe(decision)}") from exc


def _placement(move: Move, decision: Decision) -> Placement | None:
    """The placement of a box move for the decision's dice, or None if not allowed."""
    box = decision.rules.box_index(move.box or "")
    return next((p for p in decision.placements() if p.box == box), None)


def _play_python(rules: RuleSet, strategy: UserStrategy, stream: _Stream,
                 trace: np.ndarray | None) -> tuple[int | None, ...]:
    """One game; its moves go to ``trace`` (n_boxes, 2 * rolls) when given (a keep of all
    five dice is left out: it rolls nothing)."""
    entries: list[int | None] = [None] * rules.n_boxes
    bonuses = fives = 0
    for turn in range(1, rules.n_boxes + 1):
        roll = stream.complete(0)
        rolls_left = rules.rolls_per_turn - 1
        slot = 0
        if trace is not None:
            trace[turn - 1, 0] = roll
        while True:
            decision = Decision(rules, tuple(int(f) for f in ROLLS[roll - FIRST_ROLL_KEEP]),
                                rolls_left, tuple(entries), bonuses, turn)
            move = _parse_move(_ask(strategy, decision), decision)
            if move.keep is None:
                break
            keep = KEEP_INDEX[counts_of(move.keep)]
            roll = stream.complete(keep)
            rolls_left -= 1
            if trace is not None and len(move.keep) < 5:
                trace[turn - 1, slot + 1:slot + 3] = keep, roll
                slot += 2
        placement = _placement(move, decision)
        if trace is not None:
            trace[turn - 1, -1] = placement.box if placement is not None else -1
        assert placement is not None  # checked by _parse_move
        entries[placement.box] = placement.points
        bonuses += placement.yahtzee_bonus > 0
        fives += max(decision.dice.count(f) for f in range(1, 7)) == 5
    final = Decision(rules, decision.dice, 0, tuple(entries), bonuses, rules.n_boxes)
    return final.total, int(final.upper_total >= UPPER_TARGET), fives, bonuses, *entries


def _simulate_python(rules: RuleSet, strategy: UserStrategy, label: str, games: int,
                     seed: int, progress: Progress | None, traces: np.ndarray
                     ) -> tuple[np.ndarray, ...]:
    rows = []
    step = max(1, min(BATCH, games // 100))
    for g in range(games):
        trace = traces[g] if traces.shape[0] else None
        rows.append(_play_python(rules, strategy, _Stream(seed, g), trace))
        if progress is not None and ((g + 1) % step == 0 or g + 1 == games):
            progress(g + 1, games)
    data = np.array(rows, dtype=np.int64)
    return (data[:, 0], data[:, 1].astype(np.int8), data[:, 2].astype(np.int8),
            data[:, 3].astype(np.int8), data[:, 4:].astype(np.int8))
