"""The state change after a box is filled is one idea: the Python level (``RuleSet.after_box``,
``Scorecard.with_entry``) must equal the ``next_state`` kernel the solver, the policy, the
stats and the simulator use, for every rule set, box, entry, upper subtotal and flag."""

from __future__ import annotations

from functools import cache

import pytest

from advisor.model import Scorecard
from solver.game.rules import N_UPPER, RULE_NAMES, UPPER_TARGET, get_rules
from solver.kernels.basics import next_state


def _kernel(rules, m, u, y, b, e):  # noqa: ANN001, ANN202
    a = rules.arrays
    nm, nu, ny, bonus = next_state(m, u, y, b, e, a.upper_bonus, a.yahtzee_box, a.n_flags)
    return int(nm), int(nu), int(ny), float(bonus)


@pytest.mark.parametrize("name", RULE_NAMES)
def test_after_box_equals_the_kernel_everywhere(name: str) -> None:
    rules = get_rules(name)
    checked = 0
    for b in range(rules.n_boxes):
        m = rules.full_mask & ~(1 << b)
        for u in range(UPPER_TARGET + 1):
            for y in range(rules.n_flags):
                for e in sorted(rules.possible_points(b)):
                    got = rules.after_box(m, u, y, b, e)
                    assert got == _kernel(rules, m, u, y, b, e), (name, b, u, y, e)
                    checked += 1
    assert checked > rules.n_boxes * (UPPER_TARGET + 1)


@cache
def _upper_entries(rules_name: str, skip: int, total: int) -> tuple[int, ...] | None:
    """Entries (index = upper box) of upper boxes other than ``skip`` adding up to
    ``total``, or None when they cannot."""
    reach: dict[int, tuple[int, ...]] = {0: ()}
    for face in range(N_UPPER):
        step: dict[int, tuple[int, ...]] = {}
        for s, entries in reach.items():
            for k in range(6) if face != skip else (0,):
                step.setdefault(s + k * (face + 1), entries + (k * (face + 1),))
        reach = step
    return reach.get(total)


@pytest.mark.parametrize("name", RULE_NAMES)
def test_scorecard_with_entry_equals_the_kernel(name: str) -> None:
    """Every box, every upper subtotal a card can have with that box open, both flags:
    the card after ``with_entry`` is the kernel's next state, and its total grows by the
    entry plus the upper bonus the kernel pays."""
    rules = get_rules(name)
    yz = rules.yahtzee_box
    checked = 0
    for b in range(rules.n_boxes):
        for u in range(UPPER_TARGET + 12):
            upper = _upper_entries(name, b, u)
            if upper is None:
                continue
            for holds_50 in (False, True) if b != yz else (False,):
                entries: list[int | None] = [e if i != b else None for i, e in enumerate(upper)]
                entries += [None] * (rules.n_boxes - N_UPPER)
                if holds_50:
                    entries[yz] = 50
                card = Scorecard(tuple(entries), 0, name)
                for e in sorted(rules.possible_points(b)):
                    after = card.with_entry(b, e)
                    nm, nu, ny, bonus = _kernel(rules, card.mask, card.upper, card.flag, b, e)
                    assert (after.mask, after.upper, after.flag) == (nm, nu, ny), (name, b, u, e)
                    assert after.total - card.total == e + bonus
                    checked += 1
    assert checked > 0
