"""A tournament's field: the distribution of the other players' final scores.

In a blind tournament (each player plays a game alone, the highest final score wins) the
others' final scores are independent draws from one distribution, the field's:

- a built-in strategy whose exact final-score distribution is computed
  (:data:`EXACT_STRATEGIES`: ``optimal``, expected-score play, the default; its
  new-game distribution, :func:`solver.stats_file.new_game_stats`);
- observed final scores (a real tournament's), read from a text file as an empirical
  distribution (:func:`read_scores`): whole numbers separated by whitespace and/or
  commas, ``#`` to the end of a line a comment; at most :data:`MAX_SCORES` scores in a
  file of at most :data:`MAX_BYTES` bytes, each 0 to the rule set's highest score.
"""

from __future__ import annotations

import re
import reprlib
from collections import Counter
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from .errors import FieldError, ReadError, shown, shown_path
from .formats.files import read_limited
from .game.rules import RuleSet
from .stats import highest_score
from .stats_file import new_game_stats
from .table import Table

EXACT_STRATEGIES = ("optimal",)
"""The built-in strategies whose exact final-score distribution the project computes
(the others, greedy, greedy-turn and heuristic, are only simulated)."""
DEFAULT_STRATEGY = "optimal"
MAX_BYTES = 8 << 20
MAX_SCORES = 1_000_000
MAX_PLAYERS = 100_000
"""The most players of a tournament (the largest daily online tournaments have about
10,000)."""


def check_players(players: object) -> int:
    """``players`` as an int when it is a whole number 2 to :data:`MAX_PLAYERS` (not a
    bool; numpy's integers too), else a :class:`~solver.errors.FieldError`."""
    if isinstance(players, bool) or not isinstance(players, Integral) \
            or not 2 <= int(players) <= MAX_PLAYERS:
        raise FieldError(f"players {shown(players, 40)}: a tournament has 2 to "
                         f"{MAX_PLAYERS:,} players in all (you included)")
    return int(players)


_SEPARATORS = re.compile(r"[\s,]+")
_DIGITS = re.compile(r"[0-9]{1,9}")


@dataclass(frozen=True)
class Field:
    """The others' final-score distribution: ``strategy`` (one of
    :data:`EXACT_STRATEGIES`) or ``counts``, ``(score, times seen)`` pairs in score order
    (observed scores)."""

    strategy: str | None = DEFAULT_STRATEGY
    counts: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of_strategy(cls, name: str) -> Field:
        """The field of a built-in strategy; one whose exact distribution is not computed
        is refused, naming the accepted ones."""
        key = name.strip().lower() if isinstance(name, str) else name
        if key not in EXACT_STRATEGIES:
            raise FieldError(f"field strategy {shown(name, 40)}: the exact final-score "
                             f"distribution is computed for {', '.join(EXACT_STRATEGIES)} "
                             f"only (for another field give its observed scores with "
                             f"--field-scores FILE)")
        return cls(key)

    @classmethod
    def of_scores(cls, scores: list[int] | np.ndarray, rules: RuleSet) -> Field:
        """The empirical field of observed final scores (whole numbers 0 to the highest
        score of ``rules``; at least one)."""
        values = [int(s) for s in scores]
        if not values:
            raise FieldError("a field of observed scores needs at least one score")
        if len(values) > MAX_SCORES:
            raise FieldError(f"{len(values):,} scores: a field takes at most "
                             f"{MAX_SCORES:,}")
        top = highest_score(rules)
        bad = next((s for s in values if not 0 <= s <= top), None)
        if bad is not None:
            raise FieldError(f"score {bad}: a final score is 0 to {top} under rules "
                             f"{rules.name!r}")
        return cls(None, tuple(sorted(Counter(values).items())))

    @classmethod
    def from_json(cls, data: Any, rules: RuleSet) -> Field:
        """The field of its :meth:`to_json` form."""
        if isinstance(data, str):
            return cls.of_strategy(data)
        if isinstance(data, dict) and set(data) == {"scores"} and isinstance(data["scores"],
                                                                             dict):
            scores: list[int] = []
            for score, times in data["scores"].items():
                if not (isinstance(score, str) and _DIGITS.fullmatch(score)
                        and isinstance(times, int) and not isinstance(times, bool)
                        and 1 <= times <= MAX_SCORES and len(scores) + times <= MAX_SCORES):
                    raise FieldError(f"field scores: {shown(score, 20)}: give a score's "
                                     f"times seen, 1 to {MAX_SCORES:,}")
                scores += [int(score)] * times
            return cls.of_scores(scores, rules)
        raise FieldError(f"field {shown(reprlib.repr(data), 60)}: give a strategy's name (e.g. "
                         f"\"optimal\") or {{\"scores\": {{\"SCORE\": TIMES, ...}}}}")

    def to_json(self) -> str | dict[str, Any]:
        """``"optimal"``, or ``{"scores": {"251": 3, ...}}`` (each score and how often it
        was seen)."""
        if self.strategy is not None:
            return self.strategy
        return {"scores": {str(score): times for score, times in self.counts}}

    def describe(self) -> str:
        """``expected-score play`` or ``1,234 observed scores``."""
        if self.strategy is not None:
            return "expected-score play" if self.strategy == "optimal" else self.strategy
        seen = sum(times for _, times in self.counts)
        return f"{seen:,} observed score{'s' if seen > 1 else ''}"

    def __str__(self) -> str:
        if self.strategy is not None:
            return self.strategy
        return f"scores({sum(t for _, t in self.counts)})"

    def distribution(self, table: Table) -> np.ndarray:
        """P(other's final score = x), x = 0..: the exact new-game distribution of the
        strategy, or the observed scores' frequencies."""
        if self.strategy is not None:
            return new_game_stats(table).distribution
        top = highest_score(table.rules)
        if self.counts[-1][0] > top:
            raise FieldError(f"score {self.counts[-1][0]}: a final score is 0 to {top} "
                             f"under rules {table.rules.name!r}")
        dist = np.zeros(self.counts[-1][0] + 1)
        seen = sum(times for _, times in self.counts)
        for score, times in self.counts:
            dist[score] = times / seen
        return dist


def read_scores(path: Path | str, rules: RuleSet) -> Field:
    """The field of the observed final scores in the text file at ``path`` (see the
    module docstring); a file too large, not text, empty or with anything but whole
    numbers 0 to the highest score raises :class:`~solver.errors.FieldError`."""
    try:
        data = read_limited(path, MAX_BYTES, "file of scores")
    except ReadError as exc:
        raise FieldError(str(exc)) from None
    except OSError as exc:
        raise FieldError(f"cannot read {shown_path(path)}: {exc.strerror or exc}") from None
    if b"\0" in data:
        raise FieldError(f"{shown_path(path)} is not text (a binary file): give final "
                         f"scores, one per line or separated by spaces or commas")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FieldError(f"{shown_path(path)} is not UTF-8 text: give final scores, one "
                         f"per line or separated by spaces or commas") from None
    scores: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for token in _SEPARATORS.split(line.split("#", 1)[0]):
            if not token:
                continue
            if not _DIGITS.fullmatch(token):
                raise FieldError(f"{shown_path(path)} line {number}: {shown(token, 20)} is "
                                 f"not a final score (a whole number, 0 or more, in ASCII "
                                 f"digits)")
            scores.append(int(token))
            if len(scores) > MAX_SCORES:
                raise FieldError(f"{shown_path(path)}: more than {MAX_SCORES:,} scores")
    if not scores:
        raise FieldError(f"{shown_path(path)} holds no score: give final scores, one per "
                         f"line or separated by spaces or commas")
    try:
        return Field.of_scores(scores, rules)
    except FieldError as exc:
        raise FieldError(f"{shown_path(path)}: {exc}") from None
