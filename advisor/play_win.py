"""``yahtzee play --objective win``: each player's advice maximises the chance to win.

At every turn the player to move plays against the best of the others: each other
player's final score is their total when they have finished, else the exact
distribution of their final score from their card as it is now (they play on for the
highest expected score, independently), and the best of them has the product of
those distribution functions (:func:`solver.points_to_come.max_distribution`). The
objective is :meth:`Objective.win_against <advisor.objective.Objective.win_against>`
of the others' cards, so with two players it is exactly ``--opponent CARD``.

The win objective applies from the first turn by default (:data:`DEFAULT_WIN_FROM`):
the exact DP from a new game takes a minute or more, so ``play`` shows the expected-score
advice at once and ranks by the chance to win once the turn's background solve is done.
``--win-from N`` makes it apply only once the player to move has at most ``N`` boxes
open; before that the advice is by expected score and says so.

What a game was played for (:data:`Judging`: one fixed objective, or the win objective
of each turn) is noted in its record's first line, ``# objective: ...``
(:func:`objective_comment`); :func:`judging_of_record` reads it back, so a review judges
the game by what its advice maximised.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from solver.errors import ObjectiveError, shown

from .model import Scorecard
from .objective import EV, Objective, standing
from .record import GameRecord
from .record_file import OBJECTIVE_PREFIX
from .win_from import DEFAULT_WIN_FROM, FIRST_TURN

_WIN_NOTE = "win (each player against the best of the others, {})"


def from_text(open_boxes: int) -> str:
    """``from the first turn`` (the default, every turn) or ``from 8 open boxes on``."""
    return FIRST_TURN if open_boxes >= DEFAULT_WIN_FROM else f"from {open_boxes} open boxes on"


@dataclass(frozen=True)
class WinEachTurn:
    """The win objective of the player to move against the others' cards now."""

    open_boxes: int = DEFAULT_WIN_FROM
    is_ev = False
    """Never the expected score throughout (as :attr:`Objective.is_ev`)."""
    solves_turns = True
    """Its turns are solved (as :attr:`Objective.solves_turns`: a win objective's, from
    its first open boxes on)."""

    def objective_for(self, cards: Mapping[str, Scorecard], player: str) -> Objective:
        """``Objective.win_against`` the cards of the players other than ``player``
        (``cards``: every player's card, in playing order), or the expected score while
        ``player`` has more than ``open_boxes`` boxes open."""
        mine = cards[player]
        if len(mine.open_boxes()) > self.open_boxes:
            return EV
        return Objective.win_against([card for name, card in cards.items() if name != player],
                                     mine.rules_name)

    def objective(self, record: GameRecord, player: str) -> Objective:
        """:meth:`objective_for` the record's cards after its finished turns."""
        return self.objective_for(record.cards(), player)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "win", "each_turn": true, "win_from": N}``."""
        return {"kind": "win", "each_turn": True, "win_from": self.open_boxes}

    def describe(self) -> str:
        what = ("the chance to win against the others (a tie counts as a share: half a win "
                "between two, 1/k among k at the top)")
        if self.open_boxes >= DEFAULT_WIN_FROM:
            return f"{what}, {FIRST_TURN}"
        return f"{what}, {from_text(self.open_boxes)} (before: the expected final score)"

    def ranked_line(self, record: GameRecord, player: str) -> str:
        """What ranks ``player``'s options, naming the others and where they stand."""
        cards = record.cards()
        if len(cards[player].open_boxes()) > self.open_boxes:
            return expected_score_line(self.open_boxes)
        others = [name for name in record.players if name != player]
        if len(others) == 1:
            return (f"ranked by the chance to beat {others[0]} (a tie counts as half): "
                    f"{standings(record, others)}")
        return (f"ranked by the chance to win against {', '.join(others)} (a tie of k players "
                f"at the top counts 1/k): {standings(record, others)}")

    def working_line(self, record: GameRecord, player: str, *, shown: bool = False) -> str:
        """The note printed before the DP of a turn starts (``shown``: the expected-score
        advice is on screen already)."""
        n_open = len(record.cards()[player].open_boxes())
        others = [name for name in record.players if name != player]
        slow = ": with this many, a while" if n_open > 6 else ""
        stop = ("go on with the expected-score advice above" if shown else
                "expected-score advice instead")
        return (f"  working out {player}'s exact chance to beat {' and '.join(others)} "
                f"({n_open} box{'es' if n_open > 1 else ''} open{slow}; Ctrl-C: {stop})...")


def expected_score_line(open_boxes: int) -> str:
    """Why a turn of a win game is ranked by the expected score."""
    return (f"ranked by the expected final score: the chance to win is worked out "
            f"{from_text(open_boxes)} (--win-from)")


Judging = Union["Objective", WinEachTurn]
"""What a game's advice maximised: one objective for every turn, or each turn's own."""


def split_judging(judging: Judging) -> tuple[Objective, WinEachTurn | None]:
    """``(fixed, win)`` of ``judging``: one objective for every turn and None, or the
    expected score and each turn's own win objective (:class:`WinEachTurn`), as a game
    (:meth:`advisor.play.GameSession.judged_by`) and its review take them."""
    if isinstance(judging, WinEachTurn):
        return EV, judging
    return judging, None


def objective_comment(judging: Judging) -> str:
    """The record's first line naming the objective of the advice (a ``#`` comment, which
    readers of records ignore), or "" for the expected score."""
    if isinstance(judging, WinEachTurn):
        return f"{OBJECTIVE_PREFIX} {_WIN_NOTE.format(from_text(judging.open_boxes))}\n"
    if judging == EV:  # (the default: no line)
        return ""
    return f"{OBJECTIVE_PREFIX} {json.dumps(judging.to_json())}\n"


def judging_of_record(text: str, rules: str) -> Judging | None:
    """What the record ``text`` says its game was played for (its first line, as
    :func:`objective_comment` writes it), or None when it does not say. A line that
    starts so but cannot be read raises :class:`~solver.errors.ObjectiveError`."""
    first = text.removeprefix("\ufeff").split("\n", 1)[0].strip()
    if not first.startswith(OBJECTIVE_PREFIX):
        return None
    note = first[len(OBJECTIVE_PREFIX):].strip()
    if note.startswith("win ("):
        for n in range(1, DEFAULT_WIN_FROM + 1):
            if note == _WIN_NOTE.format(from_text(n)):
                return WinEachTurn(n)
    else:
        try:
            data = json.loads(note)
        except (ValueError, RecursionError):  # (brackets nested past Python's stack)
            data = None
        if isinstance(data, dict):
            try:
                return Objective.from_json(data, rules)
            except (ObjectiveError, RecursionError) as exc:
                why = exc if isinstance(exc, ObjectiveError) else "nested too deep"
                raise ObjectiveError(f"the record's first line {first[:80]!r}: {why}") from None
    raise ObjectiveError(f"the record's first line {first[:80]!r} names no objective this "
                         f"version reads; give --objective, --target, --beat or --opponent")


def check_win_from(win_from: object) -> int:
    """``--win-from N``: a number of open boxes, 1 to :data:`DEFAULT_WIN_FROM` (from the
    first turn under every rule set); anything else raises
    :class:`~solver.errors.ObjectiveError`."""
    if isinstance(win_from, bool) or not isinstance(win_from, int) \
            or not 1 <= win_from <= DEFAULT_WIN_FROM:
        raise ObjectiveError(f"--win-from {shown(win_from, 30)}: give a number of open boxes, "
                             f"1 to {DEFAULT_WIN_FROM} (the number of boxes or more: "
                             f"{FIRST_TURN})")
    return win_from


def choose_judging(*, objective_name: str | None, win_from: int | None,
                   target: str | None, beat: str | None, opponent: str | None,
                   players: Sequence[str], rules: str,
                   noted: Judging | None = None, tournament: str | None = None,
                   field: str | None = None, field_scores: str | None = None) -> Judging:
    """What to advise (``play``) or judge (``analyze``) by: ``--objective win`` (each
    turn's, from ``win_from`` open boxes on), ``--target`` / ``--beat`` / ``--opponent``
    / ``--tournament`` (with ``--field`` or ``--field-scores``), ``--objective ev``; none
    given: ``noted`` (the record's note), else the expected score. Raises
    :class:`~solver.errors.ObjectiveError` for options that conflict."""
    given = [name for name, value in (("--target", target), ("--beat", beat),
                                      ("--opponent", opponent), ("--tournament", tournament),
                                      ("--field", field), ("--field-scores", field_scores))
             if value is not None]
    if objective_name == "win":
        if given:
            raise ObjectiveError(f"--objective win and {given[0]} given: choose one objective "
                                 f"(--objective win plays against the other players)")
        if len(players) < 2:
            raise ObjectiveError("--objective win needs two or more players (--players N or "
                                 "--names A,B); alone, use --target X or --opponent CARD")
        return WinEachTurn(DEFAULT_WIN_FROM if win_from is None
                           else check_win_from(win_from))
    if win_from is not None and not (objective_name is None and not given
                                     and isinstance(noted, WinEachTurn)):
        raise ObjectiveError("--win-from applies only with --objective win")
    if objective_name == "ev" and given:
        raise ObjectiveError(f"--objective ev and {given[0]} given: choose one objective")
    if given:
        return Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                       tournament=tournament, field=field,
                                       field_scores=field_scores, rules=rules)
    if objective_name == "ev":
        return EV
    if isinstance(noted, WinEachTurn) and win_from is not None:
        return WinEachTurn(check_win_from(win_from))
    return noted if noted is not None else EV


def standings(record: GameRecord, names: list[str]) -> str:
    """``Bob 250 (finished), Cy 180 with 3 boxes open``."""
    cards = record.cards()
    return ", ".join(f"{name} {standing(cards[name])}" for name in names)
