"""The deliberate bugs of ``make mutate`` (see ``tools/mutate.py``).

Each mutation replaces one exact piece of code text (its *anchor*, which must occur
exactly once in its file) by a wrong version, and names the tests that should catch it.
A missing or repeated anchor is an error, never a silent skip: when the code is
refactored, update the anchor (``tests/test_mutations.py`` checks them all).
"""

from __future__ import annotations

from typing import NamedTuple


class Mutation(NamedTuple):
    name: str
    layer: str
    """``python`` (plain Python) or ``kernel`` (numba code, or Python compiled into it)."""
    path: str
    anchor: str
    replacement: str
    what: str
    tests: tuple[str, ...]
    """pytest arguments: the tests run against the mutated copy (slow ones included)."""


SCORER = ("tests/test_independent_scorer.py",)
REFERENCE = ("tests/test_kernel_reference.py",)
README = ("tests/test_readme_figures.py",)
PATHS = "tests/test_variant_paths.py"

MUTATIONS: tuple[Mutation, ...] = (
    # ------------------------------------------------------------ scoring (boxes.py)
    Mutation("small-straight-1235", "python", "solver/game/boxes.py",
             "lambda c: 30 if _has_run(c, 4) else 0)",
             "lambda c: 30 if _has_run(c, 4) or all(c[i] for i in (0, 1, 2, 4)) else 0)",
             "Small Straight also accepts 1-2-3-5", SCORER),
    Mutation("full-house-five-alike", "python", "solver/game/boxes.py",
             "lambda c: 25 if sorted(n for n in c if n) == [2, 3] else 0)",
             "lambda c: 25 if sorted(n for n in c if n) in ([2, 3], [5]) else 0)",
             "five alike count as a Full House without the Joker", SCORER),
    Mutation("four-kind-needs-three", "python", "solver/game/boxes.py",
             "lambda c: _total(c) if max(c) >= 4 else 0)",
             "lambda c: _total(c) if max(c) >= 3 else 0)",
             "Four of a Kind accepts three alike", SCORER),
    Mutation("yatzy-pair-lowest", "python", "solver/game/boxes.py",
             "lambda c: 2 * max(_pairs(c)) if _pairs(c) else 0)",
             "lambda c: 2 * min(_pairs(c)) if _pairs(c) else 0)",
             "Yatzy One Pair scores the lowest pair", SCORER),
    Mutation("yatzy-two-pairs-four-alike", "python", "solver/game/boxes.py",
             "lambda c: 2 * sum(_pairs(c)) if len(_pairs(c)) == 2 else 0)",
             "lambda c: 2 * sum(_pairs(c)) if len(_pairs(c)) == 2 else "
             "(4 * _pairs(c)[0] if max(c) >= 4 else 0))",
             "Yatzy Two Pairs accepts four alike", SCORER),
    # ------------------------------------------------------------ Joker and bonus data
    Mutation("joker-large-straight-35", "python", "solver/game/rules.py",
             '"large_straight": 40}', '"large_straight": 35}',
             "a Joker Large Straight scores 35", SCORER),
    Mutation("forced-joker-upper-tier", "python", "solver/game/rules.py",
             "(2 if box.is_upper else 1)", "(1 if box.is_upper else 1)",
             "forced Joker: other upper boxes (0) allowed beside the lower boxes", SCORER),
    Mutation("free-joker-ignores-upper", "python", "solver/game/rules.py",
             "points[0, f] = ordinary  # matching upper box open: an ordinary roll",
             "points[0, f] = joker",
             "free Joker: FH/SS/LS score 25/30/40 with the matching upper box open",
             SCORER),
    Mutation("bonus-after-zero", "python", "solver/game/rules.py",
             "bonus = self.yahtzee_bonus if f >= 0 and yahtzee_holds_50 and",
             "bonus = self.yahtzee_bonus if f >= 0 and",
             "placements pay the 100 bonus after a zero in the Yahtzee box", SCORER),
    Mutation("two-rolls-gets-three", "python", "solver/game/rules.py",
             "lambda n, s: RuleSet(n, s, _yahtzee_boxes(), rolls_per_turn=2)),",
             "lambda n, s: RuleSet(n, s, _yahtzee_boxes(), rolls_per_turn=3)),",
             "the two-rolls rule set has three rolls", SCORER),
    # ------------------------------------------------------------ state change (compiled)
    Mutation("upper-bonus-above-63", "kernel", "solver/game/rules.py",
             "if u < UPPER_TARGET <= u + e:", "if u < UPPER_TARGET < u + e:",
             "the upper bonus needs more than 63", REFERENCE),
    Mutation("flag-set-by-zero", "kernel", "solver/game/rules.py",
             "elif b == yahtzee_box and e > 0 and n_flags == 2:",
             "elif b == yahtzee_box and e >= 0 and n_flags == 2:",
             "a zero in the Yahtzee box sets the 'holds 50' flag", REFERENCE),
    # ------------------------------------------------------------ dice / keep probabilities
    Mutation("roll-probability-four-alike", "python", "solver/game/dice.py",
             "        ways //= factorial(int(c))",
             "        ways //= factorial(int(c)) if c < 4 else 1",
             "multinomial probabilities wrong for four or five alike",
             ("tests/test_kernel_reference.py",)),
    Mutation("keep-child-no-six", "python", "solver/game/dice.py",
             "                more[f] += 1",
             "                more[min(f, 4)] += 1",
             "a rerolled die never shows a six (keep children)", REFERENCE),
    Mutation("expect-keeps-no-six", "kernel", "solver/kernels/basics.py",
             "out[c] = (a0[c] + a1[c] + a2[c] + a3[c] + a4[c] + a5[c]) * SIXTH",
             "out[c] = (a0[c] + a1[c] + a2[c] + a3[c] + a4[c] + a4[c]) * SIXTH",
             "solver keep values: a six counts as a five", REFERENCE),
    Mutation("target-no-upper-bonus", "kernel", "solver/kernels/target.py",
             "            base = c0 + int(bonus)",
             "            base = c0",
             "target DP: the upper bonus earned by an entry is not added to the points so far",
             ("tests/test_target.py::test_vectors_match_the_twin",)),
    Mutation("target-first-box-only", "kernel", "solver/kernels/target.py",
             "        for k in range(k0 + 1, start[r + 1]):",
             "        for k in range(k0 + 1, min(k0 + 1, start[r + 1])):",
             "target DP: a final roll goes in the first allowed box, not the best one",
             ("tests/test_target.py::test_vectors_match_the_twin",)),
    Mutation("policy-keeps-no-six", "kernel", "solver/kernels/policy.py",
             "total += row[KEEP_CHILD[k, f]]", "total += row[KEEP_CHILD[k, min(f, 4)]]",
             "policy keep values (stats, simulator, advice): a six counts as a five",
             ("tests/test_kernel_reference.py::test_turn_snapshots_match_reference_turn",
              *README)),
    # ------------------------------------------------------------ solver kernel
    Mutation("solver-no-upper-bonus", "kernel", "solver/kernels/expected.py",
             "gathered[b, k, c] = p + bonus + values[nm, nu, ny]",
             "gathered[b, k, c] = p + values[nm, nu, ny]",
             "the solver forgets the upper bonus", REFERENCE),
    Mutation("solver-joker-tier-zero", "kernel", "solver/kernels/basics.py",
             "low = joker_lowest_tier(f, m, rules.joker_tier) if f >= 0 else 0",
             "low = 0",
             "the solver (and target DP) let a forced Joker go only in the matching upper box",
             REFERENCE),
    Mutation("solver-flag-never-set", "kernel", "solver/kernels/expected.py",
             "for hit in range(2 if (b == yahtzee_box and n_flags == 2) else 1):",
             "for hit in range(1):",
             "the solver never sets the Yahtzee flag", REFERENCE),
    # ------------------------------------------------------------ policy kernel
    Mutation("policy-bonus-without-50", "kernel", "solver/kernels/basics.py",
             "if ROLL_FIVE_FACE[r] >= 0 and rules.n_flags == 2 and y == 1:",
             "if ROLL_FIVE_FACE[r] >= 0 and rules.n_flags == 2:",
             "the policy counts a Yahtzee bonus without 50 in the box",
             (f"{PATHS}::test_five_fives_with_fives_open_are_forced_into_fives_in_every_column",
              *README)),
    Mutation("policy-box-within-a-point", "kernel", "solver/kernels/policy.py",
             "if e >= 0 and gain[b, e] >= best - TIE_TOLERANCE:",
             "if e >= 0 and gain[b, e] >= best - 1.0:",
             "the policy takes the first box within one point of the best", README),
    Mutation("joker-entry-upper-filled", "kernel", "solver/game/rules.py",
             "return rules.joker_points[(m >> f) & 1, f, b]",
             "return rules.joker_points[1, f, b]",
             "the Joker entry (placements and every kernel) ignores the matching upper box",
             (f"{PATHS}::test_a_python_strategy_gets_the_rule_sets_rolls_and_plays_like_greedy",)),
    # ------------------------------------------------------------ stats counters
    Mutation("stats-yahtzees-box-open", "kernel", "solver/kernels/stats.py",
             "        if five:\n            five_alike += t.mass[r]",
             "        if five and not (m >> rules.yahtzee_box) & 1:\n"
             "            five_alike += t.mass[r]",
             "stats count Yahtzees only while the Yahtzee box is open (issue 14 survivor)",
             README),
    Mutation("stats-upper-bonus-not-by-sixes", "kernel", "solver/kernels/stats.py",
             "                if upper_points > 0:\n",
             "                if upper_points > 0 and b != 5:\n",
             "stats miss the upper bonus reached in Sixes", README),
    Mutation("stats-percentile-plus-one", "python", "solver/stats.py",
             "return int(np.searchsorted(cumulative, q / 100.0 * cumulative[-1] - 1e-15))",
             "return int(np.searchsorted(cumulative, q / 100.0 * cumulative[-1] - 1e-15)) + 1",
             "percentiles one point high", README),
    Mutation("stats-p-at-least-strict", "python", "solver/stats.py",
             "return float(self.distribution[score:].sum())",
             "return float(self.distribution[score + 1:].sum())",
             "P(score >= T) computes P(score > T)", README),
    # ------------------------------------------------------------ simulator
    Mutation("python-strategy-three-rolls", "python", "solver/simulate.py",
             "        rolls_left = rules.rolls_per_turn - 1",
             "        rolls_left = 2",
             "Python strategies get three rolls under two-rolls (issue 14 survivor)",
             (f"{PATHS}::test_a_python_strategy_gets_the_rule_sets_rolls_and_plays_like_greedy",)),
    Mutation("python-yahtzee-count-four", "python", "solver/simulate.py",
             "fives += max(decision.dice.count(f) for f in range(1, 7)) == 5",
             "fives += max(decision.dice.count(f) for f in range(1, 7)) >= 4",
             "Python games count four alike as a Yahtzee",
             (f"{PATHS}::test_a_python_strategy_gets_the_rule_sets_rolls_and_plays_like_greedy",)),
    Mutation("greedy-turn-not-myopic", "python", "solver/simulate.py",
             "    if myopic:", "    if False:",
             "greedy-turn plays the optimal policy",
             ("tests/test_simulate.py::test_greedy_turn_matches_its_exact_mean_and_the_published_greedy",)),
    Mutation("heuristic-par-two-dice", "python", "solver/simulate.py",
             "            par[b] = 3 * (b + 1)", "            par[b] = 2 * (b + 1)",
             "the heuristic's upper par is two dice, not three",
             ("tests/test_simulate.py::test_the_readme_strategy_figures",)),
    Mutation("sim-bonus-after-zero", "kernel", "solver/kernels/simulate.py",
             "if n_flags == 2 and y == 1 and rules.yahtzee_bonus > 0:",
             "if n_flags == 2 and (m >> rules.yahtzee_box) & 1 and rules.yahtzee_bonus > 0:",
             "the simulator pays Yahtzee bonuses after a zero in the box",
             (f"{PATHS}::test_optimal_simulation_lands_on_the_exact_mean_and_follows_the_rules",)),
    Mutation("sim-upper-bonus-flag", "kernel", "solver/kernels/simulate.py",
             "return score, 1 if upper_sum >= UPPER_TARGET else 0, fives, bonuses",
             "return score, 1 if upper_sum > UPPER_TARGET else 0, fives, bonuses",
             "the simulator's upper-bonus flag needs more than 63",
             (f"{PATHS}::test_optimal_simulation_lands_on_the_exact_mean_and_follows_the_rules",)),
    # ------------------------------------------------------------ export layout
    Mutation("export-no-bonus-nan-flag", "python", "solver/formats/export.py",
             "    out[yahtzee_open, :, 1] = np.nan",
             "    out[~yahtzee_open, :, 1] = np.nan",
             "no-bonus npy: NaN on every reachable flag-1 state (issue 14 survivor)",
             (f"{PATHS}::test_npy_export_cell_by_cell",)),
    Mutation("export-yatzy-3d", "python", "solver/formats/export.py",
             "        return values[:, :, 0].copy()", "        return values.copy()",
             "Yatzy npy keeps a flag axis: shape (32768, 64, 1)",
             (f"{PATHS}::test_npy_export_cell_by_cell",)),
    Mutation("export-csv-filled-names", "python", "solver/formats/export.py",
             'open_names = " ".join(n for b, n in enumerate(names) if not mask >> b & 1)',
             'open_names = " ".join(n for b, n in enumerate(names) if mask >> b & 1)',
             "csv export lists the filled boxes as open",
             (f"{PATHS}::test_csv_export_cell_by_cell",)),
    # ------------------------------------------------------------ strategy sheets
    Mutation("strategy-bonus-column-zero", "python", "advisor/strategy.py",
             '"" if o.is_keep else o.bonus,', '"" if o.is_keep else 0,',
             "strategy csv: bonus column always 0 (issue 14 survivor)",
             (f"{PATHS}::test_five_fives_with_fives_open_are_forced_into_fives_in_every_column",
              "tests/test_cli_strategy.py")),
    Mutation("strategy-cells-reversed", "python", "advisor/strategy.py",
             "cells = \" | \".join(_cell(by_level[j]) for j in levels)",
             "cells = \" | \".join(_cell(by_level[j]) for j in reversed(levels))",
             "strategy markdown cells under the wrong rolls-left header",
             ("tests/test_cli_strategy.py",
              f"{PATHS}::test_markdown_sheet_agrees_with_the_csv_in_every_cell")),
    # ------------------------------------------------------------ advice and totals
    Mutation("advice-ignores-bonus", "python", "advisor/advise.py",
             "to_come = points + upper_bonus + bonus + float(values[m, u, y])",
             "to_come = points + upper_bonus + float(values[m, u, y])",
             "advice ranks boxes without the Yahtzee bonus",
             (f"{PATHS}::test_five_fives_with_fives_open_are_forced_into_fives_in_every_column",
              "tests/test_cli_strategy.py")),
    Mutation("total-bonus-above-63", "python", "solver/game/rules.py",
             "return self.upper_bonus if upper_subtotal >= UPPER_TARGET else 0",
             "return self.upper_bonus if upper_subtotal > UPPER_TARGET else 0",
             "card totals pay the upper bonus only above 63",
             (f"{PATHS}::test_scripted_play",)),
)
