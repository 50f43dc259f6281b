"""A rule set in plain words, generated from the rule set's own data.

Every number printed (box points, examples, bonuses, Joker groups) is read from the
``RuleSet`` or computed by its scoring tables, so the text cannot drift from the code.
"""

from __future__ import annotations

from .boxes import Box
from .dice import DICE, ROLL_INDEX, counts_of
from .rules import RULE_SUMMARIES, UPPER_TARGET, RuleSet

# Rolls tried, in order, for each box's example: the first that scores points is shown.
_EXAMPLE_ROLLS = (
    (2, 2, 2, 5, 6), (4, 4, 4, 1, 6), (2, 3, 3, 4, 5), (6, 6, 5, 5, 1), (3, 3, 3, 5, 5),
    (4, 4, 4, 4, 2), (1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (1, 3, 4, 5, 6), (3, 3, 3, 3, 3),
)


def _dice_text(dice: tuple[int, ...]) -> str:
    return ",".join(str(d) for d in dice)


def _example(rules: RuleSet, box: int) -> str:
    for dice in _EXAMPLE_ROLLS:
        points = int(rules.scores[ROLL_INDEX[counts_of(dice)], box])
        if points:
            return f"{_dice_text(dice)} scores {points}"
    return ""


def _joker_lines(rules: RuleSet) -> list[str]:
    face = 4  # five Fives, as in the rule book's worked examples
    five = _dice_text((face + 1,) * 5)
    names = [b.name for b in rules.boxes]
    if rules.joker == "none":
        return [f"No Joker: five alike score as an ordinary roll in any open box "
                f"(for {five}: " + ", ".join(
                    f"{n} {rules.joker_points[0, face, b]}" for b, n in enumerate(names)
                    if rules.joker_points[0, face, b]) + ", every other box 0)."]
    lines = [f"Joker: final dice of five alike when the {names[rules.yahtzee_box]} box is "
             "already filled (with 50 or 0)."]
    tiers = sorted(set(int(t) for t in rules.joker_tier[face]))
    if len(tiers) > 1:
        lines.append(f"  The box must come from the first of these groups that has an open box "
                     f"(shown for {five}):")
        for i, tier in enumerate(tiers, start=1):
            boxes = [b for b in range(rules.n_boxes)
                     if rules.joker_tier[face, b] == tier and b != rules.yahtzee_box]
            lines.append(f"    {i}. " + ", ".join(
                f"{names[b]} {rules.joker_points[1, face, b]}" for b in boxes))
    else:
        open_pts = rules.joker_points[0, face]
        filled_pts = rules.joker_points[1, face]
        lines.append(f"  Any open box may take it (shown for {five}). With the {names[face]} "
                     "box filled: " + ", ".join(
                         f"{names[b]} {filled_pts[b]}" for b in range(rules.n_boxes)
                         if filled_pts[b] != open_pts[b]) +
                     f"; with {names[face]} open these score as an ordinary roll ("
                     + ", ".join(f"{names[b]} {open_pts[b]}" for b in range(rules.n_boxes)
                                 if filled_pts[b] != open_pts[b]) + ").")
    return lines


def _short(box: Box) -> str:
    """The shortest alias of a box (``3k``), or ``-``."""
    return min(box.aliases, key=len) if box.aliases else "-"


def describe(rules: RuleSet) -> str:
    """Several paragraphs: the rule set in plain words."""
    upper = [b for b in rules.boxes if b.is_upper]
    lower = [b for b in rules.boxes if not b.is_upper]
    rerolls = rules.rolls_per_turn - 1
    out = [f"{rules.name}: {rules.summary}", ""]
    out.append(f"Turn: roll all {DICE} dice, then reroll any of them up to {rerolls} "
               f"more time{'s' if rerolls != 1 else ''} ({rules.rolls_per_turn} rolls at most); "
               "then fill exactly one open box, with its points or 0. "
               f"A game is {rules.n_boxes} turns.")
    out.append("")
    out.append("Boxes are named as below or by their short names (any case, - or _).")
    out.append("")
    out.append("Upper section:")
    for b in upper:
        out.append(f"  {b.name:<16} {_short(b):<6} {b.description}")
    out.append(f"  Upper bonus: {rules.upper_bonus} when the upper entries add up to "
               f"{UPPER_TARGET} or more.")
    out.append("")
    out.append("Lower section:")
    for b in lower:
        index = rules.boxes.index(b)
        example = _example(rules, index)
        out.append(f"  {b.name:<16} {_short(b):<6} {b.description}"
                   + (f" (e.g. {example})" if example else ""))
    out.append("")
    if rules.yahtzee_bonus:
        out.append(f"Yahtzee bonus: {rules.yahtzee_bonus} for each five alike scored while the "
                   f"{rules.boxes[rules.yahtzee_box].name} box holds 50; none after a 0 there.")
    else:
        out.append("No Yahtzee bonus.")
    out.extend(_joker_lines(rules))
    return "\n".join(out)


def listing() -> str:
    """One line per named rule set."""
    width = max(len(n) for n in RULE_SUMMARIES)
    return "\n".join(f"{name:<{width}}  {summary}" for name, summary in RULE_SUMMARIES.items())
