"""Practice and `advise --why` agree on ties: an answer as good as the choice ranked
first is "a best choice, tied with" it (never "the best choice" beside a why led by
another choice), its own figures come first, and the why's box figures say what they
mean (filled with points, or with 0) and add up to 100 %. Tied answers are found in
practice positions by their expected final scores (values within 1e-9 of the best), not
by the grading under test."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.model import box_label
from advisor.train import advice_of, grade, positions_of_play
from advisor.train_text import graded_lines

TIE = 1e-9


@pytest.fixture(autouse=True)
def _tables(official_table, official_moments):
    """The cached official table and figures exist, so no command builds them."""


def test_the_large_straight_tie_of_seed_7():
    """`train --positions 4 --seed 7`, position 1: dice 1 3 4 5 6, only Large Straight
    open; keep 3 4 5 6 is as good as keep 1 3 4 5 (each is four of a run that only a 2
    completes)."""
    result = CliRunner().invoke(cli, ["train", "--positions", "4", "--seed", "7",
                                      "--no-history"], input="keep 3456\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "dice 1 3 4 5 6 | ROLLS LEFT: 2" in out and "open: Large Straight" in out
    prompt = "your choice (a move, or a number from 'list')> "
    lines = out.split(prompt, 1)[1].splitlines()[1:]  # after the echoed answer
    assert lines[0] == "  keep 3 4 5 6: a best choice, tied with keep 1 3 4 5 (expected " \
                       "final 212.22)"
    assert lines[1].startswith("  why: keep 3 4 5 6: this turn: ")
    assert lines[2].startswith("       keep 1 3 4 5 (tied): this turn: ")
    assert "the best choice" not in out
    # one die rerolled twice, only a 2 completes the run: the straight comes with
    # 1 - (5/6)^2 = 11/36 = 30.6 %, else Large Straight is filled with 0 (25/36 = 69.4 %)
    for line in lines[1:3]:
        assert "this turn: 0 in Large Straight 69 %, Large Straight 31 % |" in line, line


def _tied_answers(n: int, seed: int, memory):
    """(position, advice, tied options not ranked first) of practice positions."""
    from solver.table import open_table

    table = open_table("official")
    for position in positions_of_play(table, n, seed):
        advice = advice_of(position, table, why=True, memory=memory)
        top = advice.options[0].expected_final
        tied = [o for o in advice.options[1:] if top - o.expected_final <= TIE]
        yield position, advice, tied


def test_every_tied_answer_of_practice_is_graded_a_best_choice(memory):
    found = 0
    for position, advice, tied in _tied_answers(60, 11, memory):
        best = advice.options[0]
        for option in tied:
            found += 1
            graded = grade(position, option, why=True, memory=memory)
            assert graded.loss == 0.0 and not graded.is_error and graded.tied
            assert graded.to_json()["tied"] is True
            lines = graded_lines(graded)
            assert lines[0].startswith(f"  {option.describe()}: a best choice, tied with "
                                       f"{best.describe()} (expected final ")
            assert lines[1].startswith(f"  why: {option.describe()}: this turn: ")
            assert lines[2].startswith(f"       {best.describe()} (tied): this turn: ")
            assert not any("the best choice" in line for line in lines)
        # the choice ranked first is "the best choice", its why alone
        graded = grade(position, best, why=True, memory=memory)
        assert not graded.tied and graded.to_json()["tied"] is False
        lines = graded_lines(graded)
        assert lines[0].startswith(f"  {best.describe()}: the best choice (")
        assert len(lines) == 2 and lines[1].startswith(f"  why: {best.describe()}: ")
        # an answer that loses is neither
        worse = [o for o in advice.options if best.expected_final - o.expected_final > TIE]
        if worse:
            graded = grade(position, worse[-1], why=True, memory=memory)
            assert not graded.tied and graded.is_error
            assert " costs " in graded_lines(graded)[0]
    assert found >= 3, found  # practice does meet ties


def test_the_why_line_adds_up_and_says_what_it_means(memory):
    """Every why line of practice positions: its box entries (with points, with 0, other
    boxes) add up to 100 % within their printed rounding, and a box filled with 0 is
    written "0 in Box"."""
    for _, advice, _ in _tied_answers(20, 5, memory):
        for option in advice.options:
            line = option.outcome.line()
            turn = line.split(" | ")[0].removeprefix("this turn: ")
            entries = turn.split(", ")
            total = slack = 0.0
            for entry in entries:
                printed = entry.rsplit(" ", 2)[-2]
                value = float(printed.lstrip("<>"))
                total += value
                slack += 0.5 if "." not in printed else 0.05
            assert abs(total - 100) <= slack + 0.1, line
            # the three entries shown are the three likeliest of: each box with points,
            # each box with 0 ("0 in Box"), worked out here from the JSON figures
            zeros = dict(option.outcome.zeros)
            parts = sorted(((p - zeros[b], box_label(b)) for b, p in option.outcome.boxes),
                           reverse=True)
            parts = sorted(parts + [(zeros[b], f"0 in {box_label(b)}")
                                    for b, _ in option.outcome.boxes], reverse=True)
            parts = [(p, what) for p, what in parts if p > 5e-5]
            cut = parts[3][0] if len(parts) > 3 else -1.0
            sure = {what for p, what in parts[:3] if p > cut + 1e-9}
            shown = {entry.rsplit(" ", 2)[0] for entry in entries}
            assert sure <= shown, (line, sure)
