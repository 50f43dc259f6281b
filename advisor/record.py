"""Game records: a played game, turn by turn, as text or JSON (docs/records.md).

Text form, one turn per line in playing order (blank lines and ``#`` comments ignored)::

    rules official
    players Ann,Bob
    Ann: 22256 222 22234 2223 22235 twos
    Bob: 12345 large_straight

A turn is ``ROLL {KEEP ROLL} BOX``: the first roll, then for each reroll the dice kept
(``-`` for none) and the dice showing after it, then the box filled. The last turn of a
record may be unfinished (no box yet): that is a game in progress, written move by move
by ``yahtzee play --record`` and continued by ``--resume``.

:func:`parse_record` reads text or JSON and checks the whole game against the rule set
(kept dice inside the roll, rolls per turn, boxes filled once, the forced Joker, known
players and boxes, players in turn order); any fault refuses the record with an
:class:`~solver.errors.InvalidRecordError` naming the line and the token. ``str(record)``
and :meth:`GameRecord.to_json` write it back; :meth:`GameRecord.positions` walks it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from solver.errors import InvalidRecordError, YahtzeeError, shown
from solver.game.dice import DICE
from solver.game.move import Move
from solver.game.rules import DEFAULT_RULES, get_rules

from .model import Dice, Keep, Scorecard

MAX_PLAYERS = 8
MAX_RECORD_BYTES = 1_000_000
"""Largest record file read (a full 8-player game in JSON is about 60 KB)."""
MAX_NAME = 40
_NAME_SEPARATORS = frozenset(":,#")
_NAME_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Controls (tab, line feed, vertical tab, U+001C..U+001F, U+0085 ...), lone surrogates
(text that is not Unicode, e.g. a byte that is not UTF-8) and line or paragraph
separators: characters that would split a record's line or cannot be written."""
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Player names checked: 1 to 8, distinct, non-empty, at most 40 characters, without
    ``:``, ``,`` or ``#`` (they separate fields of a record), without outer spaces, control
    characters or line separators, so that every accepted name reads back unchanged from
    both forms of a record."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise InvalidRecordError(f"player names are a list of text, e.g. ['Ann', 'Bob'], not "
                                 f"{shown(names, 40)}")
    if not names:
        raise InvalidRecordError("give at least one player name, e.g. Ann,Bob")
    if len(names) > MAX_PLAYERS:
        raise InvalidRecordError(f"{len(names)} players: at most {MAX_PLAYERS}")
    for name in names:
        _check_name(name)
    if len(set(names)) != len(names):
        raise InvalidRecordError(f"player names must be distinct: {shown(','.join(names))}")
    return tuple(names)


def _check_name(name: object) -> None:
    if not isinstance(name, str):
        raise InvalidRecordError(f"a player name is text, not {shown(name, 40)}")
    if not name.strip():
        raise InvalidRecordError("a player name is empty: write names separated by commas, "
                                 "e.g. Ann,Bob")
    rule = (f"use at most {MAX_NAME} characters, no ':', ',' or '#', no outer spaces, no "
            f"control characters or line breaks")
    if len(name) > MAX_NAME or name != name.strip():
        raise InvalidRecordError(f"player name {shown(name, MAX_NAME + 6)}: {rule}")
    for char in name:
        if char in _NAME_SEPARATORS or unicodedata.category(char) in _NAME_CATEGORIES:
            raise InvalidRecordError(f"player name {shown(name, MAX_NAME + 6)}: {rule}; "
                                     f"{_char_name(char)} is not")


def _char_name(char: str) -> str:
    """``':'`` or ``U+2028 (LINE SEPARATOR)`` for a message."""
    category = unicodedata.category(char)
    if char.isprintable() and category not in _NAME_CATEGORIES:
        return repr(char)
    if 0xDC80 <= ord(char) <= 0xDCFF:  # how Python keeps a byte that is not UTF-8
        return f"the byte {ord(char) - 0xDC00:#04x} (not UTF-8 text)"
    if category == "Cs":
        return f"U+{ord(char):04X} (a lone surrogate: text that is not Unicode)"
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character')})"


def split_lines(text: str) -> list[str]:
    """The lines of a text record: only line feed, carriage return and their pair end a
    line (a vertical tab or U+2028 in a comment does not)."""
    return _LINE_BREAK.split(text)


@dataclass(frozen=True)
class Turn:
    """One player's turn: ``rolls`` (1 to rolls-per-turn), ``keeps`` (one before each
    reroll) and ``box`` (canonical name; None while the turn is unfinished)."""

    player: str
    rolls: tuple[Dice, ...]
    keeps: tuple[Keep, ...] = ()
    box: str | None = None
    line: int = field(default=0, compare=False)
    """Line of the text record it came from (0 when built otherwise)."""

    def __post_init__(self) -> None:
        if not isinstance(self.player, str):
            raise InvalidRecordError(f"a turn's player is a name (text), not "
                                     f"{type(self.player).__name__}")
        object.__setattr__(self, "rolls", tuple(_as(Dice, r) for r in
                                                _items(self.rolls, "rolls")))
        object.__setattr__(self, "keeps", tuple(_as(Keep, k) for k in
                                                _items(self.keeps, "keeps")))
        if self.box is not None and not isinstance(self.box, str):
            raise InvalidRecordError(f"a turn's box is a name (text) or None, not "
                                     f"{type(self.box).__name__}")

    @property
    def is_finished(self) -> bool:
        return self.box is not None

    @property
    def moves(self) -> tuple[Move, ...]:
        """The keeps, then the box if filled."""
        keeps = tuple(Move(keep=k.faces) for k in self.keeps)
        return keeps + ((Move(box=self.box),) if self.box is not None else ())

    def tokens(self) -> list[str]:
        """``ROLL {KEEP ROLL} [BOX]`` as text tokens."""
        out = [str(self.rolls[0])]
        for keep, roll in zip(self.keeps, self.rolls[1:], strict=False):
            out += [str(Move(keep=keep.faces).record_token()), str(roll)]
        for keep in self.keeps[len(self.rolls) - 1:]:  # keeps typed, their rolls not yet
            out.append(Move(keep=keep.faces).record_token())
        if self.box is not None:
            out.append(self.box)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "rolls": [str(r) for r in self.rolls],
                "keeps": [Move(keep=k.faces).record_token() for k in self.keeps],
                "box": self.box}


@dataclass(frozen=True)
class Position:
    """One decision of a recorded game: ``move`` chosen for ``dice`` with ``rolls_left``
    on ``card`` (before the move), in turn ``turn`` (1-based, per player)."""

    index: int
    """Index of the record's turn this decision belongs to."""
    player: str
    turn: int
    card: Scorecard
    dice: Dice
    rolls_left: int
    move: Move
    next_dice: Dice | None
    """The dice showing after a keep's reroll (None for a box, or not rolled yet)."""


@dataclass(frozen=True)
class GameRecord:
    """A checked game: rule set, players in playing order, turns in playing order."""

    rules: str = DEFAULT_RULES
    players: tuple[str, ...] = ("Player 1",)
    turns: tuple[Turn, ...] = ()
    _cards: dict[str, Scorecard] = field(default_factory=dict, init=False, repr=False,
                                         compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", get_rules(self.rules).name)
        object.__setattr__(self, "players", check_names(tuple(_items(self.players,
                                                                       "players"))))
        turns = tuple(_items(self.turns, "turns"))
        if not all(isinstance(t, Turn) for t in turns):
            raise InvalidRecordError("a record's turns are Turn objects")
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "_cards", _check_game(self))

    # ------------------------------------------------------------------ reading
    def cards(self) -> dict[str, Scorecard]:
        """Every player's card after the finished turns."""
        return dict(self._cards)

    @property
    def is_finished(self) -> bool:
        """True when every box of every card is filled."""
        return all(card.is_full for card in self._cards.values())

    @property
    def current(self) -> Turn | None:
        """The unfinished last turn, if any."""
        return self.turns[-1] if self.turns and not self.turns[-1].is_finished else None

    @property
    def next_player(self) -> str:
        """Who plays next (the player of an unfinished turn)."""
        if self.current is not None:
            return self.current.player
        return self.players[len(self.turns) % len(self.players)]

    def positions(self) -> Iterator[Position]:
        """Every decision in playing order: each keep and each box, with the card before."""
        cards = {name: Scorecard.new(self.rules) for name in self.players}
        per_turn = get_rules(self.rules).rolls_per_turn
        for index, turn in enumerate(self.turns):
            card = cards[turn.player]
            for i, move in enumerate(turn.moves):
                after = turn.rolls[i + 1] if move.is_keep and i + 1 < len(turn.rolls) else None
                yield Position(index, turn.player, card.turn, card, turn.rolls[i],
                               per_turn - 1 - i, move, after)
            if turn.box is not None:
                cards[turn.player] = card.place(turn.rolls[-1], turn.box)

    # ------------------------------------------------------------------ changing
    def with_turns(self, turns: Sequence[Turn]) -> GameRecord:
        """The same game with other turns (checked)."""
        return replace(self, turns=tuple(turns))

    def with_move(self, move: Move) -> GameRecord:
        """The record after the next player's current turn makes ``move`` (checked)."""
        current = self.current
        if current is None:
            raise InvalidRecordError("no turn in progress: add the dice of a first roll")
        if move.keep is not None:
            turn = replace(current, keeps=(*current.keeps, Keep(move.keep)))
        else:
            turn = replace(current, box=Move.scoring(move.box or "", self.rules).box)
        return self.with_turns((*self.turns[:-1], turn))

    def with_roll(self, dice: Dice) -> GameRecord:
        """The record after the dice ``dice`` are rolled: a new turn or a reroll (checked)."""
        current = self.current
        if current is None:
            return self.with_turns((*self.turns, Turn(self.next_player, (dice,))))
        return self.with_turns((*self.turns[:-1], replace(current, rolls=(*current.rolls, dice))))

    def without_last_step(self) -> GameRecord:
        """The record one step back (the last roll, keep or box removed)."""
        if not self.turns:
            raise InvalidRecordError("nothing to undo: the game has not started")
        turn = self.turns[-1]
        if turn.box is not None:
            last: Turn | None = replace(turn, box=None)
        elif len(turn.keeps) == len(turn.rolls):
            last = replace(turn, keeps=turn.keeps[:-1])
        elif len(turn.rolls) > 1:
            last = replace(turn, rolls=turn.rolls[:-1])
        else:
            last = None
        return self.with_turns((*self.turns[:-1], *((last,) if last else ())))

    # ------------------------------------------------------------------ writing
    def __str__(self) -> str:
        lines = [f"rules {self.rules}", f"players {','.join(self.players)}"]
        lines += [f"{t.player}: {' '.join(t.tokens())}" for t in self.turns]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "players": list(self.players),
                "turns": [t.to_json() for t in self.turns]}


def _items(value: Any, what: str) -> Sequence[Any]:
    """``value`` if it is a list or tuple (of anything), else an InvalidRecordError."""
    if not isinstance(value, (list, tuple)):
        raise InvalidRecordError(f"{what} are a list or tuple, not {type(value).__name__}")
    return value


def _as(kind: Any, value: Any) -> Any:
    """A Dice or Keep: itself, or built from text or faces (the library's errors)."""
    return value if isinstance(value, kind) else kind(value)


# ---------------------------------------------------------------------- checks
def _check_game(record: GameRecord) -> dict[str, Scorecard]:
    """Replay the turns; raise InvalidRecordError at the first that breaks the rules.
    Returns every player's card after the finished turns."""
    rules = get_rules(record.rules)
    cards = {name: Scorecard.new(rules) for name in record.players}
    n = len(record.players)
    for i, turn in enumerate(record.turns):
        where = f"line {turn.line}" if turn.line else f"turn {i + 1}"
        if turn.player not in cards:
            raise InvalidRecordError(f"{where}: unknown player {shown(turn.player, 40)}; "
                                     f"players are {', '.join(record.players)}")
        if turn.player != record.players[i % n]:
            raise InvalidRecordError(f"{where}: {shown(turn.player, 40)} plays out of turn; "
                                     f"it is {record.players[i % n]}'s turn")
        if not turn.is_finished and i != len(record.turns) - 1:
            raise InvalidRecordError(f"{where}: the turn has no box; only the last turn of a "
                                     f"record may be unfinished")
        card = cards[turn.player]
        if card.is_full:
            raise InvalidRecordError(f"{where}: {turn.player}'s card is already full "
                                     f"({rules.n_boxes} turns played)")
        cards[turn.player] = _check_turn(turn, card, where)
    return cards


def _check_turn(turn: Turn, card: Scorecard, where: str) -> Scorecard:
    """Raise InvalidRecordError unless ``turn`` is legal on ``card``; the card after it."""
    rules = card.rules
    if not turn.rolls:
        raise InvalidRecordError(f"{where}: a turn starts with the dice of the first roll")
    if len(turn.rolls) > rules.rolls_per_turn:
        token = str(turn.rolls[rules.rolls_per_turn])
        raise InvalidRecordError(f"{where}, token {shown(token, 40)}: too many rolls; a turn "
                                 f"has at most {rules.rolls_per_turn} under rules {rules.name!r}")
    if not len(turn.rolls) - 1 <= len(turn.keeps) <= len(turn.rolls) or \
            (turn.box is not None and len(turn.keeps) != len(turn.rolls) - 1):
        raise InvalidRecordError(f"{where}: each reroll needs the dice kept and the dice "
                                 f"rolled ({' '.join(turn.tokens())})")
    for keep, roll in zip(turn.keeps, turn.rolls[1:], strict=False):
        if len(keep) >= DICE:
            raise InvalidRecordError(f"{where}, token {str(keep)!r}: a keep holds 0 to 4 dice")
        if not roll.contains(keep):
            raise InvalidRecordError(f"{where}, token {str(roll)!r}: the roll does not contain "
                                     f"the kept dice {keep}")
    for keep, roll in zip(turn.keeps, turn.rolls, strict=False):
        if not roll.contains(keep):
            raise InvalidRecordError(f"{where}, token {Move(keep=keep.faces).record_token()!r}:"
                                     f" the kept dice are not part of the roll {roll}")
    if turn.box is None:
        return card
    try:
        return card.place(turn.rolls[-1], turn.box)
    except YahtzeeError as exc:
        raise InvalidRecordError(f"{where}, token {shown(turn.box, 40)}: {exc}") from None


# ---------------------------------------------------------------------- parsing
def parse_record(text: str) -> GameRecord:
    """A checked record from its text or JSON form (a JSON object starts with ``{``); a
    leading byte-order mark (as Notepad writes) is skipped."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a record is text (its text or JSON form), not "
                                 f"{type(text).__name__}")
    text = text.removeprefix(_BOM)
    if is_json_form(text):
        return _parse_json(text)
    return _parse_text(text)


def is_json_form(text: str) -> bool:
    """True when ``text`` (without a byte-order mark) is a record's JSON form."""
    return text.lstrip().startswith("{")


def most_turns(players: int, rules: str) -> int:
    """The most turns a record of ``players`` players can hold: every card full."""
    return players * get_rules(rules).n_boxes


def _parse_text(text: str) -> GameRecord:
    rules_name = DEFAULT_RULES
    players: tuple[str, ...] | None = None
    raw: list[tuple[int, str | None, list[str]]] = []
    for number, full in enumerate(split_lines(text), start=1):
        line = full.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word.lower() in ("rules", "players") and ":" not in line:  # a turn has NAME:
            if raw:
                raise InvalidRecordError(f"line {number}: {shown(word, 40)} must come before "
                                         f"the turns")
            if word.lower() == "rules":
                rules_name = _field(number, rest, lambda v: get_rules(v.strip()).name)
            else:
                players = _field(number, rest,
                                 lambda v: check_names([n.strip() for n in v.split(",")]))
            continue
        if len(raw) > most_turns(len(players or ("",)), rules_name):  # the check names it
            raise InvalidRecordError(f"line {number}: a turn after every card is full "
                                     f"({len(raw)} turns before it)")
        name, colon, moves = line.partition(":")
        if colon:
            raw.append((number, name.strip(), moves.split()))
        else:
            raw.append((number, None, line.split()))
    rules = get_rules(rules_name)
    if players is None:
        named = [name for _, name, _ in raw if name is not None]
        players = (named[0],) if named else ("Player 1",)
        _field(0, players[0], lambda v: check_names([v]))
    turns = []
    for number, named_player, tokens in raw:
        if named_player is None and len(players) > 1:
            raise InvalidRecordError(f"line {number}: whose turn? write 'NAME: dice ...' "
                                     f"when there are several players")
        if not tokens:
            raise InvalidRecordError(f"line {number}: a turn needs the dice of the first roll")
        turns.append(_turn_from_tokens(number, named_player or players[0], tokens, rules.name))
    return _built(rules.name, players, turns)


def _turn_from_tokens(number: int, player: str, tokens: list[str], rules: str) -> Turn:
    """``ROLL {KEEP ROLL} [KEEP] [BOX]`` -> Turn; syntax only (rules checked by the record)."""
    rolls: list[Dice] = []
    keeps: list[Keep] = []
    box: str | None = None
    per_turn = get_rules(rules).rolls_per_turn
    for i, token in enumerate(tokens):
        where = f"line {number}, token {shown(token, 40)}"
        if box is not None:
            raise InvalidRecordError(f"{where}: nothing may follow the box {box}")
        expect_roll = len(rolls) == len(keeps)
        if expect_roll:
            if not token.isdigit():
                what = "the first roll" if i == 0 else "the dice rolled after a keep"
                raise InvalidRecordError(f"{where}: expected {what}, five faces such as 22256")
            if len(rolls) == per_turn:
                raise InvalidRecordError(f"{where}: too many rolls; a turn has at most "
                                         f"{per_turn} under rules {rules!r}")
            rolls.append(_parsed(where, Dice.parse, token))
        elif token == "-" or token.isdigit():
            move = _parsed(where, Move.keeping, token)
            if len(move.keep or ()) >= DICE:
                raise InvalidRecordError(f"{where}: a keep holds 0 to 4 dice (the dice "
                                         f"kept before a reroll)")
            keeps.append(Keep(move.keep or ()))
        else:
            box = _parsed(where, lambda t: Move.scoring(t, rules).box, token)
    return Turn(player, tuple(rolls), tuple(keeps), box, line=number)


def _parse_json(text: str) -> GameRecord:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # ValueError: also a 5000-digit number
        raise InvalidRecordError(f"the JSON record does not parse: {shown(exc, 120)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("turns", []), list):
        raise InvalidRecordError('a JSON record is an object {"rules": ..., "players": [...], '
                                 '"turns": [...]}')
    rules = _field(0, data.get("rules", DEFAULT_RULES),
                   lambda v: get_rules(_text(v, "rules")).name)
    players_raw = data.get("players", ["Player 1"])
    if not isinstance(players_raw, list) or not all(isinstance(p, str) for p in players_raw):
        raise InvalidRecordError('"players" is a list of names, e.g. ["Ann", "Bob"]')
    players = _field(0, players_raw, check_names)
    entries = data.get("turns", [])
    if len(entries) > most_turns(len(players), rules) + 1:  # one more: the check names it
        raise InvalidRecordError(f"turn {most_turns(len(players), rules) + 2}: a turn after "
                                 f"every card is full ({len(entries)} turns given)")
    per_turn = get_rules(rules).rolls_per_turn
    turns = []
    for i, entry in enumerate(entries):
        where = f"turn {i + 1} (turns[{i}])"
        if not isinstance(entry, dict):
            raise InvalidRecordError(f"{where}: a turn is an object with player, rolls, keeps, "
                                     f"box")
        player = entry.get("player", players[0] if len(players) == 1 else None)
        if not isinstance(player, str):
            raise InvalidRecordError(f"{where}: give the player's name")
        rolls, keeps, box = entry.get("rolls"), entry.get("keeps", []), entry.get("box")
        if not isinstance(rolls, list) or not isinstance(keeps, list) or \
                not all(isinstance(t, str) for t in [*rolls, *keeps]):
            raise InvalidRecordError(f'{where}: "rolls" and "keeps" are lists of dice text '
                                     f'such as "22256" and "222"')
        if len(rolls) > per_turn or len(keeps) > per_turn:
            raise InvalidRecordError(f"{where}: too many rolls; a turn has at most {per_turn} "
                                     f"under rules {rules!r}")
        rolled = tuple(_parsed(f"{where}, token {shown(t, 40)}", Dice.parse, t) for t in rolls)
        kept = tuple(Keep(_parsed(f"{where}, token {shown(t, 40)}", Move.keeping, t).keep or ())
                     for t in keeps)
        name = None
        if box is not None:
            name = _parsed(f"{where}, token {shown(box, 40)}",
                           lambda t: Move.scoring(_text(t, "box"), rules).box, box)
        turns.append(Turn(player, rolled, kept, name))
    return _built(rules, players, turns)


def _built(rules: str, players: Sequence[str], turns: Sequence[Turn]) -> GameRecord:
    try:
        return GameRecord(rules, tuple(players), tuple(turns))
    except InvalidRecordError:
        raise
    except YahtzeeError as exc:
        raise InvalidRecordError(str(exc)) from None


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidRecordError(f"{what} must be text, not {shown(value, 60)}")
    return value


def _parsed(where: str, parse: Any, token: Any) -> Any:
    """``parse(token)`` with any library error reworded to name the place."""
    try:
        return parse(token)
    except YahtzeeError as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None


def _field(number: int, value: Any, parse: Any) -> Any:
    return _parsed(f"line {number}" if number else "record", parse, value)
