"""The numba kernels: plain arrays and a rule set's ``RuleArrays`` in, nothing checked
(the drivers in :mod:`solver` check the input). ``basics``: the pieces every kernel
shares; ``expected``: the expected-score solver; ``target``: the target / win DP;
``policy``: one turn played by a fixed policy; ``stats``, ``simulate`` and
``simulate_target``: the exact statistics and the simulators built on it."""
