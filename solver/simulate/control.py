"""The simulator's luck-corrected estimate with control variates, cross-fitted.

Per game ``i``: ``D_i``, its total loss against optimal play, and ``X_i`` (p,), control
variates whose mean is exactly 0 whatever the strategy (the luck of its rolls under
several value functions, :mod:`solver.simulate.judge`). The estimate of the strategy's expected
score is the mean over games of

    Z_i = E(new game) - D_i + X_i . beta_f(i)

where game ``i`` is in fold ``f(i) = i mod N_FOLDS`` and ``beta_f`` is the least-squares
slope of ``D`` on ``X`` (with an intercept) fitted on the games of the *other* folds.
``beta_f`` does not depend on game ``i``'s dice, so E[X_i . beta_f] = E[X_i] . E[beta_f]
= 0 and each Z_i has mean exactly ``E(new game) - E[D]``, the strategy's expected score:
the estimate is unbiased for any number of games. Its standard error is the sample
standard deviation of the Z_i over sqrt(games). With fewer than ``MIN_FIT`` games per
slope fitted, beta is 0 (the estimate is ``E(new game) - mean D``).

Nothing per game is kept: each batch of games adds its sums per fold (:func:`fold_sums`),
and the estimate is drawn from their totals (:func:`cross_fitted`).
"""

from __future__ import annotations

import numpy as np

N_FOLDS = 2
MIN_FIT = 200
"""Fewest games a slope is fitted on; below it beta is 0."""


def sums_width(p: int) -> int:
    """Length of one fold's sums for ``p`` control variates: games, sum D, sum D^2,
    sum X (p), sum X D (p), sum X X^T (p p)."""
    return 3 + 2 * p + p * p


def fold_sums(first: int, loss: np.ndarray, controls: np.ndarray) -> np.ndarray:
    """(N_FOLDS, sums_width(p)) sums of games ``first ..`` (``loss`` (n,) total losses,
    ``controls`` (n, p)), split by fold (game index mod N_FOLDS)."""
    n, p = controls.shape
    out = np.zeros((N_FOLDS, sums_width(p)))
    fold = (first + np.arange(n)) % N_FOLDS
    for f in range(N_FOLDS):
        d, x = loss[fold == f], controls[fold == f]
        out[f] = np.concatenate([[d.shape[0], d.sum(), d @ d], x.sum(axis=0), d @ x,
                                 (x.T @ x).ravel()])
    return out


def _parts(sums: np.ndarray, p: int) -> tuple[float, float, float, np.ndarray, np.ndarray,
                                              np.ndarray]:
    n, sd, sdd = sums[0], sums[1], sums[2]
    return (n, sd, sdd, sums[3:3 + p], sums[3 + p:3 + 2 * p],
            sums[3 + 2 * p:].reshape(p, p))


def slope(sums: np.ndarray, p: int) -> np.ndarray:
    """(p,) least-squares slope of D on X (with an intercept) from one set of sums;
    zeros below ``MIN_FIT`` games or when D does not vary with X."""
    n, sd, _, sx, sxd, sxx = _parts(sums, p)
    if n < MIN_FIT:
        return np.zeros(p)
    cxx = sxx - np.outer(sx, sx) / n
    cxd = sxd - sx * sd / n
    if not cxd.any():
        return np.zeros(p)
    return np.linalg.lstsq(cxx, cxd, rcond=None)[0]


def cross_fitted(sums: np.ndarray, p: int) -> tuple[float, float, np.ndarray]:
    """(mean of D_i - X_i . beta_f(i), its standard error, the slopes (N_FOLDS, p)) from
    the folds' total ``sums`` (N_FOLDS, sums_width(p)); the corrected mean is
    ``E(new game)`` minus the first."""
    total = sums.sum(axis=0)
    betas = np.stack([slope(total - sums[f], p) for f in range(N_FOLDS)])
    n = s1 = s2 = 0.0
    for f in range(N_FOLDS):
        nf, sd, sdd, sx, sxd, sxx = _parts(sums[f], p)
        b = betas[f]
        n += nf
        s1 += sd - sx @ b
        s2 += sdd - 2.0 * (b @ sxd) + b @ sxx @ b
    mean = s1 / n
    var = max(0.0, (s2 - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return float(mean), float(np.sqrt(var / n)), betas
