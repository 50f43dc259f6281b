"""The tests' oracles: what the code is checked against, written apart from it (the
independent scorer from the rule book, the plain-Python twins of the solver, the target
DP and the why, the figures the README prints)."""
