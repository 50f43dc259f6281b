"""Yahtzee as a Gymnasium environment with exact regret (``pip install yahtzee-solver[rl]``).

::

    import gymnasium
    env = gymnasium.make("yahtzee/Yahtzee-v0", rules="official")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(info["optimal_action"])

Importing this module registers the id (:func:`register_envs`, also the package's entry
point in Gymnasium's plugin group ``gymnasium.envs``, which Gymnasium read on import up to
0.29; 1.x does not, so import this module or name it in the id:
``gymnasium.make("advisor.rl:yahtzee/Yahtzee-v0")``). See docs/rl.md and
:mod:`advisor.rl.env` for the observation, the actions, the reward and ``info``.
"""

from __future__ import annotations

ENV_ID = "yahtzee/Yahtzee-v0"
ENTRY_POINT = "advisor.rl.env:YahtzeeEnv"


def register_envs() -> None:
    """Register ``yahtzee/Yahtzee-v0`` with Gymnasium (again: a no-op)."""
    try:
        import gymnasium
    except ImportError as exc:  # the optional extra is not installed
        raise ImportError("the Gymnasium environment needs gymnasium: "
                          "pip install 'yahtzee-solver[rl]'") from exc
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT,
                           kwargs={"rules": "official"})


register_envs()
