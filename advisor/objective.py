"""What the advice maximises: the expected score, P(final >= target) or the chance to win.

An :class:`Objective` is a small value (docs/objectives.md):

- ``Objective.ev()``: the expected final score (the default, also the constant ``EV``);
- ``Objective.for_target(x)``: P(final score >= x); ``Objective.beat(n)`` is
  ``for_target(n + 1)``;
- ``Objective.win(card)``: the chance to win against one opponent, a tie counting as
  half a win (``win_share = P(my final > theirs) + P(level) / 2``), the opponent playing
  on from ``card`` for the highest expected score (their exact final-score distribution);
  a full card is a finished opponent;
- ``Objective.win_against(cards)``: the chance to win against several opponents, each
  playing on independently from their card, a tie of ``k`` players at the top counting
  ``1/k`` (:meth:`solver.target.Utility.win_share`); one card is exactly
  ``Objective.win(card)``;
- ``Objective.tournament(n, field)``: the expected share of first place among ``n``
  players in all who each play alone, the others' final scores independent draws from
  the field's distribution (:mod:`solver.field`: expected-score play by default), a tie
  of ``k`` at the top shared ``1/k`` (:meth:`solver.target.Utility.tournament`). Nobody
  sees anybody: the utility never changes during a game, so one solve from a new game
  answers every turn of every game (:attr:`Objective.solves_from_new_game`).

:meth:`Objective.parse_options` builds one from the command-line options and raises
:class:`~solver.errors.ObjectiveError` for two objectives at once or a bad value.
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from solver.errors import FieldError, ObjectiveError, YahtzeeError, shown
from solver.field import MAX_PLAYERS, Field, check_players, read_scores
from solver.game.rules import DEFAULT_RULES, RuleSet, get_rules
from solver.game.ties import P_TIE
from solver.goals import ExpectedGoal, Goal, TargetGoal, TournamentGoal, WinGoal
from solver.numbers import MAX_DIGITS, whole_number
from solver.points_to_come import max_distribution
from solver.tournament_file import StoredTournament

from .model import Scorecard
from .text import points_of_chance, probability_text

if TYPE_CHECKING:
    from solver.memory import TurnMemory
    from solver.table import Table
    from solver.target import Utility

KINDS = ("ev", "target", "win", "tournament")
POINTS, PROBABILITY = "points", "probability"
"""The units of an objective's figures and losses: expected points, or a probability
(``p_target``, ``win_share``)."""
MAX_OPPONENTS = 7
"""Most opponents of a win objective: the others at a table of eight, as many as
``yahtzee play`` seats (an empty card among them is a new game's, as for --card)."""
Phase = Callable[[], "Callable[[int, int], None] | None"]
"""``phase()``: the progress callback ``(done, total)`` of the next solve, or None."""


def _whole_points(value: Any, what: str) -> int:
    """A whole number of points, 0 or more and below ``10 ** MAX_DIGITS``, from an int or
    its text in ASCII digits (:func:`solver.numbers.whole_number`: not ``３００``, ``٣٠٠``,
    ``3_00`` or ``+300``)."""
    number: int | None = None
    if isinstance(value, str):
        number = whole_number(value)
    elif not isinstance(value, bool):
        try:
            number = operator.index(value)
        except TypeError:
            number = None
    if number is None or not 0 <= number < 10 ** MAX_DIGITS:
        shown_value = value if isinstance(value, str) else repr(value)
        raise ObjectiveError(f"{what} {shown(shown_value, 40)}: give a whole number of "
                             f"points, 0 or more, in ASCII digits (e.g. 300; at most "
                             f"{MAX_DIGITS} digits)")
    return number


class Column(NamedTuple):
    """One column of a table of options: its heading, right-aligned in ``width``
    characters after ``gap``, and ``cell(option)``, the option's text in it."""

    heading: str
    width: int
    cell: Callable[[Any], str]
    gap: str = "  "


def _expected_final(option: Any) -> str:
    return f"{option.expected_final:.2f}"


EXPECTED_FINAL = Column("expected final", 14, _expected_final)
"""The expected final score of each option, in points (two decimals)."""


class Objective:
    """What the advice maximises (see the module docstring): :class:`ExpectedScore`,
    :class:`TargetObjective`, :class:`WinObjective` or :class:`TournamentObjective`, each a
    small frozen value answering this interface for itself. Build one with the class
    methods below (``Objective()`` is the expected score)."""

    kind: ClassVar[str]
    """The name of the type in JSON and records: ``ev``, ``target``, ``win``, ``tournament``."""
    key: ClassVar[str | None] = None
    """The per-option key of the objective's figure (``p_target``, ``win_share``); None:
    the expected final score, every option's own."""
    header: ClassVar[str]
    """The heading of the objective's column in a table of options."""
    slow_open_boxes: ClassVar[int]
    """From this many open boxes a solve from the card takes more than about a second
    (measured: ``benchmarks/bench_play_win.py``, ``bench_target.py``)."""
    solves_from_new_game: ClassVar[bool] = False
    """True when one solve from a new game answers every turn of every game (the utility
    never changes: a tournament's field is blind), so a card with :attr:`slow_open_boxes`
    or more open boxes is solved from a new game, once; a later card alone is solved from
    itself (the same figures, at once). False: a turn is solved from its own card (a
    target, opponents' cards as they stand)."""
    solves_turns: ClassVar[bool] = True
    """True when a turn under the objective is solved (the target / win DP); False when
    the expected-score table answers it at once."""
    keeps_game_vectors: ClassVar[bool] = False
    """True when one solve's vectors answer the game's later turns unchanged (a target);
    False for a win objective, whose opponents' cards move on between turns."""
    tie: ClassVar[float] = P_TIE
    """The tolerance within which two options' figures are equal (:mod:`solver.game.ties`)."""
    unit: ClassVar[str] = PROBABILITY
    """The unit of the objective's figures and losses: ``points`` or ``probability``."""
    is_ev: ClassVar[bool] = False
    """True for the expected score (the public API's test; the advisor asks the
    objective's own answers instead)."""
    target: int | None = None
    opponent: Scorecard | None = None
    opponents: tuple[Scorecard, ...] = ()
    players: int | None = None
    field: Field | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Objective:
        """``Objective()``: the expected score (the other types through the class
        methods)."""
        if cls is Objective:
            if args or kwargs:
                raise ObjectiveError("build an objective with Objective.ev(), "
                                     "for_target(x), beat(n), win(card), win_against(cards) "
                                     "or tournament(n)")
            cls = ExpectedScore
        return super().__new__(cls)

    # ------------------------------------------------------------------ building
    @classmethod
    def ev(cls) -> Objective:
        return ExpectedScore()

    @classmethod
    def for_target(cls, x: int | str) -> Objective:
        """P(final score >= x)."""
        return TargetObjective(target=_whole_points(x, "target"))

    @classmethod
    def beat(cls, n: int | str) -> Objective:
        """P(final score > n): the target n + 1."""
        return TargetObjective(target=_whole_points(n, "score to beat") + 1)

    @classmethod
    def win(cls, opponent: Scorecard | str, rules: str | RuleSet = DEFAULT_RULES) -> Objective:
        """The chance to beat the opponent (a tie counts half), the opponent's card given
        as text or a card."""
        return WinObjective(opponent=_as_opponent(opponent, rules))

    @classmethod
    def win_against(cls, opponents: Sequence[Scorecard | str],
                    rules: str | RuleSet = DEFAULT_RULES) -> Objective:
        """The chance to win against the opponents (a tie of ``k`` players at the top counts
        ``1/k``), each opponent's card given as text or a card (a full card: a finished
        opponent). One card gives exactly ``Objective.win(card)``."""
        if isinstance(opponents, (str, Scorecard)) or not isinstance(opponents, Sequence):
            raise ObjectiveError(f"opponents are a list of cards (text or Scorecard), not "
                                 f"{type(opponents).__name__}")
        if len(opponents) > MAX_OPPONENTS:
            raise _too_many(len(opponents))
        cards = tuple(_as_opponent(card, rules) for card in opponents)
        if not cards:
            raise ObjectiveError("a win objective needs at least one opponent's card")
        if len({card.rules_name for card in cards}) > 1:
            raise ObjectiveError("the opponents' cards are for different rule sets")
        if len(cards) == 1:
            return WinObjective(opponent=cards[0])
        return WinObjective(opponents=cards)

    @classmethod
    def tournament(cls, players: int | str, field: Field | None = None) -> Objective:
        """The expected share of first place among ``players`` players in all (2 to
        100,000; an int or its text in ASCII digits), the others' final scores drawn
        from ``field`` (default: expected-score play)."""
        number = whole_number(players) if isinstance(players, str) else players
        if number is None:
            raise FieldError(f"players {shown(players, 40)}: give a whole number of "
                             f"players in all, 2 to {MAX_PLAYERS:,} (e.g. --tournament 100)")
        if field is not None and not isinstance(field, Field):
            raise FieldError(f"field must be a solver.field.Field, not "
                             f"{type(field).__name__}")
        return TournamentObjective(players=check_players(number), field=field or Field())

    @classmethod
    def parse_options(cls, *, target: int | str | None = None, beat: int | str | None = None,
                      opponent: str | Scorecard | None = None,
                      rules: str | RuleSet = DEFAULT_RULES,
                      opponents: str | None = None, tournament: int | str | None = None,
                      field: str | None = None,
                      field_scores: str | None = None) -> Objective:
        """The objective of ``--target X``, ``--beat N``, ``--opponent CARD``,
        ``opponents`` (two or more cards separated by ``;``: beat the best of them) or
        ``--tournament N`` (with ``--field STRATEGY`` or ``--field-scores FILE``) (at
        most one); none of them: the expected score."""
        given = [name for name, v in (("--target", target), ("--beat", beat),
                                      ("--opponent", opponent), ("opponents", opponents),
                                      ("--tournament", tournament))
                 if v is not None]
        if len(given) > 1:
            raise ObjectiveError(f"{' and '.join(given)} given: choose one objective "
                                 "(--target X, --beat N, --opponent CARD or --tournament N)")
        if (field is not None or field_scores is not None) and tournament is None:
            raise FieldError("--field and --field-scores describe a tournament's other "
                             "players: give them with --tournament N")
        if field is not None and field_scores is not None:
            raise FieldError("--field and --field-scores given: choose one field")
        if tournament is not None:
            if field_scores is not None:
                return cls.tournament(tournament, read_scores(field_scores, get_rules(rules)))
            return cls.tournament(tournament, None if field is None
                                  else Field.of_strategy(field))
        if opponents is not None:
            cards = opponents.split(";", MAX_OPPONENTS)
            if len(cards) > MAX_OPPONENTS:
                raise _too_many(opponents.count(";") + 1)
            if len(cards) < 2:
                raise ObjectiveError("opponents: give two or more cards separated by ';' "
                                     "(one opponent: opponent=CARD)")
            return cls.win_against(cards, get_rules(rules))
        if target is not None:
            return cls.for_target(target)
        if beat is not None:
            return cls.beat(beat)
        if opponent is not None:
            return cls.win(opponent, get_rules(rules))
        return cls.ev()

    @classmethod
    def from_json(cls, data: Any, rules: str | RuleSet = DEFAULT_RULES) -> Objective:
        """The objective of its :meth:`to_json` form (a target's, an opponent's card under
        ``rules``)."""
        keys = set(data) if isinstance(data, dict) else set()
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind == "ev" and keys == {"kind"}:
            return cls.ev()
        if kind == "target" and keys == {"kind", "target"}:
            target = data["target"]
            if type(target) is not int:  # (JSON's number, never its text "300")
                raise ObjectiveError(f"the objective's target is {_json_kind(target)}: give "
                                     f"a whole number of points as a JSON number (e.g. 300)")
            return cls.for_target(data["target"])
        if kind == "win" and keys == {"kind", "opponent"}:
            return cls.win(data["opponent"], get_rules(rules))
        if kind == "win" and keys == {"kind", "opponents"} and isinstance(data["opponents"],
                                                                        list):
            return cls.win_against(data["opponents"], get_rules(rules))
        if kind == "tournament" and keys == {"kind", "players", "field"}:
            players = data["players"]
            if type(players) is not int:  # (JSON's number, never its text "10")
                raise FieldError(f"the objective's players is {_json_kind(players)}: give a "
                                 f"whole number of players as a JSON number (e.g. 10)")
            return cls.tournament(players, Field.from_json(data["field"], get_rules(rules)))
        raise ObjectiveError(f"objective {shown(reprlib.repr(data), 60)}: give "
                             f"{{\"kind\": \"ev\"}}, "
                             f"{{\"kind\": \"target\", \"target\": X}} or {{\"kind\": \"win\", "
                             f"\"opponent\": CARD}} or {{\"kind\": \"tournament\", \"players\": "
                             f"N, \"field\": \"optimal\"}}")


    # ------------------------------------------------------------------ meaning
    @property
    def against(self) -> tuple[Scorecard, ...]:
        """The opponents' cards of a win objective (one or more), () otherwise."""
        return ()

    @property
    def loss_decimals(self) -> int:
        """Decimals of a loss in percentage points of the objective's figure: 2, more
        where the figure itself is tiny (a big tournament's share of first place, about
        1/N), so that a worse choice never shows a loss of 0.00."""
        return 2

    @property
    def chance_decimals(self) -> int:
        """Decimals of the objective's figure as a percentage (4; never fewer than its
        losses have)."""
        return max(4, self.loss_decimals)

    @property
    def chance_words(self) -> str:
        """What the objective's per-option figure is, in a few words: ``the chance of 300
        or more``, ``the chance to win``, ``the share of first place among 10 players``
        (the expected score: ``the expected final score``)."""
        raise NotImplementedError

    @property
    def ranked_by(self) -> str | None:
        """What advice under this objective is ranked by, when not the expected final
        score (the default, None): :meth:`describe`."""
        return self.describe()

    def describe(self) -> str:
        """``the expected final score``, ``P(final score >= 300)`` or ``the chance to win
        ...``."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., ...}``, read back by :meth:`from_json`."""
        raise NotImplementedError

    def query_params(self) -> dict[str, str] | None:
        """The server's query parameters that ask for this objective (``{"target":
        "300"}``, ``{"tournament": "10"}``, ``{}`` for the expected score); None when no
        query can (a tournament's field other than the default: the CLI's)."""
        raise NotImplementedError

    def page_json(self) -> dict[str, Any]:
        """What the served page shows of the objective, so that it asks the objective
        instead of testing its kind: ``objective`` (:meth:`to_json`), ``key`` (the
        options' figure, null for the expected score), ``params`` (:meth:`query_params`),
        ``header``, ``words`` (:attr:`chance_words`), ``slow_open_boxes``,
        ``loss_decimals`` and ``solves_from_new_game``."""
        return {"objective": self.to_json(), "params": self.query_params(), "key": self.key,
                "header": self.header, "words": self.chance_words,
                "slow_open_boxes": self.slow_open_boxes, "loss_decimals": self.loss_decimals,
                "solves_from_new_game": self.solves_from_new_game}

    # ------------------------------------------------------------------ figures
    def value_of(self, option: Any) -> float:
        """The value of choosing ``option`` (an :class:`~advisor.advice.Option`): its
        probability under the objective (its expected final score for the expected
        score)."""
        return float(option.probability or 0.0)

    def value_before_turn(self, card: Scorecard, table: Table,
                          solved: Callable[[], float]) -> float:
        """The objective's value of ``card`` before its turn's first roll; ``solved()``:
        the turn's solved value (called only when the turn needs a solve)."""
        return solved() if self.needs_solve(card) else 0.0

    def option_columns(self) -> list[Column]:
        """The columns of a table of options after the choice: the objective's figure
        (a percentage), its loss in percentage points, the expected final score."""
        cell = max(len(self.header), 11) + 2
        figure, loss = self.chance_decimals, self.loss_decimals
        return [Column(self.header, cell + figure - 4,
                       lambda o: probability_text(o.probability or 0.0, figure), gap=""),
                Column("loss (pp)", 9 + loss - 2,
                       lambda o: points_of_chance(o.p_loss or 0.0, loss)),
                EXPECTED_FINAL]

    # ------------------------------------------------------------------ solving
    @property
    def goal(self) -> Goal:
        """What a turn under this objective is solved for, as the solver reads it
        (:mod:`solver.goals`)."""
        raise NotImplementedError

    def needs_solve(self, card: Scorecard) -> bool:
        """True when ``card``'s turn under the objective is solved to be answered (not
        for the expected score, nor for a target out of reach: every figure 0)."""
        return self.goal.needs_solve(card)

    def is_out_of_reach(self, card: Scorecard) -> bool:
        """True for a target that no play from ``card`` can reach (beyond its total plus
        the most points still to come): every probability is exactly 0, known without
        solving anything."""
        return self.goal.is_out_of_reach(card)

    def first_turn_players(self, card: Scorecard) -> int | None:
        """The number of players when ``card``'s turn under this objective is the first
        turn of a game played to win (a win objective, ``card`` and every opponent's card
        new: the same turn in every such game), else None."""
        return self.goal.first_turn_players(card)

    def opponent_distributions(self, table: Table, memory: TurnMemory, *,
                               phase: Phase | None = None) -> list[np.ndarray]:
        """P(x = each opponent's final score) for x = 0.. (win objective): exact, from
        each opponent's card (:func:`solver.points_to_come.final_distribution`, read from
        and kept in ``memory``, the caller's :class:`~advisor.caches.Caches`). ``phase()``
        gives the progress callback of each distribution still to compute."""
        goal = self.goal
        if not isinstance(goal, WinGoal):
            raise ObjectiveError("only a win objective has an opponent")
        return goal.opponent_distributions(table, memory, phase=phase)

    def opponent_distribution(self, table: Table, memory: TurnMemory, *,
                              phase: Phase | None = None) -> np.ndarray:
        """P(x = the best opponent's final score) for x = 0.. (win objective): the
        opponents independent of each other (:func:`max_distribution`); one opponent:
        their own distribution. ``memory``, ``phase``: as for
        :meth:`opponent_distributions`."""
        return max_distribution(self.opponent_distributions(table, memory, phase=phase))

    def stored_solve(self, table: Table, note: Callable[[str], None] | None = None
                     ) -> StoredTournament | None:
        """The objective's whole-game solve kept on disk (``yahtzee solve --tournament
        N``, :mod:`solver.tournament_file`: a file per rules, field and players) when a
        usable one is there, else None (``note`` says why a file there is unusable); None
        for an objective that is not solved once from a new game."""
        return self.goal.stored_solve(table, note)

    def utility_bounds(self, table: Table) -> Utility:
        """A utility with the same range as :meth:`utility`'s or a wider one, known before
        anything is solved (its values are not the objective's): it tells the work of the
        DP (:func:`solver.target.solve_operations`) before the opponents' distributions
        are worked out."""
        return self.goal.utility_bounds(table)

    def utility(self, table: Table, memory: TurnMemory, *, phase: Phase | None = None
                ) -> Utility:
        """The terminal utility of the target / win DP (not for the expected score).
        ``memory``, ``phase``: as for :meth:`opponent_distribution`."""
        return self.goal.utility(table, memory, phase=phase)


@dataclass(frozen=True)
class ExpectedScore(Objective):
    """The expected final score: the default objective, answered by the expected-score
    table (nothing solved per turn); its figure is every option's expected final score,
    its loss in points."""

    kind = "ev"
    header = "expected final"
    slow_open_boxes = ExpectedGoal.slow_open_boxes
    solves_turns = ExpectedGoal.solves_turns
    tie = ExpectedGoal.tie
    unit = POINTS
    is_ev = True

    @property
    def chance_words(self) -> str:
        return "the expected final score"

    @property
    def ranked_by(self) -> str | None:
        return None

    def describe(self) -> str:
        return "the expected final score"

    def __str__(self) -> str:
        return "ev"

    def __repr__(self) -> str:
        return "Objective.ev()"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "ev"}

    def query_params(self) -> dict[str, str] | None:
        return {}

    def value_of(self, option: Any) -> float:
        return option.expected_final

    def value_before_turn(self, card: Scorecard, table: Table,
                          solved: Callable[[], float]) -> float:
        return card.total + table.value(card.mask, card.upper, card.flag)

    def option_columns(self) -> list[Column]:
        """The expected final score and the loss in points."""
        return [EXPECTED_FINAL, Column("loss", 8, lambda o: f"{o.loss:.2f}")]

    @property
    def goal(self) -> Goal:
        return ExpectedGoal()


@dataclass(frozen=True)
class TargetObjective(Objective):
    """P(final score >= ``target``). One solve's vectors answer the game's later turns;
    a target beyond the most points still to come is out of reach (every figure 0)."""

    target: int
    kind = "target"
    key = "p_target"
    header = "P(target)"
    slow_open_boxes = TargetGoal.slow_open_boxes
    keeps_game_vectors = TargetGoal.keeps_game_vectors

    def __post_init__(self) -> None:
        if type(self.target) is not int:
            raise ObjectiveError("a target objective needs target=... (a whole number)")

    @property
    def chance_words(self) -> str:
        return f"the chance of {self.target} or more"

    def describe(self) -> str:
        return f"P(final score >= {self.target})"

    def __str__(self) -> str:
        return f"target {self.target}"

    def __repr__(self) -> str:
        return f"Objective.for_target({self.target})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "target", "target": self.target}

    def query_params(self) -> dict[str, str] | None:
        return {"target": str(self.target)}

    @property
    def goal(self) -> Goal:
        return TargetGoal(self.target)


@dataclass(frozen=True)
class WinObjective(Objective):
    """The chance to win against ``opponent`` (one) or ``opponents`` (two or more: beat
    the best of them), each playing on from their card for the highest expected score; a
    tie of ``k`` at the top counts ``1/k``."""

    opponent: Scorecard | None = None
    opponents: tuple[Scorecard, ...] = ()
    kind = "win"
    key = "win_share"
    header = "chance to win"
    slow_open_boxes = WinGoal.slow_open_boxes

    def __post_init__(self) -> None:
        if (self.opponent is not None) == (len(self.opponents) >= 2) or \
                len(self.opponents) == 1:
            raise ObjectiveError("a target objective needs target=..., a win objective "
                                 "opponent=... or two or more opponents=...")
        if len(self.opponents) > MAX_OPPONENTS:
            raise _too_many(len(self.opponents))

    @property
    def against(self) -> tuple[Scorecard, ...]:
        return (self.opponent,) if self.opponent is not None else self.opponents

    @property
    def chance_words(self) -> str:
        return "the chance to win"

    def describe(self) -> str:
        if self.opponent is not None and self.opponent.is_full:
            return (f"the chance to win (a tie counts as half) against the opponent's "
                    f"final score, {self.opponent.total}")
        if self.opponent is not None:
            return (f"the chance to win (a tie counts as half), opponent at "
                    f"{standing(self.opponent)}")
        return (f"the chance to win against {len(self.opponents)} opponents (a tie "
                f"counts as a share: half a win between two, a third among three), "
                f"opponents at {'; '.join(standing(c) for c in self.opponents)}")

    def __str__(self) -> str:
        return f"win against {' and '.join(str(c) for c in self.against)}"

    def __repr__(self) -> str:
        if self.opponent is not None:
            return f"Objective.win({self.opponent!r})"
        return f"Objective.win_against({list(self.opponents)!r})"

    def to_json(self) -> dict[str, Any]:
        if self.opponent is not None:
            return {"kind": "win", "opponent": str(self.opponent)}
        return {"kind": "win", "opponents": [str(c) for c in self.opponents]}

    def query_params(self) -> dict[str, str] | None:
        return ({"opponent": str(self.opponent)} if self.opponent is not None
                else {"opponents": ";".join(str(c) for c in self.opponents)})

    @property
    def goal(self) -> Goal:
        return WinGoal(self.against)


@dataclass(frozen=True)
class TournamentObjective(Objective):
    """The expected share of first place among ``players`` in all, the others' final
    scores independent draws from ``field``'s distribution; nobody sees anybody, so one
    solve from a new game answers every turn (:attr:`solves_from_new_game`)."""

    players: int
    field: Field
    kind = "tournament"
    key = "win_share"
    header = "share of 1st"
    slow_open_boxes = TournamentGoal.slow_open_boxes
    solves_from_new_game = TournamentGoal.solves_from_new_game

    def __post_init__(self) -> None:
        if self.players is None or self.field is None:
            raise ObjectiveError("a tournament objective needs players=... and field=... "
                                 "(and no other objective does)")
        check_players(self.players)

    @property
    def chance_words(self) -> str:
        return f"the share of first place among {self.players:,} players"

    @property
    def loss_decimals(self) -> int:
        """2 up to 999 players, one more for each further digit of N (shares about 1/N):
        4 for 10,000 players."""
        return 2 + max(0, len(str(self.players)) - 3)

    def describe(self) -> str:
        return (f"the expected share of first place among {self.players:,} players "
                f"(a tie at the top shared), the others' final scores from "
                f"{self.field.describe()}")

    def __str__(self) -> str:
        return f"tournament of {self.players} (field {self.field})"

    def __repr__(self) -> str:
        return f"Objective.tournament({self.players}, {self.field!r})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "tournament", "players": self.players, "field": self.field.to_json()}

    def query_params(self) -> dict[str, str] | None:
        return {"tournament": str(self.players)} if self.field == Field() else None

    @property
    def goal(self) -> Goal:
        return TournamentGoal(self.players, self.field)


EV = Objective()
"""The expected final score: the one value of the default objective (never ``None``)."""


def _too_many(count: int) -> ObjectiveError:
    return ObjectiveError(f"{count:,} opponents: a win objective takes 2 to {MAX_OPPONENTS} "
                          f"opponents' cards (the others at a table of eight)")


def _json_kind(value: object) -> str:
    """What ``value`` (read from JSON) is, in JSON's words: ``text``, ``a fraction``..."""
    if isinstance(value, bool):
        return "true or false"
    return {str: "text", float: "a fraction", list: "a list", dict: "an object",
            type(None): "null"}.get(type(value), type(value).__name__)


def _as_opponent(card: Scorecard | str, rules: str | RuleSet) -> Scorecard:
    """An opponent's card: itself, or parsed from text under ``rules``."""
    if isinstance(card, Scorecard):
        return card
    if not isinstance(card, str):
        raise ObjectiveError(f"opponent card: give a Scorecard or its text (e.g. "
                             f"'twos=6,3k=20'), not {type(card).__name__}")
    try:
        return Scorecard.parse(card, rules)
    except YahtzeeError as exc:
        raise ObjectiveError(f"opponent card: {exc}") from exc


def standing(card: Scorecard) -> str:
    """Where a card stands: ``250 (finished)`` or ``180 with 3 boxes open``."""
    if card.is_full:
        return f"{card.total} (finished)"
    n_open = len(card.open_boxes())
    return f"{card.total} with {n_open} box{'es' if n_open > 1 else ''} open"
