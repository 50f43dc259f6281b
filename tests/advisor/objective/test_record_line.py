"""A record's first line ``# objective: ...`` read by ``analyze`` and ``play --resume``:
any nesting, however deep, and any target that is not a JSON whole number are refused
with exit 2 and one line (never a traceback); the file is left as it was."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.objective import Objective
from advisor.play_win import judging_of_record
from solver.errors import ObjectiveError

RECORD = "rules official\nplayers Ann\nAnn: 11123 aces\nAnn: 22256 twos\n"
DEEP = 100_000


def nested(depth: int, inner: str = "", kind: str = "[]") -> str:
    """``inner`` inside ``depth`` brackets (``kind``: ``[]``, ``{}`` as ``{"a": ...}``, or
    ``[{`` alternating)."""
    if kind == "[]":
        return "[" * depth + inner + "]" * depth
    if kind == "{}":
        return '{"a": ' * depth + (inner or "0") + "}" * depth
    return '[{"a": ' * depth + (inner or "0") + "}]" * depth


NESTINGS = [
    *(nested(n) for n in (DEEP, 5000, 1000, 990, 900)),
    nested(DEEP, kind="{}"), nested(2000, kind="{}"), nested(DEEP // 2, kind="[{"),
    '{"kind": "target", "target": ' + nested(DEEP) + "}",
    '{"kind": "target", "target": ' + nested(950) + "}",
    '{"kind": "win", "opponent": ' + nested(DEEP, kind="{}") + "}",
    '{"kind": "win", "opponents": ' + nested(DEEP) + "}",
    '{"kind": "win", "opponents": ' + nested(950) + "}",
    '{"kind": ' + nested(DEEP) + ', "target": 300}',
    '{"kind": "target", "target": 300, "x": ' + nested(DEEP, kind="{}") + "}",
    nested(DEEP)[:-1],  # one bracket short
]
NOT_NUMBERS = ['"300"', '"0300"', '" 300"', '"3e2"', "300.0", "3e2", "true", "false",
               "null", "[300]", '{"n": 300}', '"\\u0033\\u0030\\u0030"']


def lines_of(note: str) -> str:
    return f"# objective: {note}\n{RECORD}"


def assert_refused(args: list[str], text: str, tmp_path, words: str) -> None:
    path = tmp_path / "game.txt"
    path.write_text(text)
    result = CliRunner().invoke(cli, [*args, str(path)], input="quit\n")
    assert result.exit_code == 2, result.output[-300:]
    error = result.stderr.strip()
    assert error.startswith("Error: the record's first line") and "\n" not in error, error[-300:]
    assert words in error and len(error) < 400 and "Traceback" not in result.output
    assert path.read_text() == text


@pytest.mark.parametrize("note", NESTINGS, ids=range(len(NESTINGS)))
def test_a_deeply_nested_objective_line_is_one_line_and_exit_2(note, tmp_path):
    with pytest.raises(ObjectiveError):
        judging_of_record(lines_of(note), "official")
    for args in (["analyze"], ["play", "--resume"]):
        assert_refused(args, lines_of(note), tmp_path, "")


@pytest.mark.parametrize("value", NOT_NUMBERS)
def test_a_target_that_is_not_a_json_number_is_refused(value, tmp_path):
    note = '{"kind": "target", "target": ' + value + "}"
    with pytest.raises(ObjectiveError) as caught:
        judging_of_record(lines_of(note), "official")
    assert "give a whole number of points as a JSON number (e.g. 300)" in str(caught.value)
    with pytest.raises(ObjectiveError):
        Objective.from_json(json.loads(note))
    for args in (["analyze"], ["play", "--resume"]):
        assert_refused(args, lines_of(note), tmp_path, "as a JSON number")


@pytest.mark.parametrize("value", ["300", "0", "1575", "3000"])
def test_a_target_that_is_a_json_number_is_read(value):
    note = '{"kind": "target", "target": ' + value + "}"
    assert judging_of_record(lines_of(note), "official") == Objective.for_target(int(value))
