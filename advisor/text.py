"""Readable text for advice and scorecards (shared by ``advise``, ``play`` and ``strategy``)."""

from __future__ import annotations

from .model import Advice, Scorecard, box_label


def rolls_left_phrase(rolls_left: int, rolls_per_turn: int) -> str:
    """``ROLLS LEFT: 2 (after roll 1 of 3)``."""
    roll = rolls_per_turn - rolls_left
    return f"ROLLS LEFT: {rolls_left} (after roll {roll} of {rolls_per_turn})"


def probability_text(p: float) -> str:
    """A probability as a percentage with enough digits: ``17.6019 %``."""
    return f"{100 * p:.4f} %"


def advice_table(advice: Advice, top: int | None = None) -> list[str]:
    """The ranked options as aligned lines, best first (with the objective's
    probabilities when it has some)."""
    options = advice.top(top)
    kind = advice.objective.kind
    width = max(24, *(len(o.describe()) for o in options))
    extra = {"ev": "", "target": f"  {'P(target)':>11}",
             "win": f"  {'P(win)':>11}  {'P(tie)':>11}"}[kind]
    lines = [f"  #  {'choice':<{width}}{extra}  {'expected final':>14}  {'loss':>8}"]
    for rank, option in enumerate(options, start=1):
        cells = ""
        if option.p_target is not None:
            cells = f"  {probability_text(option.p_target):>11}"
        elif option.p_win is not None:
            cells = (f"  {probability_text(option.p_win):>11}"
                     f"  {probability_text(option.p_tie or 0.0):>11}")
        lines.append(f"{rank:>3}  {option.describe():<{width}}{cells}"
                     f"  {option.expected_final:>14.2f}  {option.loss:>8.2f}")
    hidden = len(advice.options) - len(options)
    if hidden:
        lines.append(f"     ... {hidden} more (--top 0 shows all)")
    return lines


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
    lines += ["", *advice_table(advice, top), "", f"best: {advice.best.describe()}"]
    if not objective.is_ev:
        ev_best = advice.ev_best
        if ev_best is not advice.best and ev_best.describe() != advice.best.describe():
            lines.append(f"for the most points on average: {ev_best.describe()} "
                         f"(expected final {ev_best.expected_final:.2f})")
        else:
            lines.append("(also the best choice for the most points on average)")
    return lines


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
