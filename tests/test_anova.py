"""Tests of mlnotes.anova against scipy and statsmodels, plus the chapter's identities."""
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.multitest import multipletests

from mlnotes import anova, linear

SIZES = [((5, 7, 4), 0), ((10, 10, 10, 10), 1), ((30, 12, 50, 8, 20), 2)]  # (group sizes, seed)


def _groups(sizes, seed, shift=0.0):
    rng = np.random.default_rng(seed)
    return [rng.normal(0.3 * i, 1.0, n) + shift for i, n in enumerate(sizes)]


# -------------------------------------------------------------------- one-way layout
@pytest.mark.parametrize("sizes, seed", SIZES)
def test_one_way_matches_scipy_f_oneway(sizes, seed):
    g = _groups(sizes, seed)
    res, ref = anova.one_way_anova(g), scipy.stats.f_oneway(*g)
    assert res.F == pytest.approx(ref.statistic, rel=1e-10)
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-14)
    assert (res.df_between, res.df_within) == (len(sizes) - 1, sum(sizes) - len(sizes))


@pytest.mark.parametrize("sizes, seed", SIZES)
def test_ss_identity_and_shift_invariance(sizes, seed):
    g = _groups(sizes, seed)
    res = anova.one_way_anova(g)
    pooled = np.concatenate(g)
    assert res.ss_between + res.ss_within == pytest.approx(np.sum((pooled - pooled.mean()) ** 2), rel=1e-12)
    far = anova.one_way_anova(_groups(sizes, seed, shift=1e6))
    assert far.F == pytest.approx(res.F, rel=1e-6)


def test_expected_mean_squares_balanced_closed_form_and_simulation():
    alpha, sigma, J = np.array([1.0, -0.5, -0.5]), 2.0, 5
    ems = anova.expected_mean_squares(alpha, sigma, J)
    assert ems.between == pytest.approx(sigma**2 + J * np.sum(alpha**2) / 2)
    assert ems.within == sigma**2
    rng = np.random.default_rng(3)
    reps = 20000
    Y = alpha[None, :, None] + sigma * rng.standard_normal((reps, 3, J))
    means = Y.mean(axis=2)
    ms_b = J * np.sum((means - means.mean(axis=1, keepdims=True)) ** 2, axis=1) / 2
    # 4 Monte Carlo standard errors
    assert abs(ms_b.mean() - ems.between) < 4 * ms_b.std() / np.sqrt(reps)


def test_expected_mean_squares_unequal_sizes_uses_weighted_mean_effect():
    alpha, J = np.array([1.0, 0.0, -1.0]), np.array([2, 5, 20])
    ems = anova.expected_mean_squares(alpha, 1.0, J)
    abar = np.sum(J * alpha) / J.sum()
    assert ems.between == pytest.approx(1 + np.sum(J * (alpha - abar) ** 2) / 2)
    # invariant under a common shift of the effects
    assert anova.expected_mean_squares(alpha + 3.0, 1.0, J).between == pytest.approx(ems.between)


# -------------------------------------------------------------- multiple comparisons
@pytest.mark.parametrize("sizes, seed", SIZES)
def test_tukey_matches_scipy_tukey_hsd(sizes, seed):
    g = _groups(sizes, seed)
    res = anova.tukey_intervals(g, alpha=0.05)
    ci = scipy.stats.tukey_hsd(*g).confidence_interval(0.95)
    i, k = res.pairs.T
    np.testing.assert_allclose(res.low, ci.low[i, k], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(res.high, ci.high[i, k], rtol=1e-6, atol=1e-9)


def test_tukey_balanced_half_width_is_q_sp_over_sqrt_J():
    g = _groups((6, 6, 6, 6), 4)
    res = anova.tukey_intervals(g, alpha=0.1)
    I, J = 4, 6
    s_p = np.sqrt(anova.one_way_anova(g).ss_within / (I * (J - 1)))
    q = scipy.stats.studentized_range.ppf(0.9, I, I * (J - 1))
    np.testing.assert_allclose((res.high - res.low) / 2, q * s_p / np.sqrt(J), rtol=1e-10)


@pytest.mark.parametrize("sizes, seed", SIZES)
def test_bonferroni_agrees_with_multipletests(sizes, seed):
    g = _groups(sizes, seed)
    res = anova.bonferroni_intervals(g, alpha=0.05)
    one = anova.one_way_anova(g)
    s_p = np.sqrt(one.ss_within / one.df_within)
    n = np.array(sizes)
    i, k = res.pairs.T
    t = res.diff / (s_p * np.sqrt(1 / n[i] + 1 / n[k]))
    p = 2 * scipy.stats.t.sf(np.abs(t), one.df_within)
    reject = multipletests(p, alpha=0.05, method="bonferroni")[0]
    assert np.array_equal(reject, (res.low > 0) | (res.high < 0))


def test_bonferroni_wider_than_tukey_for_all_pairs():
    g = _groups((8, 8, 8, 8, 8), 5)
    tb, tk = anova.bonferroni_intervals(g), anova.tukey_intervals(g)
    assert np.all(tb.high - tb.low > tk.high - tk.low)


# ------------------------------------------------------------------------ rank tests
@pytest.mark.parametrize("sizes, seed", SIZES)
def test_kruskal_wallis_matches_scipy(sizes, seed):
    g = _groups(sizes, seed)
    res, ref = anova.kruskal_wallis(g), scipy.stats.kruskal(*g)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-14)
    # the hand formula with -3(N + 1), not the notes' -3(N - 1)
    N = sum(sizes)
    pooled = np.concatenate(g)
    ranks = np.split(scipy.stats.rankdata(pooled), np.cumsum(sizes)[:-1])
    hand = 12 / (N * (N + 1)) * sum(len(r) * r.mean() ** 2 for r in ranks) - 3 * (N + 1)
    assert res.statistic == pytest.approx(hand, rel=1e-10)


def test_kruskal_wallis_with_ties_matches_scipy():
    g = [np.round(x) for x in _groups((12, 9, 15), 6)]
    assert anova.kruskal_wallis(g).statistic == pytest.approx(scipy.stats.kruskal(*g).statistic, rel=1e-10)


@pytest.mark.parametrize("shape, seed", [((3, 5), 0), ((4, 12), 1), ((6, 30), 2)])
def test_friedman_matches_scipy(shape, seed):
    Y = np.random.default_rng(seed).standard_normal(shape)
    res, ref = anova.friedman(Y), scipy.stats.friedmanchisquare(*Y)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    Yt = np.round(Y)                                  # ties within blocks
    assert anova.friedman(Yt).statistic == pytest.approx(scipy.stats.friedmanchisquare(*Yt).statistic, rel=1e-10)


# -------------------------------------------------------------------- two-way layout
def _frame(Y):
    I, J, K = Y.shape
    a, b, _ = np.meshgrid(np.arange(I), np.arange(J), np.arange(K), indexing="ij")
    return pd.DataFrame({"y": Y.ravel(), "a": a.ravel(), "b": b.ravel()})


@pytest.mark.parametrize("shape, seed", [((2, 3, 2), 0), ((3, 4, 5), 1), ((4, 2, 3), 2)])
def test_two_way_matches_statsmodels_anova_lm(shape, seed):
    rng = np.random.default_rng(seed)
    Y = rng.standard_normal(shape) + np.arange(shape[0])[:, None, None] * 0.5
    res = anova.two_way_anova(Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = anova_lm(smf.ols("y ~ C(a) * C(b)", _frame(Y)).fit(), typ=2)
    np.testing.assert_allclose(res.ss, table["sum_sq"].to_numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.F, table["F"].to_numpy()[:3], rtol=1e-9)
    np.testing.assert_allclose(res.p_value, table["PR(>F)"].to_numpy()[:3], rtol=1e-7, atol=1e-14)
    assert res.ss.sum() == pytest.approx(res.ss_total, rel=1e-12)


def test_two_way_effects_satisfy_constraints_and_fit_cell_means():
    Y = np.random.default_rng(7).standard_normal((3, 4, 2))
    r = anova.two_way_anova(Y)
    np.testing.assert_allclose([r.alpha.sum(), r.beta.sum()], 0, atol=1e-12)
    np.testing.assert_allclose(r.delta.sum(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(r.delta.sum(axis=1), 0, atol=1e-12)
    fitted = r.mu + r.alpha[:, None] + r.beta[None, :] + r.delta
    np.testing.assert_allclose(fitted, Y.mean(axis=2), atol=1e-12)


def test_randomised_block_matches_additive_anova_lm():
    Y = np.random.default_rng(8).standard_normal((4, 6)) + np.arange(6)[None, :]
    r = anova.two_way_anova(Y)
    assert r.sources == ("A", "B", "AB")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = anova_lm(smf.ols("y ~ C(a) + C(b)", _frame(Y[:, :, None])).fit(), typ=2)
    np.testing.assert_allclose(r.ss, table["sum_sq"].to_numpy(), rtol=1e-9)
    np.testing.assert_allclose(r.F, table["F"].to_numpy()[:2], rtol=1e-9)


# ------------------------------------------------------------------ design matrices
def test_design_matrix_2x2_sum_coding_is_the_notes_matrix():
    a, b = np.repeat([0, 0, 1, 1], 2), np.repeat([0, 1, 0, 1], 2)
    X = anova.anova_design_matrix(a, b, coding="sum", interaction=True)
    notes = np.array([[1, -1, -1, 1]] * 2 + [[1, -1, 1, -1]] * 2 + [[1, 1, -1, -1]] * 2 + [[1, 1, 1, 1]] * 2)
    np.testing.assert_array_equal(X, notes)
    full = anova.anova_design_matrix(a, b, coding="indicator", interaction=True)
    assert full.shape == (8, 9) and np.linalg.matrix_rank(full) == 4


@pytest.mark.parametrize("coding", ["sum", "treatment"])
def test_design_matrix_fit_reproduces_two_way_effects(coding):
    rng = np.random.default_rng(9)
    I, J, K = 3, 4, 2
    Y = rng.standard_normal((I, J, K))
    a, b, _ = np.meshgrid(np.arange(I), np.arange(J), np.arange(K), indexing="ij")
    X = anova.anova_design_matrix(a.ravel(), b.ravel(), coding=coding, interaction=True)
    assert X.shape == (I * J * K, I * J)
    beta = linear.least_squares(X, Y.ravel())
    np.testing.assert_allclose((X @ beta).reshape(I, J, K), np.repeat(Y.mean(axis=2)[:, :, None], K, 2), atol=1e-10)
    r = anova.two_way_anova(Y)
    if coding == "sum":
        np.testing.assert_allclose(beta[0], r.mu, atol=1e-10)
        np.testing.assert_allclose(beta[1:I], r.alpha[1:], atol=1e-10)
        np.testing.assert_allclose(beta[I:I + J - 1], r.beta[1:], atol=1e-10)
    else:
        np.testing.assert_allclose(beta[0], Y[0, 0].mean(), atol=1e-10)


def test_design_matrix_one_way_and_bad_inputs():
    lv = np.array([0, 1, 2, 2, 1, 0, 2])
    assert anova.anova_design_matrix(lv).shape == (7, 3)
    assert anova.anova_design_matrix(lv, coding="indicator").shape == (7, 4)
    with pytest.raises(ValueError, match="levels_a"):
        anova.anova_design_matrix(np.array([0, 2, 2]))         # level 1 missing
    with pytest.raises(ValueError, match="levels_b"):
        anova.anova_design_matrix(lv, lv[:-1])
    with pytest.raises(ValueError, match="interaction"):
        anova.anova_design_matrix(lv, interaction=True)


# -------------------------------------------------------------------------- bad inputs
def test_group_checks():
    with pytest.raises(ValueError, match="groups"):
        anova.one_way_anova([np.ones(3)])
    with pytest.raises(ValueError, match=r"groups\[1\]"):
        anova.one_way_anova([np.arange(3.0), np.array([1.0, np.nan])])
    with pytest.raises(ValueError, match=r"groups\[0\]"):
        anova.tukey_intervals([np.array([1.0]), np.arange(3.0)])
    with pytest.raises(ValueError, match="constant"):
        anova.one_way_anova([np.ones(3), np.zeros(3)])
    with pytest.raises(ValueError, match="alpha"):
        anova.tukey_intervals(_groups((4, 4), 0), alpha=1.0)
    with pytest.raises(ValueError, match="Y"):
        anova.two_way_anova(np.ones((1, 3, 2)))
    with pytest.raises(ValueError, match="Y"):
        anova.friedman(np.ones((3, 4)))
    with pytest.raises(ValueError, match="J"):
        anova.expected_mean_squares([1.0, -1.0], 1.0, [3, 4, 5])


# ------------------------------------------------------------------------- batches
def test_one_way_batch_equals_one_layout_at_a_time():
    rng = np.random.default_rng(10)
    groups = [rng.standard_normal((5, n)) + i for i, n in enumerate((4, 6, 3))]
    batch = anova.one_way_anova(groups)
    for r in range(5):
        single = anova.one_way_anova([g[r] for g in groups])
        assert batch.F[r] == pytest.approx(single.F, rel=1e-12)
        assert batch.p_value[r] == pytest.approx(single.p_value, rel=1e-10)
    with pytest.raises(ValueError, match=r"groups\[1\]"):
        anova.one_way_anova([np.ones((5, 3)), np.ones((4, 3))])


@pytest.mark.parametrize("shape", [(6, 3, 4, 2), (6, 3, 4, 1)])
def test_two_way_batch_equals_one_layout_at_a_time(shape):
    Y = np.random.default_rng(11).standard_normal(shape)
    batch = anova.two_way_anova(Y)
    for r in range(shape[0]):
        single = anova.two_way_anova(Y[r])
        np.testing.assert_allclose(batch.ss[r], single.ss, rtol=1e-12)
        np.testing.assert_allclose(batch.p_value[r], single.p_value, rtol=1e-10)
        np.testing.assert_allclose(batch.delta[r], single.delta, atol=1e-13)
    assert batch.sources == (("A", "B", "AB", "E") if shape[-1] > 1 else ("A", "B", "AB"))


def test_bad_calls_found_by_hardening():
    # a level code of 1e12 made bincount allocate 8 TB
    with pytest.raises(ValueError, match="levels_a must use every level"):
        anova.anova_design_matrix(np.array([0, 10**12]))
    with pytest.raises(ValueError, match="overflowed: rescale groups"):
        anova.one_way_anova([np.array([1e300, -1e300]), np.array([1.0, 2.0])])
    with pytest.raises(ValueError, match="overflowed: rescale Y"):
        anova.two_way_anova(np.array([[1e300, -1e300], [1.0, 2.0]]))
