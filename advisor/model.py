"""Value objects of the game: dice, keeps and scorecards (defined in the game model,
:mod:`solver.game.faces` and :mod:`solver.game.card`, so that the simulator's decisions
are built on the same scorecard; the advisor's names for them)."""

from solver.game.card import BONUS_KEY, Scorecard, box_label
from solver.game.faces import Dice, Keep, parse_faces

__all__ = ["BONUS_KEY", "Dice", "Keep", "Scorecard", "box_label", "parse_faces"]
