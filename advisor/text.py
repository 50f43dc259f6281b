"""Text that every domain's rendering shares: numbers, phrases and scorecards.

It imports no domain module: the advice's text is in :mod:`advisor.advice`, an analysis's
in :mod:`advisor.analyze_text`, a practice session's in :mod:`advisor.train_text`."""

from __future__ import annotations

from collections.abc import Iterable

from solver.game.rules import UPPER_TARGET

from .model import Scorecard, box_label


def rolls_left_phrase(rolls_left: int, rolls_per_turn: int) -> str:
    """``ROLLS LEFT: 2 (after roll 1 of 3)``."""
    roll = rolls_per_turn - rolls_left
    return f"ROLLS LEFT: {rolls_left} (after roll {roll} of {rolls_per_turn})"


def probability_text(p: float, decimals: int = 4) -> str:
    """A probability as a percentage with enough digits: ``17.6019 %``."""
    return f"{100 * p:.{decimals}f} %"


def points_of_chance(p: float, decimals: int = 2) -> str:
    """A difference of probabilities in percentage points, two decimals by default:
    ``0.42``."""
    return f"{100 * p:.{decimals}f}"


def duration_text(seconds: float) -> str:
    """``40 s`` under a minute and a half, else ``3 min`` (whole minutes)."""
    if seconds < 90:
        return f"{max(round(seconds), 1)} s"
    return f"{round(seconds / 60)} min"


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


def counted(n: int, word: str) -> str:
    """``1 decision``, ``3 decisions``."""
    return f"{n} {word}{'' if n == 1 else 's'}"
