"""The cross-fitted control-variate estimate (solver.simulate.control) against a direct per-game
computation, and its limits."""

from __future__ import annotations

import numpy as np
import pytest

from solver.simulate.control import MIN_FIT, N_FOLDS, cross_fitted, fold_sums, sums_width


def _direct(loss: np.ndarray, x: np.ndarray) -> tuple[float, float]:
    """The twin: each fold's slope fitted on the other folds' games (numpy least squares
    with an intercept), every game's value D - X . beta, their mean and standard error."""
    n = loss.shape[0]
    fold = np.arange(n) % N_FOLDS
    values = np.empty(n)
    for f in range(N_FOLDS):
        train = fold != f
        design = np.column_stack([np.ones(train.sum()), x[train]])
        beta = np.linalg.lstsq(design, loss[train], rcond=None)[0][1:]
        if train.sum() < MIN_FIT:
            beta[:] = 0.0
        values[fold == f] = loss[fold == f] - x[fold == f] @ beta
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(n))


def _sample(n: int, p: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, p)) * rng.uniform(0.5, 5.0, size=p)
    loss = 30.0 + x @ rng.normal(size=p) + rng.gamma(2.0, 3.0, size=n)
    return loss, x


@pytest.mark.parametrize("n", [1001, 4000])
def test_the_sums_give_what_the_games_give(n):
    loss, x = _sample(n, 9, seed=n)
    # added batch by batch, from game 0 (uneven batches: the folds follow the game index)
    sums = sum(fold_sums(a, loss[a:a + 333], x[a:a + 333]) for a in range(0, n, 333))
    assert sums.shape == (N_FOLDS, sums_width(9))
    mean, se, betas = cross_fitted(sums, 9)
    want_mean, want_se = _direct(loss, x)
    assert mean == pytest.approx(want_mean, rel=1e-10)
    assert se == pytest.approx(want_se, rel=1e-7)
    assert betas.shape == (N_FOLDS, 9)
    assert se < 0.6 * loss.std(ddof=1) / np.sqrt(n)  # the noise left: 4.2 of 7.7


def test_a_loss_the_controls_explain_leaves_no_error():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2000, 4))
    loss = 12.5 + x @ np.array([1.0, -2.0, 0.5, 3.0])
    mean, se, _ = cross_fitted(fold_sums(0, loss, x), 4)
    assert mean == pytest.approx(12.5, abs=1e-9)
    # The standard error comes from sums of squares (nothing per game is kept), so a zero
    # spread is resolved only to about sqrt(eps * mean(D^2) / n), 4.4e-9 here (3.8e-9
    # with numpy 2.4's matrix products): 10 times that, where the plain one is 0.09.
    resolution = np.sqrt(np.finfo(float).eps * np.mean(loss**2) / loss.shape[0])
    assert se < 10 * resolution
    assert loss.std(ddof=1) / np.sqrt(loss.shape[0]) > 1e6 * resolution


def test_few_games_or_no_loss_fit_nothing():
    loss, x = _sample(2 * MIN_FIT - 2, 3, seed=1)
    mean, se, betas = cross_fitted(fold_sums(0, loss, x), 3)
    assert not betas.any()
    assert mean == pytest.approx(loss.mean())
    assert se == pytest.approx(loss.std(ddof=1) / np.sqrt(loss.shape[0]))
    zero = np.zeros(5000)
    mean, se, betas = cross_fitted(fold_sums(0, zero, _sample(5000, 3, seed=2)[1]), 3)
    assert (mean, se) == (0.0, 0.0) and not betas.any()


@pytest.mark.parametrize("n", [399, 400, 401])
def test_a_slope_is_fitted_from_exactly_200_games_of_the_other_fold(n):
    """The documented minimum (200 games per fold), at and around it: with 399 games the
    odd fold (199 games) fits no slope and the even fold's slope, fitted on the odd
    games, is 0; the odd fold's, fitted on 200 even games, is not. From 400 both fit."""
    loss, x = _sample(n, 3, seed=n)
    _, _, betas = cross_fitted(fold_sums(0, loss, x), 3)
    even_games, odd_games = (n + 1) // 2, n // 2
    assert betas[0].any() == (odd_games >= 200)  # fold 0's slope: fitted on fold 1
    assert betas[1].any() == (even_games >= 200)
    for f, others in ((0, odd_games), (1, even_games)):
        if others >= 200:  # fitted: the least-squares slope of the other fold's games
            train = np.arange(n) % N_FOLDS != f
            design = np.column_stack([np.ones(others), x[train]])
            want = np.linalg.lstsq(design, loss[train], rcond=None)[0][1:]
            np.testing.assert_allclose(betas[f], want, rtol=1e-9)
