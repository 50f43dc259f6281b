"""A guided game: what a player typed, checked against the dice and the card.

An action line is one of: empty (follow the advice), an option number from the list
shown, ``keep 222`` / ``k 2 2 2`` / ``reroll all``, or ``score twos`` / ``s 2s`` / just a
box name (read by :mod:`advisor.moves`). Dice lines are all five dice showing, or only the
rerolled ones.

:class:`GameSession` runs a whole game from lines of text (the CLI only reads and
prints): its state is a :class:`~advisor.record.GameRecord`, so ``undo`` is one step
back in the record, and saving the record after each step loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from solver.errors import IllegalMoveError, ObjectiveError, WriteError
from solver.game.dice import DICE
from solver.game.rules import RuleSet
from solver.solved_turn import solve_is_slow, stored_vectors
from solver.table import Table

from .advice import Advice, Option, advice_table
from .background import TurnSolves
from .caches import Caches
from .model import Dice, Scorecard, box_label
from .moves import dice_after_keep, parse_action
from .objective import EV, Objective
from .play_win import Judging, WinEachTurn, split_judging
from .ranking import TurnAdvisor, turn_advisor
from .record import GameRecord
from .text import (
    card_lines,
    card_summary,
    cards_side_by_side,
    duration_text,
    open_boxes_text,
    points_of_chance,
    probability_text,
    rolls_left_phrase,
)

QUIT = frozenset({"q", "quit", "exit"})
HELP = ("enter: follow the advice | N: option N | keep 222 | reroll all | score twos | "
        "undo | card | more | help | quit")
HELP_WORDS = frozenset({"help", "?", "h", "commands"})
COMMANDS = (
    "commands (at any prompt):",
    "  enter          follow the advice (the first option)",
    "  N              take option N of the list",
    "  keep 222       keep these dice and reroll the rest (k 222; 'reroll all' keeps none)",
    "  score twos     fill a box (s 2s, or just the box name; see `yahtzee rules`)",
    "  22256          the dice again: corrects the roll just typed",
    "  undo           one step back (a move, a roll, across turns and players)",
    "  card / cards   the card of the player to move / of every player",
    "  more           every option, not only the best few",
    "  help or ?      this list",
    "  quit           stop; the game can be resumed from its record",
)


def winners(cards: dict[str, Scorecard]) -> tuple[list[str], int]:
    """The names with the highest total, and that total."""
    best = max(card.total for card in cards.values())
    return [name for name, card in cards.items() if card.total == best], best


# ---------------------------------------------------------------------- the session
def turn_is_slow(card: Scorecard, table: Table, objective: Objective, memory: Caches) -> bool:
    """True when solving ``card``'s turn under ``objective`` takes more than about a
    second (:func:`solver.solved_turn.solve_is_slow`, with what ``memory`` keeps)."""
    return solve_is_slow(card, table, objective.goal, memory)


class QuitGame(Exception):
    """The player typed ``quit``."""


class SaveFailed(Exception):
    """``save(record)`` raised a :class:`~solver.errors.WriteError` (``reason``): the
    session's record holds the step that could not be saved; the file holds the one
    before. Not an input error: the game cannot go on as if it were saved."""

    def __init__(self, reason: WriteError) -> None:
        super().__init__(str(reason))
        self.reason = reason


class GameSession:
    """A game driven by lines of text; the record is the whole state.

    ``memory``: the caches of its turns (:class:`~advisor.caches.Caches`: the turn
    advisors, the opponents' distributions, the game's vectors), handed to every turn and
    to the review, so that nothing solved once is solved again; the owner of the game
    makes it. ``save(record)`` is called after every change (a roll, a move, an undo). Each call
    of :meth:`handle` returns the lines to print; :meth:`prompt` says what is asked. A
    save that fails raises :class:`SaveFailed` out of :meth:`handle`.
    ``objective`` is handed to the advisor (default: the expected score); ``win`` instead
    gives each turn its own objective (:class:`~advisor.play_win.WinEachTurn`): then
    ``notify(line)`` is told the expected-score advice at once and a note before a
    turn's DP starts, which ``progress`` follows (``progress(description, unit)`` returns
    a ``(done, total)`` callback and a close function).

    ``solves`` (:class:`~advisor.background.TurnSolves`): a win turn whose solve is slow
    (``is_slow(card, table, objective)``, default :func:`turn_is_slow` with ``memory``)
    is solved in the background from the moment the turn starts, before its dice are
    in. Meanwhile the lists are by expected score and say how far the solve is, and
    every input is taken as usual; once done, :meth:`ready_lines` is the list re-ranked by
    the chance to win. Enter and option numbers always mean the list last shown.
    """

    def __init__(self, record: GameRecord, table: Table, *, memory: Caches, top: int = 3,
                 objective: Objective = EV, save: Callable[[GameRecord], object] | None = None,
                 win: WinEachTurn | None = None,
                 notify: Callable[[str], None] | None = None,
                 progress: Callable[[str, str], tuple[Callable[[int, int], None],
                                                      Callable[[], None]]] | None = None,
                 solves: TurnSolves | None = None,
                 is_slow: Callable[[Scorecard, Table, Objective], bool] | None = None
                 ) -> None:
        if win is not None and objective != EV:
            raise ObjectiveError("give objective=... or win=..., not both")
        self.record = record
        self.table = table
        self.memory = memory
        self.top = top
        self.objective = objective
        self.win = win
        self.save = save
        self.notify = notify
        self.progress = progress
        self.solves = solves
        self.is_slow = (is_slow if is_slow is not None else
                        lambda card, table, objective: turn_is_slow(card, table, objective,
                                                                    memory))
        self._turns: dict[tuple[Scorecard, Objective], TurnAdvisor] = {}
        self._shown_at_once = False
        self._shown: tuple[GameRecord, Advice] | None = None
        """The list last shown and the position it was for."""

    @classmethod
    def judged_by(cls, record: GameRecord, table: Table, judging: Judging, *,
                  memory: Caches, **options: Any) -> GameSession:
        """A session whose advice maximises ``judging``: one objective for every turn, or
        each turn's own win objective (:class:`~advisor.play_win.WinEachTurn`);
        ``options`` as for the constructor (``top``, ``save``, ``notify``, ...)."""
        objective, win = split_judging(judging)
        return cls(record, table, memory=memory, objective=objective, win=win, **options)

    # ------------------------------------------------------------------ state
    @property
    def rules(self) -> RuleSet:
        return self.table.rules

    @property
    def is_over(self) -> bool:
        return self.record.is_finished

    @property
    def player(self) -> str:
        return self.record.next_player

    @property
    def card(self) -> Scorecard:
        return self.record.cards()[self.player]

    @property
    def stage(self) -> str:
        """``roll`` (first dice of a turn), ``reroll`` (dice after a keep), ``move`` or
        ``over``."""
        if self.is_over:
            return "over"
        turn = self.record.current
        if turn is None:
            return "roll"
        return "reroll" if len(turn.keeps) == len(turn.rolls) else "move"

    def turn_objective(self) -> Objective:
        """The objective of the player to move."""
        if self.win is None:
            return self.objective
        return self.win.objective(self.record, self.player)

    @property
    def judging(self) -> Judging:
        """What the game's advice maximises: the session's objective, or each turn's win
        objective (for the review)."""
        return self.win if self.win is not None else self.objective

    def advisor(self) -> TurnAdvisor:
        """The advisor of this turn (:func:`~advisor.ranking.turn_advisor`: a turn's
        decisions, an undo back into it and the review share one solve); while the
        turn's background solve is under way, the expected-score advisor."""
        objective = self.turn_objective()
        if self._in_background(self.card, objective):
            found = self._background_advisor(self.card, objective)
            return found if found is not None else self._expected_advisor(self.card)
        return self.advisor_for(self.card, objective, solve=True)

    # ------------------------------------------------------------------ background solves
    def _in_background(self, card: Scorecard, objective: Objective) -> bool:
        """True when ``card``'s turn under ``objective`` is solved in the background."""
        return (self.solves is not None and self.win is not None
                and objective.needs_solve(card) and self.is_slow(card, self.table, objective))

    def _background_advisor(self, card: Scorecard, objective: Objective
                            ) -> TurnAdvisor | None:
        """The advisor of a turn solved in the background, once its solve is done."""
        key = (card, objective)
        found = self._turns.get(key)
        if found is not None:
            return found
        assert self.solves is not None
        solve = self.solves.get(card, objective)
        if solve is None or solve.state != "done":
            return None
        found = TurnAdvisor(card, self.table, objective, memory=self.memory,
                            solved=solve.result, whole_game=False)
        self._turns[key] = found
        return found

    def finish_solves(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Wait for the background solve still under way at the end of a game (a turn the
        player left while no other needed the worker), ``progress(done, total)``
        following it, so that the review takes it."""
        if self.solves is None:
            return
        for solve in self.solves.running():
            card, objective = cast(tuple[Scorecard, Objective], solve.key)  # (TurnSolves' key)
            self.solves.wait(card, objective, progress)

    def follow_turn(self) -> None:
        """Start the background solve of the turn under way when it needs one (ending
        one of another turn: the game has moved on); a turn solved or under way is not
        solved again. A solve of a turn left goes on while no other turn needs the worker
        (the review takes it)."""
        if self.solves is None or self.is_over:
            return
        objective = self.turn_objective()
        if self._in_background(self.card, objective) and (self.card, objective) not in self._turns:
            self.solves.start(self.card, objective)

    def solve_status(self) -> str | None:
        """How far the turn's background solve is (``the chance to win: 40 % worked out,
        about 50 s left``), or None when none is under way for the turn."""
        if self.solves is None or self.is_over:
            return None
        solve = self.solves.get(self.card, self.turn_objective())
        if solve is None or solve.state != "running":
            return None
        share = f"{100 * solve.done // solve.total} % worked out" if solve.total else "starting"
        left = solve.seconds_left()
        about = "" if left is None else f", about {duration_text(left)} left"
        return f"{self._what()}: {share}{about}"

    def ready_lines(self) -> list[str]:
        """The list shown re-ranked by the objective once the turn's background solve is
        done (or a line saying it failed), else []."""
        if self._shown is None or self._shown[0] != self.record or self.stage != "move":
            return []
        shown = self._shown[1]
        objective = self.turn_objective()
        if shown.objective.solves_turns or not self._in_background(self.card, objective):
            return []
        assert self.solves is not None
        solve = self.solves.get(self.card, objective)
        if solve is None or solve.state not in ("done", "failed"):
            return []
        if solve.state == "failed":
            self._shown = None  # said once
            return [f"  ! {self._what()} could not be worked out ({solve.error}); the list "
                    f"above stays by expected score"]
        return [f"  {self._what()} is worked out ({duration_text(solve.seconds)}): "
                f"the choices re-ranked", *self._advice_lines(self.top)]

    def advisor_for(self, card: Scorecard, objective: Objective, *,
                    solve: bool = False) -> TurnAdvisor:
        """The advisor of ``card`` under ``objective``: a turn under a target or win
        objective is solved once (with ``solve``, now, with a note and progress; Ctrl-C
        gives that turn expected-score advice) and kept for the rest of the game and its
        review (which takes a turn's background solve when it was done, else solves the
        turn when it judges it)."""
        if not objective.solves_turns:
            return turn_advisor(card, self.table, objective, memory=self.memory)
        key = (card, objective)
        if self._in_background(card, objective):  # its background solve, when there is one
            assert self.solves is not None
            running = self.solves.get(card, objective)
            if running is not None and running.state == "running":  # (the review: waits for it)
                self.solves.wait(card, objective)
            self._background_advisor(card, objective)  # (else the review solves it)
        found = self._turns.get(key)
        if found is None or (solve and not found.is_solved):
            # a fixed objective keeps the game's vectors for its later turns; each turn's
            # own win objective does not
            found = found or TurnAdvisor(card, self.table, objective, memory=self.memory,
                                         whole_game=self.win is None)
            if solve:
                found = self._solve_turn(found)
            self._turns[key] = found
        return found

    def _solve_turn(self, advisor: TurnAdvisor) -> TurnAdvisor:
        """The objective's DP of this turn solved now, with a note and a progress bar;
        Ctrl-C falls back to the expected score. A turn the target table or a
        tournament's kept solve (in the process or on disk) answers is read at once,
        without a word."""
        objective, card = advisor.objective, advisor.card
        if stored_vectors(self.table, objective.goal, card) is not None or (
                objective.solves_from_new_game and not turn_is_slow(card, self.table,
                                                                    objective, self.memory)):
            advisor.solve()
            return advisor
        if self.notify is not None:
            self.notify(self._working_line(advisor))
        bar = self.progress(self._what(), "step") if self.progress is not None else None
        try:
            if not advisor.objective.is_out_of_reach(advisor.card):
                advisor.solve(None if bar is None else bar[0])  # now, while the user is told
        except KeyboardInterrupt:  # the player would rather not wait: expected score
            advisor = TurnAdvisor(advisor.card, self.table, memory=self.memory)
            if self.notify is not None:
                self.notify("  stopped: this turn's advice is by expected score")
        finally:
            if bar is not None:
                bar[1]()
        return advisor

    def _expected_advisor(self, card: Scorecard) -> TurnAdvisor:
        """The expected-score advisor of ``card`` (kept in the session's memory)."""
        return turn_advisor(card, self.table, memory=self.memory)

    def _what(self) -> str:
        """What is worked out: ``the chance to win`` or ``P(final score >= 300)``."""
        return "the chance to win" if self.win is not None else self.objective.describe()

    def _working_line(self, advisor: TurnAdvisor) -> str:
        if self.win is not None:
            return self.win.working_line(self.record, self.player, shown=self._shown_at_once)
        n_open = len(advisor.card.open_boxes())
        stop = ("go on with the expected-score advice above" if self._shown_at_once else
                "expected-score advice instead")
        return (f"  working out {self._what()} from {self.player}'s card ({n_open} "
                f"box{'es' if n_open > 1 else ''} open; solved once, the game's later turns "
                f"reuse it; Ctrl-C: {stop})...")

    def _pending(self) -> bool:
        """True when this turn has a target or win objective not solved yet."""
        objective = self.turn_objective()
        if not objective.solves_turns:
            return False
        found = self._turns.get((self.card, objective))
        return found is None or not found.is_solved

    def advice(self, *, why: bool = False) -> Advice:
        """The advice for the dice showing (stage ``move``); ``why``: with outcomes."""
        return self._advice(self.advisor(), why=why)

    def _advice(self, advisor: TurnAdvisor, *, why: bool = False) -> Advice:
        turn = self.record.current
        assert turn is not None
        return advisor.advise(turn.rolls[-1], self.rules.rolls_per_turn - len(turn.rolls),
                              why=why)

    def position_at(self, dice: Dice) -> None:
        """Stand at ``dice``, the next roll of the game (the record gains the roll), or the
        roll already awaiting a move (then ``dice`` must be those dice)."""
        stage = self.stage
        if stage == "over":
            raise IllegalMoveError("the game in the record is over")
        if stage == "move":
            turn = self.record.current
            assert turn is not None
            if turn.rolls[-1] != dice:
                raise IllegalMoveError(f"the record's turn shows {turn.rolls[-1].spaced()}, "
                                       f"awaiting a move; give those dice")
            return
        self.record = self.record.with_roll(dice)

    def prompt(self) -> str:
        """What is asked, with how far the turn's background solve is."""
        stage = self.stage
        status = self.solve_status()
        return self._prompt(stage) + ("" if status is None else f" [{status}]")

    def _prompt(self, stage: str) -> str:
        if stage == "roll":
            return f"{self.player}: dice thrown (e.g. 22256)"
        if stage == "reroll":
            turn = self.record.current
            assert turn is not None
            keep = turn.keeps[-1]
            shown = keep.spaced() or "nothing"
            return f"kept {shown}; dice now (all five, or the {DICE - len(keep)} rerolled)"
        if stage == "move":
            return f"your move [enter: {self.shown_advice().best.describe()}]"
        return "game over"

    def shown_advice(self) -> Advice:
        """The advice of the list last shown for the dice showing (enter and option
        numbers mean it), else the advice now."""
        if self._shown is not None and self._shown[0] == self.record:
            return self._shown[1]
        return self.advice()

    # ------------------------------------------------------------------ text
    def header(self) -> list[str]:
        """The turn header (stage ``roll``) or the dice and the advice (stage ``move``)."""
        stage = self.stage
        if stage == "roll":
            card = self.card
            return ["", f"== {self.player}, turn {card.turn} of {self.rules.n_boxes} | "
                        f"{card_summary(card)}"]
        if stage == "move":
            return self._advice_lines(self.top)
        return []

    def opening(self) -> list[str]:
        """What a game shows when it starts or resumes: the turn header, and in the middle
        of a turn the dice so far (``rolled 2 2 2 5 6, kept 2 2 2``) and the advice."""
        self.follow_turn()
        stage = self.stage
        if stage in ("roll", "over"):
            return self.header()
        card = self.card
        turn = self.record.current
        assert turn is not None
        so_far = []
        for i, roll in enumerate(turn.rolls):
            so_far.append(f"rolled {roll.spaced()}")
            if i < len(turn.keeps):
                so_far.append(f"kept {turn.keeps[i].spaced() or 'nothing'}")
        lines = ["", f"== {self.player}, turn {card.turn} of {self.rules.n_boxes} | "
                     f"{card_summary(card)}", f"  so far this turn: {', '.join(so_far)}"]
        return lines + (self.header() if stage == "move" else [])

    def _advice_lines(self, top: int | None) -> list[str]:
        objective = self.turn_objective()
        if self._in_background(self.card, objective) and \
                self._background_advisor(self.card, objective) is None:
            advice = self.advice()
            status = self.solve_status()
            self._shown = (self.record, advice)
            return self._listed(advice, top, [
                f"by the expected final score, while {self._what()} is worked out"
                f"{'' if status is None else ' (' + status.split(': ', 1)[1] + ')'}; the "
                f"list is re-ranked when it is ready:"])
        if self.notify is not None and self._pending() and \
                turn_is_slow(self.card, self.table, self.turn_objective(), self.memory):
            # the expected-score advice at once, the chance to win once worked out
            now = self._advice(self._expected_advisor(self.card))
            self._shown_at_once = True
            for line in self._listed(now, top, [f"by the expected final score, while "
                                                f"{self._what()} is worked out:"]):
                self.notify(line)
        try:
            advice = self.advice()
        finally:
            self._shown_at_once = False
        ranked = []
        if not advice.objective.solves_turns and self.turn_objective().solves_turns:
            ranked = [f"ranked by the expected final score (working out {self._what()} "
                      f"was stopped with Ctrl-C)"]
        elif self.win is not None:
            ranked = [self.win.ranked_line(self.record, self.player)]
        elif advice.objective.ranked_by is not None:
            ranked = [f"ranked by {advice.objective.ranked_by}"]
        self._shown = (self.record, advice)
        return self._listed(advice, top, ranked)

    def _listed(self, advice: Advice, top: int | None, ranked: list[str]) -> list[str]:
        per_turn = self.rules.rolls_per_turn
        return [f"{self.player}: dice {advice.dice.spaced()} | "
                f"{rolls_left_phrase(advice.rolls_left, per_turn)}", *ranked,
                *advice_table(advice, top, more_hint="type 'more' to see them all")]

    def card_lines(self, names: list[str] | None = None) -> list[str]:
        """One player's card box by box (``names`` of one player), or every card side by
        side, one column per player."""
        cards = self.record.cards()
        names = names or list(cards)
        if len(names) == 1:
            card = cards[names[0]]
            return [f"{names[0]}: {card_summary(card)}", *card_lines(card),
                    f"  open: {open_boxes_text(card)}"]
        return cards_side_by_side({name: cards[name] for name in names})

    # ------------------------------------------------------------------ input
    def handle(self, text: str) -> list[str]:
        """Act on one line typed; the lines to print. Raises :class:`QuitGame` on
        ``quit`` and a ``ValueError`` subclass for input that is refused."""
        word = " ".join(text.strip().lower().split())
        if word in QUIT:
            raise QuitGame
        if word in HELP_WORDS:
            return list(COMMANDS)
        if word == "undo":
            return self._undo()
        if word == "card":
            return self.card_lines([self.player])
        if word == "cards":
            return self.card_lines()
        stage = self.stage
        if stage == "over":
            raise IllegalMoveError("the game is over")
        if stage == "roll":
            return self._step(self.record.with_roll(Dice.parse(text)))
        turn = self.record.current
        assert turn is not None
        if stage == "reroll":
            return self._step(self.record.with_roll(dice_after_keep(text, turn.keeps[-1])))
        if word == "more":
            return self._advice_lines(0)
        if _is_five_dice(word):
            dice = Dice.parse(text)
            if len(turn.rolls) > 1 and not dice.contains(turn.keeps[-1]):
                dice_after_keep(text, turn.keeps[-1])  # raises, naming the kept dice
            fixed = self.record.without_last_step().with_roll(dice)
            return [f"  dice corrected to {dice.spaced()}", *self._step(fixed)]
        advice = self.shown_advice()
        move = parse_action(text, advice)
        chosen = next(o for o in advice.options if o.move == move)
        note = deviation_note(chosen, advice.best, advice.objective)
        card = self.card
        lines = self._step(self.record.with_move(move), announce=False)
        if move.box is not None:
            lines = [scored_line(self.player_of_last_turn(), card, self.record), *lines]
        return ([note] if note else []) + lines + (self.header() if move.box is not None
                                                   else [])

    def player_of_last_turn(self) -> str:
        return self.record.turns[-1].player

    def _step(self, record: GameRecord, *, announce: bool = True) -> list[str]:
        self.record = record
        if self.save is not None:
            try:
                self.save(record)
            except WriteError as exc:
                raise SaveFailed(exc) from None
        self.follow_turn()
        return self.header() if announce else []

    def _undo(self) -> list[str]:
        before = self.record
        self._step(before.without_last_step(), announce=False)
        last = before.turns[-1]
        if last.box is not None:
            what = f"{last.player}'s {box_label(last.box)} ({last.rolls[-1].spaced()})"
        elif len(last.keeps) == len(last.rolls):
            what = f"{last.player}'s keep {last.keeps[-1].spaced() or 'of nothing'}"
        else:
            what = f"{last.player}'s roll {last.rolls[-1].spaced()}"
        stage = self.stage
        lines = [f"  undone: {what}"]
        if stage == "roll":
            lines += self.header()
        elif stage == "move":
            lines += self._advice_lines(self.top)
        return lines


def _is_five_dice(word: str) -> bool:
    digits = word.replace(",", "").replace(" ", "")
    return len(digits) == DICE and digits.isdigit() and not word.startswith(("k", "s"))


def deviation_note(chosen: Option, best: Option, objective: Objective = EV) -> str:
    """``  keep 2 2 2 3 costs 2.49 points on average (best: keep 2 2 2)``, or ``""`` for
    the best move. Under a probability objective the cost is in percentage points of it:
    ``  keep 6 6 costs 0.42 percentage points of the chance to win (53.4367 % to
    53.0167 %; best: keep 6 6 6; 1.20 points on average)``."""
    key = objective.key
    if key is not None:
        high, low = float(getattr(best, key)), float(getattr(chosen, key))
        if high - low <= 1e-12:
            return ""
        what = objective.chance_words
        figure, loss = objective.chance_decimals, objective.loss_decimals
        return (f"  {chosen.describe()} costs {points_of_chance(high - low, loss)} percentage "
                f"points of {what} ({probability_text(high, figure)} to "
                f"{probability_text(low, figure)}; best: "
                f"{best.describe()}; {chosen.loss:.2f} points on average)")
    if chosen.loss <= 1e-9:
        return ""
    return (f"  {chosen.describe()} costs {chosen.loss:.2f} points on average "
            f"(best: {best.describe()})")


def scored_line(name: str, card: Scorecard, record: GameRecord) -> str:
    """``Ann scores 15 in Threes + 100 Yahtzee bonus: total 165`` (the box as on the card)."""
    new = record.cards()[name]
    box = record.turns[-1].box or ""
    b = card.rules.box_index(box)
    bonus = new.yahtzee_bonuses - card.yahtzee_bonuses
    extra = f" + {bonus * card.rules.yahtzee_bonus} Yahtzee bonus" if bonus else ""
    upper = (f" + {new.upper_bonus} upper bonus" if new.upper_bonus > card.upper_bonus else "")
    return (f"{name} scores {new.entries[b]} in {box_label(box)}{extra}{upper}: total "
            f"{new.total}")
