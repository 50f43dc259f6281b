"""The text of an analysis (:mod:`advisor.analysis`): every decision, and each player's
review."""

from __future__ import annotations

from collections.abc import Iterable

from .analysis import Analysis, Part
from .objective import POINTS
from .text import counted, points_of_chance


def loss_text(loss: float, unit: str, decimals: int = 2) -> str:
    """A loss (or luck) in its unit: ``2.49`` points, ``0.42 pp`` of a probability (with
    ``decimals``: the objective's, :attr:`Analysis.loss_decimals`)."""
    return f"{loss:.2f}" if unit == "points" else f"{points_of_chance(loss, decimals)} pp"


def decision_lines(analysis: Analysis) -> list[str]:
    """Every decision of an analysis, one line each; ``*`` marks an error. Losses in
    points, or in percentage points (``pp``) of the probability a decision was judged by."""
    width = max([22, *(len(d.chosen.describe()) for d in analysis.decisions)])
    names = max([6, *(len(p.name) for p in analysis.players)])
    digits = analysis.loss_decimals
    cell = 9 + digits - 2
    lines = [f"turn  {'player':<{names}}  dice       left  {'choice':<{width}}  "
             f"{'best':<{width}}  {'loss':>{cell}}"]
    for d in analysis.decisions:
        best = "" if d.best.move == d.chosen.move else d.best.describe()
        lines.append(f"{d.turn:>4}  {d.player:<{names}}  {d.dice.spaced()}  {d.rolls_left:>4}  "
                     f"{d.chosen.describe():<{width}}  {best:<{width}}  "
                     f"{loss_text(d.loss, d.unit, digits):>{cell}}"
                     f"{' *' if d.is_error else ''}")
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
            lines.append(f"  {counted(len(p.decisions), 'decision')}, "
                         f"{counted(p.errors, 'error')}{marked}")
            if p.main.decisions:
                lines += _part_lines(p.main, "by the chance to win",
                                     decimals=analysis.loss_decimals)
            if p.by_expected_score is not None:
                lines += _part_lines(p.by_expected_score, "by the expected final score "
                                     "(before --win-from)")
        else:
            lines += _part_lines(p.main, None, marked, decimals=analysis.loss_decimals)
            if p.finished and analysis.unit == POINTS:  # (the identity of points)
                lines.append(f"  check: total {p.total} - new game {analysis.new_game:.2f} = "
                             f"luck {p.luck:+.2f} - loss {p.total_loss:.2f}")
        for part in (p.main, p.by_expected_score):
            for d in part.worst if part is not None else ():
                lines.append(f"  worst: turn {d.turn}, dice {d.dice.spaced()}, "
                             f"{counted(d.rolls_left, 'roll')} left: {d.chosen.describe()} costs "
                             f"{loss_text(d.loss, d.unit, analysis.loss_decimals)}; best "
                             f"{d.best.describe()}")
    return lines


def _part_lines(part: Part, heading: str | None, marked: str = "", *,
                decimals: int = 2) -> list[str]:
    """The figures of one unit's decisions (``decimals`` of its percentage points)."""
    ev = part.unit == "points"
    d = 2 if ev else decimals
    unit = "points" if ev else "percentage points"
    what = "the expected final score" if ev else "the probability"
    keeps, keep_loss = part.split("keep")
    boxes, box_loss = part.split("box")
    scale = 1 if ev else 100
    count = f"{counted(len(part.decisions), 'decision')}, {counted(part.errors, 'error')}"
    first = (f"  {count}{marked}; " if heading is None else f"  {heading}: {count}; ")
    return [
        first + f"loss {scale * part.total_loss:.{d}f} {unit} in all, "
        f"{scale * part.mean_loss:.{d + 1}f} per decision" + (" (aim below 0.2)" if ev else ""),
        f"  keeps: {counted(keeps, 'decision')}, loss {scale * keep_loss:.{d}f} | boxes: "
        f"{counted(boxes, 'decision')}, loss {scale * box_loss:.{d}f}",
        f"  luck: {scale * part.luck:+.{d}f}{'' if ev else ' pp'} (what the dice alone changed "
        f"in {what})",
    ]
