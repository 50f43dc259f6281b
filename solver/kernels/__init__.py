"""The numba kernels: plain arrays and a rule set's ``RuleArrays`` in, nothing checked
(the drivers in :mod:`solver` check the input). ``basics``: the pieces every kernel
shares; ``turn``: the one turn engine (a state's plan, the rerolls); ``level``: a level's
stored values; ``expected``: the expected-score solver; ``target``: the target / win DP;
``policy``: one turn played by a fixed policy; ``stats``, ``moments``, ``simulate`` and
``simulate_target``: the exact statistics and the simulators built on it; ``judge``:
played games judged against optimal play; ``batch``: batch strategies in lockstep;
``stream`` and ``trace``: the game layer's dice stream and trace layout, compiled."""
