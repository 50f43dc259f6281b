"""The Gymnasium environment (advisor.rl): steps per second.

- one environment in this process, a random masked agent and the optimal agent (every
  step advises the decision it leads to, for ``optimal_action``, ``loss`` and ``luck``);
- ``AsyncVectorEnv`` of 2 environments in 2 processes, the optimal agent (the ratio to
  one environment says what the second core adds; the machine's load is printed).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _fresh import load_average

EPISODES = 300
VECTOR_STEPS = 6000


def make():  # noqa: ANN201
    import gymnasium

    return gymnasium.make("advisor.rl:yahtzee/Yahtzee-v0")


def episodes(env, choose, n: int) -> tuple[int, float]:  # noqa: ANN001
    """(steps, seconds) of ``n`` episodes."""
    steps, start = 0, time.perf_counter()
    obs, info = env.reset(seed=1)
    for episode in range(n):
        if episode:
            obs, info = env.reset()
        done = False
        while not done:
            obs, _, done, _, info = env.step(choose(obs, info))
            steps += 1
    return steps, time.perf_counter() - start


def main() -> int:
    import gymnasium

    env = make()
    env.action_space.seed(0)
    episodes(env, lambda obs, info: info["optimal_action"], 5)  # warm: kernels, table
    print(f"load average before: {load_average()}")
    agents = {"random": lambda obs, info: env.action_space.sample(mask=info["action_mask"]),
              "optimal": lambda obs, info: info["optimal_action"]}
    single = 0.0
    for name, choose in agents.items():
        steps, seconds = episodes(env, choose, EPISODES)
        single = steps / seconds
        print(f"one env, {name:<8} agent: {EPISODES} episodes, {steps:,} steps "
              f"{seconds:6.2f} s {steps / seconds:>8,.0f} steps/s "
              f"{EPISODES / seconds:>6,.1f} episodes/s")
    vector = gymnasium.vector.AsyncVectorEnv([make, make])
    try:
        obs, info = vector.reset(seed=0)
        obs, _, _, _, info = vector.step(info["optimal_action"])  # warm
        start = time.perf_counter()
        for _ in range(VECTOR_STEPS // 2):
            action = np.maximum(info["optimal_action"], 0)  # ignored on an autoreset step
            obs, _, _, _, info = vector.step(action)
        seconds = time.perf_counter() - start
    finally:
        vector.close()
    rate = VECTOR_STEPS / seconds
    print(f"AsyncVectorEnv, 2 processes, optimal agent: {VECTOR_STEPS:,} steps {seconds:6.2f} s "
          f"{rate:>8,.0f} steps/s ({rate / single:.2f}x one env)")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
