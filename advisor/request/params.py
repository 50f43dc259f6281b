"""Every option of the ``yahtzee`` commands and query parameter of the HTTP API, declared
once in :data:`PARAMS`.

A :class:`Param` builds the click option of each command that takes it (:func:`options`)
and reads the same parameter from a web request (:func:`read_query`) with the same click
type, so a bad value gets the same message in both: after ``Error:`` with exit code 2
from the CLI, as HTTP 400 ``{"error": MESSAGE}`` from the server. The query key is the
option without its dashes, ``_`` for ``-`` (``rolls_left`` is ``--rolls-left``).

Only click and pure-Python modules are imported here, so ``yahtzee --help`` stays instant.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, TypeVar

import click

from solver.errors import ECHO_LIMIT, YahtzeeError
from solver.game.rules import DEFAULT_RULES, RULE_NAMES
from solver.numbers import MAX_DIGITS, whole_number

from ..win_from import DEFAULT_WIN_FROM, FIRST_TURN

F = TypeVar("F", bound=Callable[..., Any])


_LONG_QUOTE = re.compile("'([^']{" + str(ECHO_LIMIT - 1) + ",})'")


def click_message(exc: click.ClickException) -> str:
    """What follows ``Error:`` for a click error, a quoted input longer than
    ``ECHO_LIMIT`` characters cut (the library quotes input through
    :func:`solver.errors.shown`)."""
    return _LONG_QUOTE.sub(lambda m: f"'{m.group(1)[:ECHO_LIMIT - 6]}...'",
                           exc.format_message())


class RequestError(YahtzeeError):
    """A request refused as a whole: an unknown parameter, a missing one, two that
    exclude each other (the CLI: one ``Error:`` line, exit 2; the API: HTTP 400)."""


@dataclass(frozen=True)
class Param:
    """One option: ``name`` is its query key and, unless ``dest`` says otherwise, the
    keyword the command receives; ``flag`` defaults to ``--`` + name with dashes."""

    name: str
    help: str
    type: Any = None
    default: Any = None
    metavar: str | None = None
    flag: str | None = None
    dest: str | None = None
    is_flag: bool = False
    multiple: bool = False
    required: bool = False
    show_default: bool = False

    @property
    def option_name(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def keyword(self) -> str:
        return self.dest or self.name

    def click_args(self) -> tuple[list[str], dict[str, Any]]:
        """The declarations and the attributes of this parameter's click option."""
        return [self.option_name, self.keyword], {
            "type": self.type, "default": self.default, "metavar": self.metavar,
            "help": self.help, "is_flag": self.is_flag, "multiple": self.multiple,
            "required": self.required, "show_default": self.show_default}

    @cached_property
    def _option(self) -> click.Option:
        decls, attrs = self.click_args()
        return click.Option(decls, **attrs)

    def read(self, value: str) -> Any:
        """The query value ``value`` converted as the CLI converts the option; a bad one
        raises :class:`RequestError` with click's message (``Invalid value for ...``)."""
        option = self._option
        try:
            return option.type.convert(value, option, click.Context(click.Command("yahtzee")))
        except click.BadParameter as exc:
            raise RequestError(click_message(exc)) from None


def _check_digits(kind: click.ParamType, value: Any, param: click.Parameter | None,
                  ctx: click.Context | None) -> None:
    """Refuse a whole number written otherwise than in ASCII digits (``３``, ``٣``,
    ``3_0``, ``+3``) or with too many of them (:func:`solver.numbers.whole_number`)."""
    if isinstance(value, str) and whole_number(value, signed=True) is None:
        kind.fail(f"{value!r} is not a valid integer (ASCII digits 0 to 9, at most "
                  f"{MAX_DIGITS})", param, ctx)


class AsciiInt(click.types.IntParamType):
    """click's integer, written in ASCII digits only (as dice and cards are)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        _check_digits(self, value, param, ctx)
        return super().convert(value, param, ctx)


class AsciiIntRange(click.IntRange):
    """click's integer range, written in ASCII digits only."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        _check_digits(self, value, param, ctx)
        return super().convert(value, param, ctx)


ASCII_INT = AsciiInt()


class ProxyAddresses(click.ParamType):
    """``--proxy``: comma-separated IP addresses or networks (e.g. ``127.0.0.1`` or
    ``10.0.0.0/8``), kept as typed once each part is checked."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        for part in str(value).split(","):
            try:
                ipaddress.ip_network(part.strip(), strict=False)
            except ValueError:
                self.fail(f"{part.strip()!r} is not an IP address or network "
                          "(e.g. 127.0.0.1 or 10.0.0.0/8)", param, ctx)
        return str(value)


class Whole(click.ParamType):
    """A whole number ``low`` to ``high`` in ASCII digits; out of range: ``must be WORDS,
    not N``."""

    name = "integer"

    def __init__(self, low: int, high: int, words: str) -> None:
        self.low, self.high, self.words = low, high, words

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        number = value if isinstance(value, int) else ASCII_INT.convert(value, param, ctx)
        if not self.low <= number <= self.high:
            digits = str(number)  # shortened beyond 24 digits
            shown = digits if len(digits) <= 24 else f"{digits[:10]}...({len(digits)} digits)"
            self.fail(f"must be {self.words}, not {shown}", param, ctx)
        return number


PARAMS: dict[str, Param] = {p.name: p for p in (
    Param("rules", "Rule set (see `yahtzee rules`).",
          click.Choice(RULE_NAMES, case_sensitive=False), DEFAULT_RULES,
          show_default=True, dest="rules_name"),
    Param("json", "Print one JSON object.", dest="as_json", is_flag=True),
    Param("table", "Table file to read (default: the cached one, built if missing).",
          metavar="PATH", dest="table_path"),
    Param("force", "Replace an existing regular file of another kind at the path (a "
          "symbolic link, folder or device is never replaced).", is_flag=True),
    Param("card", "Boxes filled so far, e.g. twos=6,fours=12,yahtzee=50,yahtzee_bonus=1 "
          "(default: a new game).", default="", metavar="C", dest="card_text"),
    Param("dice", "The five dice showing: 22256, 2,2,2,5,6 or '2 2 2 5 6' (or give them as "
          "the argument).", metavar="D", dest="dice_text"),
    Param("box", "The box to fill, by name or short name.", required=True, dest="box_name"),
    Param("rolls_left", "Rolls still allowed this turn: 2 after the first roll (default), "
          "1 after the second, 0 after the last.", ASCII_INT, metavar="N"),
    Param("why", "Under each choice, what it leads to with optimal play from then on: the "
          "chance of each box this turn, of the upper bonus and of 50 in the Yahtzee box at "
          "the end, the Yahtzee bonuses, the SD of the final score (exact; the first use "
          "computes the figures once, about half a minute).", is_flag=True),
    Param("top", "Show the N best options (0: all).", AsciiIntRange(min=0), 10, metavar="N",
          show_default=True),
    Param("target", "Maximise P(final score >= X) instead of the expected score.",
          metavar="X"),
    Param("beat", "Maximise P(final score > N) (same as --target N+1).", metavar="N"),
    Param("opponent", "Maximise the chance to win against this opponent (a tie counts as "
          "half): their card, same notation as --card (a full card is a finished game).",
          metavar="CARD"),
    Param("opponents", "Maximise the chance to win against two or more opponents (a tie of "
          "k players at the top counts 1/k): their cards, separated by ';'.",
          metavar="CARDS"),
    Param("tournament", "Maximise the expected share of first place among N players in all "
          "(2 to 100,000; you included) who each play a game alone, the highest final score "
          "winning, a tie shared (`yahtzee help objectives`). A card with 6 or more boxes open "
          "first solves a whole game (minutes).", metavar="N"),
    Param("field", "With --tournament: the strategy the others play, whose exact final-score "
          "distribution is computed: optimal (expected-score play, the default).",
          metavar="STRATEGY"),
    Param("field_scores", "With --tournament: the others' final scores drawn from these "
          "observed ones (a text file of whole numbers separated by spaces, commas or lines; "
          "# starts a comment).", metavar="FILE"),
    Param("game", "A game record (`yahtzee help records`): card, player and rolls left come from "
          "it, and the objective too unless one is given (what its first line says the game "
          "was played for); the dice are the next roll of the game.", metavar="FILE",
          dest="game_path"),
    Param("append", "With --game: add these dice and MOVE (keep 222, score twos, 1 = the "
          "best) to the record.", metavar="MOVE", dest="append_text"),
    Param("players", "Number of players, named Player 1, Player 2, ...  [default: 1]",
          AsciiIntRange(1, 8), dest="n_players"),
    Param("names", "Player names in playing order, comma-separated (1 to 8).",
          metavar="A,B", dest="names_text"),
    Param("record", "Write the game to FILE as it goes (a new file; see `yahtzee help records`).",
          metavar="FILE", dest="record_path"),
    Param("resume", "Continue the game recorded in FILE where it stopped.", metavar="FILE",
          dest="resume_path"),
    Param("objective", "What each player's advice maximises: ev, the expected final score; "
          "win (two or more players), the chance to beat the best of the others, exactly, "
          "from their cards as they stand at each turn.  [default: ev]",
          click.Choice(["ev", "win"]), dest="objective_name"),
    Param("win_from", f"With --objective win: work out the chance to win once the player to "
          f"move has N or fewer boxes open (1 to {DEFAULT_WIN_FROM}); before that the advice "
          f"is by expected score.  [default: {FIRST_TURN}]", ASCII_INT, metavar="N"),
    Param("sheet_format", "md: one row per roll; csv: one row per roll and number of rolls "
          "left.", click.Choice(["md", "csv"]), "md", flag="--format", dest="fmt",
          show_default=True),
    Param("sheet_out", "Write the sheet to FILE instead of stdout (a new file or an earlier "
          "sheet; another file only with --force).",
          metavar="FILE", flag="--out", dest="out_path"),
    Param("targets", "Build the target table instead: W(s, r), the best chance of r more "
          "points from each turn-start state, for every r up to --max, which every target "
          "and --beat question then reads at once (<rules>.ytargets in the table cache; "
          "`yahtzee help objectives`).", is_flag=True),
    Param("max_target", "With --targets: the largest target the table answers (default: "
          "500, or the highest score of the rules when lower: 374 for yatzy).",
          type=AsciiIntRange(min=1), metavar="R", flag="--max"),
    Param("table_out", "Table file to write (default: <rules>.ytable in the table cache: "
          "tables/ in a source checkout, else ~/.cache/yahtzee-solver, or $YAHTZEE_TABLES). "
          "An existing file is replaced only if it is a table of the same rules.",
          metavar="PATH", flag="--out", dest="out"),
    Param("export_format", "npy: float64 [mask, upper, flag]; csv: one row per reachable "
          "state.", click.Choice(["npy", "csv"]), flag="--format", required=True, dest="fmt"),
    Param("export_out", "File to write. An existing file is replaced only if it is an "
          "earlier export in the same format.", metavar="PATH", flag="--out", dest="out",
          required=True),
    Param("games", "Number of games to play per strategy, 1 to 10,000,000.",
          Whole(1, 10_000_000, "1 to 10,000,000"), 10_000, show_default=True),
    Param("strategy", "optimal (default), greedy, greedy-turn, heuristic, target:X (every "
          "move maximises P(final score >= X); solves the target vectors first), "
          "tournament:N (every move maximises the expected share of first place among N "
          "players, the others playing for the expected score; solves a whole game first), "
          "or module:function (a Python strategy). Not together with --compare."),
    Param("compare", "Comma-separated strategies to play side by side on the same dice, "
          "e.g. optimal,greedy or optimal,target:300."),
    Param("seed", "Seed of the dice (0..2**64-1): same seed, same games.",
          Whole(0, 2**64 - 1, "in 0..2**64-1"), 0, show_default=True),
    Param("workers", "Processes playing a Python strategy (module:function), 1 to 64: "
          "the same games and figures, faster on several cores. Built-in strategies use "
          "every core anyway.", Whole(1, 64, "1 to 64"), 1, show_default=True),
    Param("positions", "Positions in the session (1 to 100).", AsciiIntRange(1, 100), 10,
          metavar="N", dest="n_positions", show_default=True),
    Param("from", "Practise the decisions of your own game records (FILE ..., as `yahtzee "
          "play --record` writes them) that lost the most, instead of positions of optimal "
          "play.", metavar="FILE", dest="from_records", multiple=True),
    Param("player", "With --from: only this player's decisions.", metavar="NAME"),
    Param("answer", "A practice answer as typed in `yahtzee play` (keep 222, score twos) or "
          "the number of a choice of the position's list.", metavar="MOVE",
          dest="answer_text", required=True),
    Param("answers", "The answers of a practice session in order, separated by |.",
          metavar="MOVES", dest="answers_text", default=""),
    Param("history", "The history the session is appended to (JSON Lines) [default: "
          "train-history.jsonl in the user's data folder, e.g. "
          "~/.local/share/yahtzee-solver].", metavar="FILE", dest="history_path"),
    Param("no_history", "Keep no history of this session.", is_flag=True),
    Param("all", "Also the simulator's and the target and win objectives' kernels.",
          dest="everything", is_flag=True),
    Param("host", "Address to listen on. 0.0.0.0 lets a phone on the same network in: the "
          "addresses to open and a QR code are printed (and a warning: the server has no "
          "login).", default="127.0.0.1", show_default=True),
    Param("port", "Port to listen on (0: any free port).", AsciiIntRange(0, 65535), 8000,
          show_default=True),
    Param("proxy", "The address of a reverse proxy in front of the server (comma-separated "
          "addresses or networks): only its X-Forwarded-For header is believed, to tell "
          "its clients apart. Without it the header is ignored and a client is the "
          "address its connection comes from.", ProxyAddresses(), metavar="ADDRESS"),
    Param("site_out", "Folder to write (new, empty, or an earlier site: the site's "
          "files replaced, the others kept).",
          metavar="DIR", flag="--out", dest="out", required=True),
    Param("site_rules", "A rule set to include (repeat for several; the first is the "
          "page's default), or all. Default: official.",
          click.Choice((*RULE_NAMES, "all"), case_sensitive=False), flag="--rules",
          dest="rules_names", multiple=True),
    Param("records", "Also write each game as a record, FOLDER/game-000001.txt, ... (a new "
          "folder; `yahtzee analyze` reads them).", metavar="FOLDER", dest="records_dir"),
)}
OBJECTIVE_PARAMS = ("target", "beat", "opponent")
"""What to maximise instead of the expected score (at most one of them)."""
TOURNAMENT_PARAMS = ("tournament", "field", "field_scores")
"""A tournament objective and its field (instead of the objectives above)."""


def options(*names: str, **changes: Mapping[str, Any]) -> Callable[[F], F]:
    """A decorator adding the click options ``names`` of :data:`PARAMS` to a command, in
    that order in ``--help``; ``changes[name]`` replaces fields of one (a default, the
    help) for this command alone."""
    def decorate(func: F) -> F:
        for name in reversed(names):
            decls, attrs = replace(PARAMS[name], **changes.get(name, {})).click_args()
            func = click.option(*decls, **attrs)(func)
        return func
    return decorate


def read_query(names: Iterable[str], items: Iterable[tuple[str, str]],
               defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The keyword arguments of a request from its query ``items`` (key, value): each of
    ``names`` converted as its option (missing: its default, or ``defaults[name]``).
    Raises :class:`RequestError` for a key not in ``names`` and for a bad value."""
    accepted = {name: PARAMS[name] for name in names}
    given: dict[str, str] = {}
    for key, value in items:
        if key not in accepted:
            raise RequestError(f"unknown parameter {key!r}; accepted: "
                               f"{', '.join(accepted) or 'none'}")
        given[key] = value  # the last one, as for an option given twice
    out = {}
    for name, param in accepted.items():
        if name in given:
            out[param.keyword] = param.read(given[name])
        elif param.required:
            raise RequestError(f"missing parameter {name!r}")
        else:
            out[param.keyword] = (defaults or {}).get(name, param.default)
    return out
