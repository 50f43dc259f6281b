"""What the page needs to draw a scorecard of a rule set (``GET /api/rules``, and the
static site's ``site.json``), in one place for the server and the site."""

from __future__ import annotations

from typing import Any

from solver.game.rules import RULE_NAMES, RULE_SUMMARIES, UPPER_TARGET, get_rules

from .model import box_label
from .objective import KINDS
from .win_from import DEFAULT_WIN_FROM


def rules_json(rules_name: str) -> dict[str, Any]:
    """``GET /api/rules``: what the page needs to draw a scorecard of a rule set, and
    every rule set's name."""
    ruleset = get_rules(rules_name)
    return {"name": ruleset.name, "summary": ruleset.summary,
            "rolls_per_turn": ruleset.rolls_per_turn, "upper_bonus": ruleset.upper_bonus,
            "upper_target": UPPER_TARGET,
            "yahtzee_bonus": ruleset.yahtzee_bonus if ruleset.n_flags == 2 else 0,
            "boxes": [{"name": b.name, "label": box_label(b.name), "upper": b.is_upper,
                       "aliases": list(b.aliases)} for b in ruleset.boxes],
            "rule_sets": [{"name": n, "summary": RULE_SUMMARIES[n]} for n in RULE_NAMES],
            "objectives": list(KINDS), "win_from": DEFAULT_WIN_FROM}
