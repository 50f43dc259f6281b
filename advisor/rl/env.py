"""A Gymnasium environment of Yahtzee whose every step reports its exact regret.

One episode is one game (13 turns under the official rules). Each step is one decision:
keep some dice and reroll the others, or fill a box (:mod:`solver.game.actions`).

Observation (a ``Dict``; integers, int64):

- ``card`` (n_boxes,): the points in each box, scorecard order, -1 while open;
- ``upper_subtotal``: the sum of the upper boxes (not capped at 63);
- ``yahtzee_box``: 0 open, 1 filled with 0, 2 holding 50 (later Yahtzees pay a bonus);
- ``dice`` (5,): the faces showing, 1 to 6, lowest first;
- ``rolls_left``: rolls still allowed this turn (0 after the last);
- ``opponent_totals`` (seats,), multi-player form only: each other seat's total after
  as many turns as the agent has finished.

Reward: the points the move adds to the card's total (a keep adds 0; a box adds its entry
and any upper or Yahtzee bonus it brings), so an episode's rewards sum to its final total.

``info`` after ``reset`` and after every ``step``: ``action_mask`` (int8, 1 for each legal
action), ``optimal_action`` (the first option of ``advise``; -1 once the game is over),
``value`` (the expected final score from here under optimal play) and ``total``. After
``reset``, ``luck`` is the luck of the first roll; after a ``step``, ``loss`` is the
expected points the move gave up against the best one (``advise``'s loss, 0 for an optimal
move) and ``luck`` the luck of the dice that followed (``analyze``'s luck: the value after
the roll minus the value before; 0 after the last box). Over any episode, whatever the
actions::

    final total = E(new game) + sum of luck - sum of loss

Seeding is the simulator's: ``reset(seed=s)`` plays game 0 of seed ``s``, and each later
``reset()`` the next game (1, 2, ...), with the dice ``yahtzee simulate --seed s`` deals.
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from solver.errors import IllegalMoveError, YahtzeeError, shown
from solver.game.actions import action_count, action_mask, action_of, describe, move_of
from solver.game.dice import DICE, FACES, KEEP_COUNTS, faces_of
from solver.game.rules import N_UPPER, get_rules
from solver.game.stream import MASK64, DiceStream
from solver.table import get_table

from ..caches import Caches
from ..model import Dice, Keep, Scorecard
from ..ranking import Advice, turn_advisor
from .opponents import Opponents, check_strategies

YAHTZEE_OPEN, YAHTZEE_ZERO, YAHTZEE_FIFTY = 0, 1, 2
"""The values of the observation's ``yahtzee_box``."""


class IllegalActionError(IllegalMoveError):
    """An action the mask forbids, or not an action at all."""


class YahtzeeEnv(gym.Env[dict[str, Any], np.int64]):
    """Solitaire Yahtzee under ``rules`` (a rule set name of ``yahtzee rules``); with
    ``opponents`` (built-in strategy names of ``yahtzee simulate``, one per other seat) the
    agent plays first in a game of ``1 + len(opponents)`` seats.

    Build it with ``gymnasium.make("yahtzee/Yahtzee-v0", rules="official")`` (see
    :mod:`advisor.rl`); the module docstring documents observations, actions, reward,
    ``info`` and seeding.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, rules: str = "official", *, opponents: Sequence[str] = (),
                 render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise YahtzeeError(f"render_mode {shown(render_mode, 20)}: use None or 'ansi'")
        self.rules = get_rules(rules)
        self.opponents = check_strategies(opponents)
        self.render_mode = render_mode
        self._open()
        self.observation_space = self._observation_space()
        self._actions = action_count(self.rules.n_boxes)
        self.action_space = spaces.Discrete(self._actions)
        self._seed: int | None = None
        self._game = 0
        self._clear()

    def _open(self) -> None:
        self.table = get_table(self.rules.name)
        self.memory = Caches()  # the environment's own: its turns' advisors, kept
        self._seats = Opponents(self.table, self.opponents) if self.opponents else None

    def _clear(self) -> None:
        """No game in play (before the first reset)."""
        self.card = Scorecard.new(self.rules)
        self.dice = Dice((1,) * DICE)
        self.rolls_left = 0
        self._stream: DiceStream | None = None
        self._advice: Advice | None = None
        self._mask = np.zeros(self._actions, dtype=np.int8)
        self._opponent_totals = np.zeros((len(self.opponents), self.rules.n_boxes + 1),
                                         dtype=np.int64)

    # ------------------------------------------------------------------ spaces
    def _observation_space(self) -> spaces.Dict:
        rules = self.rules
        highs = np.array([max(rules.possible_points(b)) for b in range(rules.n_boxes)],
                         dtype=np.int64)
        fields: dict[str, spaces.Space[Any]] = {
            "card": spaces.Box(-1, highs, shape=(rules.n_boxes,), dtype=np.int64),
            "upper_subtotal": spaces.Discrete(int(highs[:N_UPPER].sum()) + 1),
            "yahtzee_box": spaces.Discrete(3),
            "dice": spaces.MultiDiscrete([FACES] * DICE, start=[1] * DICE),
            "rolls_left": spaces.Discrete(rules.rolls_per_turn),
        }
        if self.opponents:
            bonuses = rules.yahtzee_bonus * (rules.n_boxes - 1) if rules.n_flags == 2 else 0
            most = int(highs.sum()) + rules.upper_bonus + bonuses
            fields["opponent_totals"] = spaces.Box(0, most, shape=(len(self.opponents),),
                                                   dtype=np.int64)
        return spaces.Dict(fields)

    # ------------------------------------------------------------------ the API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: game 0 of ``seed`` when given, else the next game of the seed."""
        if seed is not None:
            seed = _checked_seed(seed)
        _check_no_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._game = seed, 0
        elif self._seed is None:  # never seeded: a seed from Gymnasium's entropy
            self._seed, self._game = int(self.np_random.integers(0, 2**63)), 0
        else:
            self._game += 1
        self._clear()
        self._stream = DiceStream(self._seed, self._game)
        if self._seats is not None:
            self._opponent_totals = self._seats.totals(self._seed, self._game)
        self._start_turn()
        luck = self._decision().best.expected_final - self.table.expected_score
        return self._observation(), self._info(luck=luck)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action``; raises :class:`IllegalActionError` for an action the mask
        forbids (naming the decision) and ``gymnasium.error.ResetNeeded`` once the game
        is over."""
        advice = self._advice
        if advice is None or self._stream is None:
            raise gym.error.ResetNeeded("the game is over (or not started): call reset()")
        a = self._checked_action(action)
        move = move_of(a, self.dice, self.card)
        chosen = next(o for o in advice.options if o.move == move)
        loss = advice.best.expected_final - chosen.expected_final
        reward = 0
        if move.keep is not None:
            roll = self._stream.complete(Keep(move.keep).index)
            self.dice = Dice(faces_of(KEEP_COUNTS[roll]))
            self.rolls_left -= 1
        else:
            card = self.card.place(self.dice, move.box or "")
            reward = card.total - self.card.total
            self.card = card
            if not card.is_full:
                self._start_turn()
        terminated = self.card.is_full
        if terminated:
            self._advice = None
            self._mask = np.zeros(self._actions, dtype=np.int8)
            luck = 0.0  # no dice follow: chosen.expected_final is the final total
        else:
            luck = self._decision().best.expected_final - chosen.expected_final
        return self._observation(), float(reward), terminated, False, \
            self._info(loss=loss, luck=luck)

    def render(self) -> str | None:
        """The card, the dice and the rolls left as text (render mode ``ansi``)."""
        if self.render_mode != "ansi":
            return None
        card = self.card
        lines = [f"{box.name:>16} {'' if e is None else e}"
                 for box, e in zip(self.rules.boxes, card.entries, strict=True)]
        lines.append(f"{'total':>16} {card.total}")
        if not card.is_full:
            lines.append(f"dice {self.dice.spaced()}, {self.rolls_left} rolls left")
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ helpers
    @property
    def episode(self) -> tuple[int | None, int]:
        """(seed, game) of the current episode: the simulator's game ``game`` of ``seed``."""
        return self._seed, self._game

    def describe(self, action: int) -> str:
        """The action in words for the dice showing (``keep 222``, ``score twos``)."""
        return describe(self._checked_number(action), self.dice, self.card)

    def _start_turn(self) -> None:
        assert self._stream is not None
        self.dice = Dice(faces_of(KEEP_COUNTS[self._stream.complete(0)]))
        self.rolls_left = self.rules.rolls_per_turn - 1

    def _decision(self) -> Advice:
        """Advise the decision now showing; keep its advice and action mask."""
        advisor = turn_advisor(self.card, self.table, memory=self.memory)
        self._advice = advisor.advise(self.dice, self.rolls_left)
        self._mask = action_mask(self.card, self.dice, self.rolls_left)
        return self._advice

    def _checked_number(self, action: Any) -> int:
        try:
            a = None if isinstance(action, bool) else operator.index(action)
        except TypeError:
            a = None
        if a is None and isinstance(action, np.ndarray) and action.shape == () and \
                np.issubdtype(action.dtype, np.integer):
            a = int(action)
        if a is None or not 0 <= a < self._actions:
            raise IllegalActionError(f"action {repr(action)[:40]}: give an integer 0 to "
                                     f"{self._actions - 1} (see solver.game.actions)")
        return int(a)

    def _checked_action(self, action: Any) -> int:
        a = self._checked_number(action)
        if not self._mask[a]:
            legal = ", ".join(str(i) for i in np.flatnonzero(self._mask))
            raise IllegalActionError(
                f"action {a} ({describe(a, self.dice, self.card)}) is not legal at turn "
                f"{self.card.turn}, dice {self.dice}, {self.rolls_left} rolls left, card "
                f"[{self.card or 'empty'}]: legal actions are {legal}")
        return a

    def _observation(self) -> dict[str, Any]:
        card = self.card
        yahtzee = card.entries[self.rules.yahtzee_box]
        obs: dict[str, Any] = {
            "card": np.array([-1 if e is None else e for e in card.entries], dtype=np.int64),
            "upper_subtotal": np.int64(card.upper_subtotal),
            "yahtzee_box": np.int64(YAHTZEE_OPEN if yahtzee is None else
                                    YAHTZEE_FIFTY if yahtzee == 50 else YAHTZEE_ZERO),
            "dice": np.array(self.dice.faces, dtype=np.int64),
            "rolls_left": np.int64(self.rolls_left),
        }
        if self.opponents:
            obs["opponent_totals"] = self._opponent_totals[:, card.turn - 1].copy()
        return obs

    def _info(self, **figures: float) -> dict[str, Any]:
        advice = self._advice
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "optimal_action": -1 if advice is None else
            action_of(advice.best.move, self.dice, self.card),
            "value": float(self.card.total) if advice is None else advice.best.expected_final,
            "total": self.card.total,
            **{key: float(value) for key, value in figures.items()},
        }
        if self.opponents and self.card.is_full:
            info["final_totals"] = np.array([self.card.total,
                                             *self._opponent_totals[:, -1]], dtype=np.int64)
        return info

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        """Everything but the rule set (by name), the table and the cached advisors
        (reopened on unpickling, with empty caches)."""
        state = self.__dict__.copy()
        for key in ("table", "memory", "_seats", "_advice"):
            state.pop(key, None)
        state["rules"] = self.rules.name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.rules = get_rules(state["rules"])
        self._open()
        self._advice = None
        if self._stream is not None and not self.card.is_full:
            self._decision()


def _checked_seed(seed: Any) -> int:
    try:
        whole = None if isinstance(seed, bool) else operator.index(seed)
    except TypeError:
        whole = None
    if whole is None or not 0 <= whole <= MASK64:
        raise YahtzeeError(f"the seed must be an integer in 0..2**64-1, not {shown(seed, 40)}")
    return whole


def _check_no_options(options: object) -> None:
    """``reset``'s ``options``: None or an empty dict (the environment takes none), else
    :class:`~solver.errors.YahtzeeError` (a ValueError) naming what was given."""
    if options is None:
        return
    if not isinstance(options, Mapping):
        raise YahtzeeError(f"reset's options are a dict (the environment takes none) or "
                           f"None, not {type(options).__name__} {reprlib.repr(options)}")
    if options:
        names = ", ".join(shown(key, 30) for key in list(options)[:5])
        raise YahtzeeError(f"reset takes no options, not {names}"
                           f"{' ...' if len(options) > 5 else ''}")
