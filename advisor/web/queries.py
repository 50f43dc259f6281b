"""The HTTP API's answers, free of any web framework: request parameters in, JSON out.

An endpoint that has a CLI twin (``/api/advise`` is ``yahtzee advise --json``) takes the
twin's options as parameters (``rolls_left`` for ``--rolls-left``). They are parsed by
click with the command's own option definitions, so a bad value gets the CLI's message
word for word; the answer comes from the library calls the command makes (``to_json``).
Endpoints without a twin (``/api/card``, ``/api/place``, ``/api/rules``) are small click
commands of their own, parsed the same way.

Every refusal is a :class:`BadRequest` carrying the text the CLI prints after ``Error:``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, TypeVar

import click

from solver.errors import YahtzeeError
from solver.game.rules import RULE_NAMES, RULE_SUMMARIES, UPPER_TARGET, get_rules

from ..cli._advisor_options import card_option
from ..cli._base import rules_option

Params = Iterable[tuple[str, str]]
T = TypeVar("T")


class BadRequest(Exception):
    """A request the API refuses (HTTP 400); ``message`` is the CLI's error text."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def error_message(exc: Exception) -> str:
    """What the CLI prints after ``Error:`` for ``exc`` (a click or library error)."""
    if isinstance(exc, click.ClickException):
        return exc.format_message()
    return str(exc)


def option_of(command: click.Command, key: str) -> str | None:
    """The long option of ``command`` that parameter ``key`` names (``rolls_left`` ->
    ``--rolls-left``), or None when the command has no such option."""
    flag = "--" + key.replace("_", "-")
    for param in command.params:
        if isinstance(param, click.Option) and flag in param.opts:
            return flag
    return None


def parse_params(command: click.Command, params: Params, keys: tuple[str, ...],
                 default_rules: str, arguments: tuple[str, ...] = ()) -> dict[str, Any]:
    """``command``'s parsed keyword arguments from request parameters ``params``.

    Only ``keys`` that ``command`` has as options are accepted; ``rules`` defaults to
    ``default_rules`` (the server's); ``arguments`` are the command's positional ones.
    Raises :class:`BadRequest` with click's message for a missing or bad value, and for an
    unknown parameter.
    """
    accepted = {key: flag for key in keys if (flag := option_of(command, key))}
    args = []
    given = set()
    for key, value in params:
        if key not in accepted:
            raise BadRequest(f"unknown parameter {key!r}; accepted: "
                         f"{', '.join(accepted) or 'none'}")
        given.add(key)
        args.append(f"{accepted[key]}={value}")
    if "rules" in accepted and "rules" not in given:
        args.append(f"--rules={default_rules}")
    args += ["--", *arguments]
    try:
        ctx = command.make_context(f"yahtzee {command.name}", args)
    except click.ClickException as exc:
        raise BadRequest(error_message(exc)) from exc
    return dict(ctx.params)


def answer(func: Callable[..., dict[str, Any]], command: click.Command, params: Params,
           keys: tuple[str, ...], default_rules: str) -> dict[str, Any]:
    """``func(**parsed)``, with every library or click error turned into BadRequest."""
    return call(func, parse_params(command, params, keys, default_rules))


def call(func: Callable[..., T], parsed: dict[str, Any]) -> T:
    """``func(**parsed)``, with every library or click error turned into BadRequest."""
    with refused():
        return func(**parsed)


@contextmanager
def refused() -> Iterator[None]:
    """Turn a library or click error raised inside into :class:`BadRequest`."""
    try:
        yield
    except (YahtzeeError, click.ClickException) as exc:
        raise BadRequest(error_message(exc)) from exc


# ---------------------------------------------------------------------- advise
ADVISE_KEYS = ("rules", "card", "dice", "rolls_left", "top", "target", "beat", "opponent")


def advise_command() -> click.Command:
    from ..cli.advise import advise

    return advise


def advise_json(dice_text: str | None, rolls_left: int | None, card_text: str, top: int,
                rules_name: str, target: str | None = None, beat: str | None = None,
                opponent: str | None = None, as_json: bool = True, table_path: None = None,
                dice_arg: None = None, game_path: None = None, append_text: None = None
                ) -> dict[str, Any]:
    """``yahtzee advise --json``: the same checks and library calls, in the same order
    (``as_json``, ``table_path``, ``dice_arg``, ``game_path`` and ``append_text`` are the
    command's; the API never takes them)."""
    from ..advise import question_rolls_left, turn_advisor
    from ..cli._advisor_options import parse_objective
    from ..cli.advise import dice_of
    from ..model import Dice

    dice = Dice.parse(dice_of(dice_arg, dice_text))
    card = parsed_card(card_text, rules_name)
    rolls_left = question_rolls_left(card, rolls_left)
    objective = parse_objective(target, beat, opponent, rules_name)
    return turn_advisor(card, objective=objective).advise(dice, rolls_left).to_json(top)


def has_objective(params: dict[str, Any]) -> bool:
    """True when parsed advise parameters ask for a target or an opponent (seconds of
    work per card: the server answers those in its worker process)."""
    return any(params.get(key) is not None for key in ("target", "beat", "opponent"))


def advise_in_worker(params: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """:func:`advise_json` of parsed parameters, run in the worker; a refusal comes back
    as :class:`BadRequest` (picklable: a message)."""
    return call(advise_json, dict(params))


@lru_cache(maxsize=1024)
def parsed_card(card_text: str, rules_name: str) -> Any:
    """``Scorecard.parse`` (cards are immutable; a bad card raises and is not kept)."""
    from ..model import Scorecard

    return Scorecard.parse(card_text, rules_name)


# ---------------------------------------------------------------------- stats
STATS_KEYS = ("rules", "card", "target")


def stats_command() -> click.Command:
    from ..cli.stats import stats

    return stats


def stats_question(card_text: str, target: str | None, rules_name: str,
                   table_path: None = None, as_json: bool = True) -> tuple[str, str, int | None]:
    """The checks of ``yahtzee stats`` before any work: (rules, card text, target or None)."""
    from ..objective import Objective

    card = parsed_card(card_text, rules_name)
    card.check_not_full()
    goal = Objective.for_target(target).target if target is not None else None
    return rules_name, str(card), goal


def stats_json(question: tuple[str, str, int | None]) -> dict[str, Any]:
    """``yahtzee stats [--card C] [--target X] --json`` of a checked question (seconds of
    work: run in the worker)."""
    from solver.table import get_table

    from ..target_stats import card_stats, target_stats

    rules_name, card_text, goal = question
    card = parsed_card(card_text, rules_name)
    table = get_table(rules_name)
    if goal is not None:
        return target_stats(table, card, goal).to_json()
    data = card_stats(table, card).to_json()
    if card.turn > 1:
        data["card"] = card.to_json()
    return data


# ---------------------------------------------------------------------- records
ANALYZE_KEYS: tuple[str, ...] = ()
ANALYZE_ARGUMENTS = ("-",)
"""``yahtzee analyze -``: the record comes from the request body, as from stdin."""


def analyze_command() -> click.Command:
    from ..cli.analyze import analyze

    return analyze


def read_body(body: bytes) -> Any:
    """The game record of a request body (text or JSON form), checked as the CLI checks
    it (:func:`advisor.record.parse_record`)."""
    from ..record import parse_record

    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"the record is not UTF-8 text (byte {exc.start})") from exc
    with refused():
        return parse_record(text)


def analyze_json(record: Any) -> dict[str, Any]:
    """``yahtzee analyze - --json`` of a checked record."""
    from solver.table import get_table

    from ..analyze import analyze

    with refused():
        return analyze(record, table=get_table(record.rules)).to_json()


def record_json(record: Any) -> dict[str, Any]:
    """A checked record as the page needs it: ``record`` (JSON form), ``text``, every
    player's card (as ``/api/card``) and whether the game is over."""
    return {"record": record.to_json(), "text": str(record),
            "cards": {name: describe_card(card) for name, card in record.cards().items()},
            "finished": record.is_finished}


# ---------------------------------------------------------------------- no CLI twin
@click.command("card")
@card_option
@rules_option
def card_command(card_text: str, rules_name: str) -> None:
    """Parameters of ``/api/card``."""


CARD_KEYS = ("rules", "card")


def card_json(card_text: str, rules_name: str) -> dict[str, Any]:
    """A scorecard read as ``--card`` reads it: its figures, open boxes and what the
    upper bonus still needs."""
    from ..model import Scorecard

    return describe_card(Scorecard.parse(card_text, rules_name))


def describe_card(card: Any) -> dict[str, Any]:
    """``card.to_json()`` plus ``open`` (box names), ``turn``, ``full`` and
    ``upper_needed`` (points the upper boxes still need for the bonus; 0 once earned)."""
    rules = card.rules
    return {"rules": card.rules_name, **card.to_json(),
            "open": [rules.boxes[b].name for b in card.open_boxes()],
            "turn": card.turn, "full": card.is_full,
            "upper_needed": max(UPPER_TARGET - card.upper_subtotal, 0)}


@click.command("place")
@card_option
@click.option("--dice", "dice_text", required=True)
@click.option("--box", "box_name", required=True)
@rules_option
def place_command(card_text: str, dice_text: str, box_name: str, rules_name: str) -> None:
    """Parameters of ``/api/place``."""


PLACE_KEYS = ("rules", "card", "dice", "box")


def place_json(card_text: str, dice_text: str, box_name: str, rules_name: str) -> dict[str, Any]:
    """The card after scoring ``dice`` in box ``box_name`` (the Joker rule applies)."""
    from ..model import Dice, Scorecard

    card = Scorecard.parse(card_text, rules_name)
    dice = Dice.parse(dice_text)
    return describe_card(card.place(dice, box_name))


@click.command("record")
def record_command() -> None:
    """Parameters of ``POST /api/record`` (none: the record is the body)."""


RECORD_KEYS: tuple[str, ...] = ()
RECORD_ARGUMENTS: tuple[str, ...] = ()


@click.command("rules")
@rules_option
def rules_command(rules_name: str) -> None:
    """Parameters of ``/api/rules``."""


RULES_KEYS = ("rules",)


def rules_json(rules_name: str) -> dict[str, Any]:
    """What the page needs to draw a scorecard of a rule set, and every rule set's name."""
    from ..model import box_label

    rules = get_rules(rules_name)
    return {"name": rules.name, "summary": rules.summary, "rolls_per_turn": rules.rolls_per_turn,
            "upper_bonus": rules.upper_bonus, "upper_target": UPPER_TARGET,
            "yahtzee_bonus": rules.yahtzee_bonus if rules.n_flags == 2 else 0,
            "boxes": [{"name": b.name, "label": box_label(b.name), "upper": b.is_upper,
                       "aliases": list(b.aliases)} for b in rules.boxes],
            "rule_sets": [{"name": n, "summary": RULE_SUMMARIES[n]} for n in RULE_NAMES],
            "objectives": objectives()}


def objectives() -> list[str]:
    """The objectives ``/api/advise`` ranks by: ``ev``, plus ``target`` and ``win`` when
    the advise command takes ``--target`` and ``--opponent``."""
    command = advise_command()
    found = ["ev"]
    if option_of(command, "target"):
        found.append("target")
    if option_of(command, "opponent"):
        found.append("win")
    return found
