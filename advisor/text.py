"""Readable text for advice and scorecards (shared by ``advise``, ``play`` and ``strategy``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from solver.game.rules import UPPER_TARGET

from .model import Scorecard, box_label

if TYPE_CHECKING:
    from .advise import Advice
    from .analyze import Analysis
    from .train import Graded, Position, Session


def rolls_left_phrase(rolls_left: int, rolls_per_turn: int) -> str:
    """``ROLLS LEFT: 2 (after roll 1 of 3)``."""
    roll = rolls_per_turn - rolls_left
    return f"ROLLS LEFT: {rolls_left} (after roll {roll} of {rolls_per_turn})"


def probability_text(p: float) -> str:
    """A probability as a percentage with enough digits: ``17.6019 %``."""
    return f"{100 * p:.4f} %"


def advice_table(advice: Advice, top: int | None = None, *,
                 more_hint: str = "--top 0 shows all") -> list[str]:
    """The ranked options as aligned lines, best first. Ranked by expected score: the
    expected final score and the loss in points. Ranked by a probability (the chance of
    the target, or the chance to win with a tie counted as a share): that probability,
    the loss in percentage points of it (0.40: 0.4 % less chance), then the expected
    final score. ``more_hint`` says how to see the hidden ones."""
    options = advice.top(top)
    kind = advice.objective.kind
    width = max(24, *(len(o.describe()) for o in options))
    if kind == "ev":
        lines = [f"  #  {'choice':<{width}}  {'expected final':>14}  {'loss':>8}"]
    else:
        header = {"target": "P(target)", "win": "chance to win"}[kind]
        cell = max(len(header), 11) + 2
        lines = [f"  #  {'choice':<{width}}{header:>{cell}}  {'loss (pp)':>9}"
                 f"  {'expected final':>14}"]
    for rank, option in enumerate(options, start=1):
        if kind == "ev":
            lines.append(f"{rank:>3}  {option.describe():<{width}}"
                         f"  {option.expected_final:>14.2f}  {option.loss:>8.2f}")
        else:
            chance = probability_text(option.probability or 0.0)
            lines.append(f"{rank:>3}  {option.describe():<{width}}{chance:>{cell}}"
                         f"  {points_of_chance(option.p_loss or 0.0):>9}"
                         f"  {option.expected_final:>14.2f}")
        if option.outcome is not None:
            lines.append(f"     {option.outcome.line()}")
    hidden = len(advice.options) - len(options)
    if hidden:
        lines.append(f"     ... {hidden} more ({more_hint})")
    return lines


def points_of_chance(p: float) -> str:
    """A difference of probabilities in percentage points, two decimals: ``0.42``."""
    return f"{100 * p:.2f}"


def duration_text(seconds: float) -> str:
    """``40 s`` under a minute and a half, else ``3 min`` (whole minutes)."""
    if seconds < 90:
        return f"{max(round(seconds), 1)} s"
    return f"{round(seconds / 60)} min"


def advice_report(advice: Advice, top: int | None = None) -> list[str]:
    """Header (rules, card, dice, rolls left) and the ranked options."""
    card = advice.card
    per_turn = card.rules.rolls_per_turn
    objective = advice.objective
    lines = [
        f"rules {card.rules_name} | turn {card.turn} of {card.rules.n_boxes} | "
        f"card total {card.total}",
        f"dice {advice.dice.spaced()} | "
        f"{rolls_left_phrase(advice.rolls_left, per_turn)}",
    ]
    if not objective.is_ev:
        lines.append(f"ranked by {objective.describe()}")
    if advice.outcome_strategy is not None:
        lines.append(why_heading(advice))
    lines += ["", *advice_table(advice, top), "", f"best: {advice.best.describe()}"]
    if not objective.is_ev:
        ev_best = advice.ev_best
        if ev_best is not advice.best and ev_best.describe() != advice.best.describe():
            lines.append(f"for the most points on average: {ev_best.describe()} "
                         f"(expected final {ev_best.expected_final:.2f})")
        else:
            lines.append("(also the best choice for the most points on average)")
    return lines


def why_heading(advice: Advice) -> str:
    """What the line under each option says, and whose play it follows."""
    whose = "optimal play from then on"
    strategy = advice.outcome_strategy or {}
    if strategy.get("kind") == "target":
        whose = f"play for {advice.objective.describe()} (the last turn)"
    elif not advice.objective.is_ev:
        whose = "play for the expected score from then on (not for the target)"
    return (f"under each choice, with {whose}: the box it fills this turn (\"0 in\" a box: "
            f"filled with 0 points); by the end, the "
            f"upper bonus, 50 in the Yahtzee box, the Yahtzee bonuses; the SD of the final "
            f"score")


def card_lines(card: Scorecard) -> list[str]:
    """The scorecard box by box, with the upper bonus, Yahtzee bonuses and total."""
    rules = card.rules
    lines = []
    for b, box in enumerate(rules.boxes):
        entry = card.entries[b]
        lines.append(f"  {box_label(box.name):<16} {'-' if entry is None else entry:>4}")
        if box.face == 6:
            lines.append(f"  {'upper bonus':<16} {card.upper_bonus:>4}"
                         f"   (upper {card.upper_subtotal} of 63)")
    if rules.n_flags == 2:
        lines.append(f"  {'Yahtzee bonus':<16} {card.yahtzee_bonuses * rules.yahtzee_bonus:>4}")
    lines.append(f"  {'total':<16} {card.total:>4}")
    return lines


NAME_WIDTH = 12
"""Widest player name in the heading of cards side by side (longer names are cut)."""


def cards_side_by_side(cards: dict[str, Scorecard]) -> list[str]:
    """Several cards of one rule set as columns: a row per box (``-`` while open), the
    upper subtotal and bonus, Yahtzee bonuses, the total and the open boxes."""
    first = next(iter(cards.values()))
    rules = first.rules
    names = [name if len(name) <= NAME_WIDTH else name[:NAME_WIDTH - 1] + "~"
             for name in cards]
    width = max(5, *(len(n) for n in names))

    def row(label: str, cells: Iterable[object]) -> str:
        return f"  {label:<16}" + "".join(f" {str(c):>{width}}" for c in cells).rstrip()

    lines = [row("", names)]
    for b, box in enumerate(rules.boxes):
        lines.append(row(box_label(box.name), ("-" if c.entries[b] is None else c.entries[b]
                                               for c in cards.values())))
        if box.face == 6:
            lines.append(row("upper (of 63)", (c.upper_subtotal for c in cards.values())))
            lines.append(row("upper bonus", (c.upper_bonus for c in cards.values())))
    if rules.n_flags == 2:
        lines.append(row("Yahtzee bonus", (c.yahtzee_bonuses * rules.yahtzee_bonus
                                           for c in cards.values())))
    lines.append(row("total", (c.total for c in cards.values())))
    lines.append(row("boxes open", (len(c.open_boxes()) for c in cards.values())))
    return lines


def loss_text(loss: float, unit: str) -> str:
    """A loss (or luck) in its unit: ``2.49`` points, ``0.42 pp`` of a probability."""
    return f"{loss:.2f}" if unit == "points" else f"{100 * loss:.2f} pp"


def decision_lines(analysis: Analysis) -> list[str]:
    """Every decision of an analysis, one line each; ``*`` marks an error. Losses in
    points, or in percentage points (``pp``) of the probability a decision was judged by."""
    width = max([22, *(len(d.chosen.describe()) for d in analysis.decisions)])
    names = max([6, *(len(p.name) for p in analysis.players)])
    lines = [f"turn  {'player':<{names}}  dice       left  {'choice':<{width}}  "
             f"{'best':<{width}}  {'loss':>9}"]
    for d in analysis.decisions:
        best = "" if d.best.move == d.chosen.move else d.best.describe()
        lines.append(f"{d.turn:>4}  {d.player:<{names}}  {d.dice.spaced()}  {d.rolls_left:>4}  "
                     f"{d.chosen.describe():<{width}}  {best:<{width}}  "
                     f"{loss_text(d.loss, d.unit):>9}{' *' if d.is_error else ''}")
    return lines


def review_lines(analysis: Analysis, names: Iterable[str] | None = None, *,
                 listed: bool = True) -> list[str]:
    """Per player: decisions, errors, losses (mean per decision), luck, the worst three.
    Points under the expected score; percentage points of the probability under another
    objective (under ``play --objective win`` both: the turns before ``--win-from`` are
    judged by expected score). ``listed``: the decisions are listed above (errors marked
    ``*``)."""
    wanted = set(names) if names is not None else None
    each_turn = analysis.each_turn
    lines = []
    for p in analysis.players:
        if wanted is not None and p.name not in wanted:
            continue
        lines.append(f"{p.name}: total {p.total}{'' if p.finished else ' (game unfinished)'}")
        marked = " (* in the list)" if listed and p.errors else ""
        if each_turn:
            lines.append(f"  {_count(len(p.decisions), 'decision')}, "
                         f"{_count(p.errors, 'error')}{marked}")
            if p.main.decisions:
                lines += _part_lines(p.main, "by the chance to win")
            if p.by_expected_score is not None:
                lines += _part_lines(p.by_expected_score, "by the expected final score "
                                     "(before --win-from)")
        else:
            lines += _part_lines(p.main, None, marked)
            if p.finished and analysis.is_ev:
                lines.append(f"  check: total {p.total} - new game {analysis.new_game:.2f} = "
                             f"luck {p.luck:+.2f} - loss {p.total_loss:.2f}")
        for part in (p.main, p.by_expected_score):
            for d in part.worst if part is not None else ():
                lines.append(f"  worst: turn {d.turn}, dice {d.dice.spaced()}, "
                             f"{_count(d.rolls_left, 'roll')} left: {d.chosen.describe()} costs "
                             f"{loss_text(d.loss, d.unit)}; best {d.best.describe()}")
    return lines


def _part_lines(part: Any, heading: str | None, marked: str = "") -> list[str]:
    """The figures of one unit's decisions (:class:`advisor.analyze.Part`)."""
    ev = part.unit == "points"
    unit = "points" if ev else "percentage points"
    what = "the expected final score" if ev else "the probability"
    keeps, keep_loss = part.split("keep")
    boxes, box_loss = part.split("box")
    scale = 1 if ev else 100
    count = f"{_count(len(part.decisions), 'decision')}, {_count(part.errors, 'error')}"
    first = (f"  {count}{marked}; " if heading is None else f"  {heading}: {count}; ")
    return [
        first + f"loss {scale * part.total_loss:.2f} {unit} in all, "
        f"{scale * part.mean_loss:.3f} per decision" + (" (aim below 0.2)" if ev else ""),
        f"  keeps: {_count(keeps, 'decision')}, loss {scale * keep_loss:.2f} | boxes: "
        f"{_count(boxes, 'decision')}, loss {scale * box_loss:.2f}",
        f"  luck: {scale * part.luck:+.2f}{'' if ev else ' pp'} (what the dice alone changed "
        f"in {what})",
    ]


def card_summary(card: Scorecard) -> str:
    """``total 46 | upper 18 (bonus needs 45 more) | 11 boxes open`` (``1 box open``)."""
    n_open = len(card.open_boxes())
    return (f"total {card.total} | {upper_text(card)} | "
            f"{n_open} box{'' if n_open == 1 else 'es'} open")


def upper_text(card: Scorecard) -> str:
    """What the upper bonus still needs."""
    rules = card.rules
    have = card.upper_subtotal
    if have >= UPPER_TARGET:
        return f"upper {have}: bonus earned"
    reachable = have + sum(5 * rules.boxes[b].face for b in card.open_boxes()
                           if rules.boxes[b].is_upper)
    if reachable < UPPER_TARGET:
        return f"upper {have}: bonus out of reach"
    return f"upper {have}: bonus needs {UPPER_TARGET - have} more"


def open_boxes_text(card: Scorecard) -> str:
    """``aces (1s), threes (3s), ...``: the open boxes with their shortest alias."""
    names = []
    for b in card.open_boxes():
        box = card.rules.boxes[b]
        short = min(box.aliases, key=len) if box.aliases else ""
        names.append(f"{box.name} ({short})" if short else box.name)
    return ", ".join(names) or "none"


def _count(n: int, word: str) -> str:
    """``1 decision``, ``3 decisions``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------- practice
KIND_LABELS = {"keep": "keeps", "box": "boxes", "upper": "upper section",
               "yahtzee": "chasing a Yahtzee", "straights": "straights",
               "end_of_game": "end of game"}
"""How a session's summary names each of :data:`advisor.train.KINDS`."""


def position_lines(number: int, count: int, position: Position) -> list[str]:
    """The header of a practice position: where the card stands and the dice."""
    card = position.card
    rules = card.rules
    filled = ", ".join(f"{box_label(name)} {points}" for name, points in card.filled().items())
    if card.yahtzee_bonuses:
        filled += f", Yahtzee bonus {card.yahtzee_bonuses * rules.yahtzee_bonus}"
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
    if objective.is_ev:
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
    ev = session.objective.is_ev
    unit, digits = ("points", 2) if ev else ("probability", 4)
    n = len(session.graded)
    stopped = "" if session.complete else f" (stopped after {n} of {session.planned})"
    lines = ["", f"== session{stopped}: {_count(n, 'decision')}, "
                 f"{_count(session.errors, 'error')}; mean loss {session.mean_loss:.{digits + 1}f} "
                 f"{unit} per decision" + (" (aim below 0.2)" if ev else "")]
    for kind, figures in session.by_kind().items():
        decisions = _count(int(figures["decisions"]), "decision")
        errors = _count(int(figures["errors"]), "error")
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
    return [f"  history {path}: {_count(len(alike), 'session')} of these rules; mean loss "
            f"per decision, {older}oldest first: {trend} (this one last)"]
