"""The request layer: one declaration per option, read the same way by the CLI and the API."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from advisor.cli import cli
from advisor.request.params import PARAMS, RequestError, read_query


def test_the_bounds_of_games_and_seed_are_the_simulators():
    from solver.simulate import MAX_GAMES, MAX_SEED

    assert (PARAMS["games"].type.low, PARAMS["games"].type.high) == (1, MAX_GAMES)
    assert (PARAMS["seed"].type.low, PARAMS["seed"].type.high) == (0, MAX_SEED)


def test_every_option_of_every_command_comes_from_the_table():
    """Each command's options are those of PARAMS (the one declaration), besides --help."""
    declared = {(p.option_name, p.keyword) for p in PARAMS.values()}
    used = set()
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        for param in command.params:
            if param.param_type_name == "option" and param.name != "help":
                assert (param.opts[0], param.name) in declared, (name, param.opts)
                used.add(param.name)
    unused = {p.keyword for p in PARAMS.values()} - used
    # the page's own: /api/place's box, /api/grade's answer, /api/train/session's answers
    assert unused == {"box_name", "answer_text", "answers_text"}


def test_a_query_is_read_as_the_options_are():
    names = ("dice", "rolls_left", "top", "rules")
    assert read_query(names, [("top", "3"), ("rules", "YATZY"), ("top", "4")]) == {
        "dice_text": None, "rolls_left": None, "top": 4, "rules_name": "yatzy"}
    assert read_query(names, [], {"rules": "two-rolls"})["rules_name"] == "two-rolls"
    with pytest.raises(RequestError, match="unknown parameter 'as_json'; accepted: dice, "):
        read_query(names, [("as_json", "1")])
    with pytest.raises(RequestError, match="missing parameter 'box'"):
        read_query(("box",), [])


@pytest.mark.parametrize(("name", "value"), [("top", "-1"), ("top", "many"),
                                             ("rolls_left", ""), ("rules", "x" * 120),
                                             ("games", "0"), ("seed", str(2**64)),
                                             ("players", "9"), ("objective", "best")])
def test_a_bad_value_has_the_message_of_the_cli(name, value):
    command = {"games": "simulate", "seed": "simulate", "players": "play",
               "objective": "play"}.get(name, "advise")
    first = {"advise": ["22256"], "simulate": ["--json"], "play": []}[command]
    result = CliRunner().invoke(cli, [command, *first, PARAMS[name].option_name, value],
                                input="")
    assert result.exit_code == 2
    with pytest.raises(RequestError) as refused:
        read_query((name,), [(name, value)])
    assert result.stderr.strip() == f"Error: {refused.value}"
    assert len(str(refused.value)) < 200  # a long input is cut, for both
