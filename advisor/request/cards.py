"""A scorecard as every question reads it (kept: the page asks of the same cards again)."""

from __future__ import annotations

from functools import lru_cache

from ..model import Scorecard


@lru_cache(maxsize=1024)
def parsed_card(card: str, rules: str) -> Scorecard:
    """``Scorecard.parse`` (cards are immutable; a bad card raises and is not kept)."""
    return Scorecard.parse(card, rules)
