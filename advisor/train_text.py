"""The text of practice (:mod:`advisor.train`): a position, a graded answer, the end of a
session and the trend of its history."""

from __future__ import annotations

from .model import box_label
from .objective import POINTS
from .text import card_summary, counted, probability_text, rolls_left_phrase
from .train import Graded, Position, Session

KIND_LABELS = {"keep": "keeps", "box": "boxes", "upper": "upper section",
               "yahtzee": "chasing a Yahtzee", "straights": "straights",
               "end_of_game": "end of game"}
"""How a session's summary names each of :data:`advisor.train.KINDS`."""


def position_lines(number: int, count: int, position: Position) -> list[str]:
    """The header of a practice position: where the card stands and the dice."""
    card = position.card
    rules = card.rules
    # every figure of the total, the bonuses too (they add up to the total above)
    figures = [f"{box_label(name)} {points}" for name, points in card.filled().items()]
    if card.upper_bonus:
        figures.append(f"Upper bonus {card.upper_bonus}")
    if card.yahtzee_bonuses:
        figures.append(f"Yahtzee bonus {card.yahtzee_bonuses * rules.yahtzee_bonus}")
    filled = ", ".join(figures)
    open_names = ", ".join(box_label(rules.boxes[b].name) for b in card.open_boxes())
    return ["", f"== position {number} of {count}: turn {card.turn} of {rules.n_boxes} | "
                f"{card_summary(card)}",
            f"  filled: {filled or 'nothing yet (a new game)'}",
            f"  open: {open_names}",
            f"  dice {position.dice.spaced()} | "
            f"{rolls_left_phrase(position.rolls_left, rules.rolls_per_turn)}"]


def graded_lines(graded: Graded) -> list[str]:
    """What an answer was worth against the best choice (and, with outcomes, what each
    leads to)."""
    lines = _grade_line(graded)
    answer, best = graded.answer, graded.best
    if best.outcome is None:
        return lines
    if answer.move == best.move or answer.outcome is None:
        lines.append(f"  why: {best.describe()}: {best.outcome.line()}")
    elif graded.tied:  # the answer first: it is as good as the one listed first
        lines.append(f"  why: {answer.describe()}: {answer.outcome.line()}")
        lines.append(f"       {best.describe()} (tied): {best.outcome.line()}")
    else:
        lines.append(f"  why: {best.describe()}: {best.outcome.line()}")
        lines.append(f"       {answer.describe()}: {answer.outcome.line()}")
    return lines


def _grade_line(graded: Graded) -> list[str]:
    answer, best = graded.answer, graded.best
    objective = graded.objective
    verdict = (f"a best choice, tied with {best.describe()}" if graded.tied
               else "the best choice")
    if objective.unit == POINTS:
        if not graded.is_error:
            return [f"  {answer.describe()}: {verdict} (expected final "
                    f"{answer.expected_final:.2f})"]
        return [f"  {answer.describe()} costs {graded.loss:.2f} points on average; best: "
                f"{best.describe()} (expected final {best.expected_final:.2f})"]
    what = objective.describe()
    high, low = best.probability or 0.0, answer.probability or 0.0
    if not graded.is_error:
        return [f"  {answer.describe()}: {verdict} for {what} ({probability_text(low)})"]
    return [f"  {answer.describe()} lowers {what} from {probability_text(high)} to "
            f"{probability_text(low)}; best: {best.describe()} (expected final "
            f"{answer.expected_final:.2f} against {best.expected_final:.2f})"]


def session_lines(session: Session) -> list[str]:
    """The end of a practice session: mean loss per decision, by kind of decision."""
    ev = session.objective.unit == POINTS
    unit, digits = ("points", 2) if ev else ("probability", 4)
    n = len(session.graded)
    stopped = "" if session.complete else f" (stopped after {n} of {session.planned})"
    lines = ["", f"== session{stopped}: {counted(n, 'decision')}, "
                 f"{counted(session.errors, 'error')}; mean loss "
                 f"{session.mean_loss:.{digits + 1}f} {unit} per decision"
                 + (" (aim below 0.2)" if ev else "")]
    for kind, figures in session.by_kind().items():
        decisions = counted(int(figures["decisions"]), "decision")
        errors = counted(int(figures["errors"]), "error")
        lines.append(f"  {KIND_LABELS[kind]:<18} {decisions:>13}, {errors:>9}, mean loss "
                     f"{figures['mean_loss']:.{digits + 1}f}")
    return lines


def history_lines(sessions: list[dict], path: str, shown_last: int = 8) -> list[str]:
    """The trend of the mean loss over the last sessions of a history (same rules and
    objective as the last one)."""
    if not sessions:
        return []
    last = sessions[-1]
    alike = [s for s in sessions if s.get("rules") == last.get("rules")
             and s.get("objective") == last.get("objective")]
    digits = 3 if last.get("objective", {}).get("kind", "ev") == "ev" else 5
    trend = ", ".join(f"{s['mean_loss']:.{digits}f}" for s in alike[-shown_last:])
    older = f"the last {shown_last} of " if len(alike) > shown_last else ""
    return [f"  history {path}: {counted(len(alike), 'session')} of these rules; mean loss "
            f"per decision, {older}oldest first: {trend} (this one last)"]
