"""Tests of mlnotes.categorical against scipy.stats, plus the chapter's identities."""
import math

import numpy as np
import pytest
import scipy.stats
from scipy.stats.contingency import crosstab, expected_freq

from mlnotes import categorical as C

# Every warning is an error here: the module must compute without RuntimeWarnings too.
pytestmark = pytest.mark.filterwarnings("error")

ALTERNATIVES = ("two-sided", "less", "greater")


def _random_tables(n_tables, high, seed, ties=True):
    """Random 2×2 tables with entries in 0..high; a third of them with equal or mirrored rows."""
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, high + 1, size=(n_tables, 2, 2))
    if ties:
        tables[0::6, 1] = tables[0::6, 0]          # equal rows: symmetric null distribution
        tables[3::6, 1] = tables[3::6, 0, ::-1]    # mirrored rows: equal row margins
    return tables


# ------------------------------------------------------------------- Fisher's exact test
@pytest.mark.parametrize("high, seed", [(3, 0), (10, 1), (40, 2), (300, 3), (3000, 4)])
def test_fisher_exact_matches_scipy(high, seed):
    for table in _random_tables(120, high, seed):
        for alternative in ALTERNATIVES:
            ours = C.fisher_exact(table, alternative)
            ref = scipy.stats.fisher_exact(table, alternative=alternative).pvalue
            assert ours.pvalue == pytest.approx(ref, abs=1e-12, rel=1e-9), (table, alternative)
            assert ours.statistic == table[0, 0]


def test_fisher_exact_ties_at_a_double_mode():
    # p(m - 1) = p(m) when (n1 + 1)(c1 + 1)/(n + 2) = m is an integer: both modes give p = 1,
    # a neighbouring value counts the other mode's tail exactly as scipy does.
    found = 0
    for n1 in range(1, 19):
        for n2 in range(1, 19):
            for c1 in range(1, n1 + n2):
                if (n1 + 1) * (c1 + 1) % (n1 + n2 + 2):
                    continue
                m = (n1 + 1) * (c1 + 1) // (n1 + n2 + 2)
                for x in (m - 2, m - 1, m, m + 1):
                    if max(0, c1 - n2) <= x <= min(n1, c1):
                        t = np.array([[x, n1 - x], [c1 - x, n2 - c1 + x]])
                        ref = scipy.stats.fisher_exact(t).pvalue
                        assert C.fisher_exact(t).pvalue == pytest.approx(ref, abs=1e-12)
                        found += 1
    assert found > 250


def test_fisher_exact_symmetric_margins_double_the_tail():
    for k in range(6, 11):
        t = np.array([[k, 10 - k], [10 - k, k]])
        assert C.fisher_exact(t).pvalue == pytest.approx(
            min(1.0, 2 * C.fisher_exact(t, "greater").pvalue), abs=1e-15)


@pytest.mark.parametrize("table", [[[0, 0], [3, 4]], [[0, 5], [0, 2]], [[0, 0], [0, 0]],
                                   [[3, 0], [4, 0]]])
def test_fisher_exact_zero_margin_gives_one(table):
    for alternative in ALTERNATIVES:
        assert C.fisher_exact(table, alternative).pvalue == 1.0
        assert scipy.stats.fisher_exact(table, alternative=alternative).pvalue == 1.0


def test_fisher_exact_large_table_is_fast_and_accurate():
    t = np.array([[5000, 4000], [3000, 6000]])
    for alternative in ALTERNATIVES:
        ref = scipy.stats.fisher_exact(t, alternative=alternative).pvalue
        assert C.fisher_exact(t, alternative).pvalue == pytest.approx(ref, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("high, seed", [(5, 0), (50, 1), (2000, 2)])
def test_fisher_null_distribution_is_hypergeometric(high, seed):
    for t in _random_tables(15, high, seed, ties=False):
        x, pmf = C.fisher_null_distribution(t)
        (n1, n2), c1 = t.sum(axis=1), t[:, 0].sum()
        assert x[0] == max(0, c1 - n2) and x[-1] == min(n1, c1)
        np.testing.assert_allclose(pmf, scipy.stats.hypergeom(n1 + n2, n1, c1).pmf(x),
                                   rtol=1e-10, atol=1e-300)
        assert pmf.sum() == pytest.approx(1.0, abs=1e-12)


def test_fisher_null_distribution_matches_binomial_coefficients():
    t = np.array([[12, 4], [5, 9]])
    x, pmf = C.fisher_null_distribution(t)
    exact = [math.comb(16, k) * math.comb(14, 17 - k) / math.comb(30, 17) for k in x.tolist()]
    np.testing.assert_allclose(pmf, exact, rtol=1e-13, atol=0)


# ------------------------------------------------------------------------ chi-square
@pytest.mark.parametrize("shape, seed", [((2, 2), 0), ((2, 5), 1), ((3, 3), 2), ((4, 6), 3),
                                         ((7, 2), 4)])
def test_chi2_tests_match_chi2_contingency(shape, seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        t = rng.integers(0, 30, size=shape)
        t[:, 0] += 1
        t[0] += 1  # every margin positive
        ref = scipy.stats.chi2_contingency(t, correction=False)
        for test in (C.chi2_independence, C.chi2_homogeneity):
            ours = test(t)
            assert ours.statistic == pytest.approx(ref.statistic, abs=1e-10)
            assert ours.pvalue == pytest.approx(ref.pvalue, abs=1e-12)
            assert ours.dof == ref.dof == (shape[0] - 1) * (shape[1] - 1)
            np.testing.assert_allclose(ours.expected, ref.expected_freq, atol=1e-10)
        assert C.chi2_statistic(t) == pytest.approx(ref.statistic, abs=1e-10)
        np.testing.assert_allclose(C.expected_counts(t), expected_freq(t), atol=1e-10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_yates_correction_matches_scipy_default(seed):
    rng = np.random.default_rng(seed)
    for _ in range(30):
        t = rng.integers(1, 25, size=(2, 2))
        ref = scipy.stats.chi2_contingency(t)  # correction=True by default
        ours = C.chi2_independence(t, correction=True)
        assert ours.statistic == pytest.approx(ref.statistic, abs=1e-10)
        assert ours.pvalue == pytest.approx(ref.pvalue, abs=1e-12)
        assert C.chi2_homogeneity(t, correction=True).statistic == pytest.approx(ref.statistic,
                                                                                 abs=1e-10)
        assert C.chi2_statistic(t, correction=True) == pytest.approx(ref.statistic, abs=1e-10)
    t3 = rng.integers(1, 25, size=(3, 4))  # one degree of freedom only for 2×2: no effect
    assert C.chi2_independence(t3, correction=True).statistic == pytest.approx(
        scipy.stats.chi2_contingency(t3).statistic, abs=1e-10)


def test_yates_moves_counts_at_most_to_the_expected_value():
    t = np.array([[5, 5], [5, 6]])  # |O - E| < 1/2 in every cell: corrected X² is 0
    assert C.chi2_statistic(t, correction=True) == 0.0
    assert scipy.stats.chi2_contingency(t).statistic == pytest.approx(0.0, abs=1e-15)


def test_two_by_two_identity():
    rng = np.random.default_rng(5)
    for _ in range(50):
        (a, b), (c, d) = t = rng.integers(1, 60, size=(2, 2))
        n = t.sum()
        x2 = n * (a * d - b * c) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))
        assert C.chi2_statistic(t) == pytest.approx(x2, rel=1e-12)


def test_chi2_statistic_is_vectorised():
    rng = np.random.default_rng(6)
    stack = rng.integers(1, 20, size=(5, 3, 3, 4))
    batch = C.chi2_statistic(stack)
    assert batch.shape == (5, 3)
    loop = [[C.chi2_statistic(stack[i, j]) for j in range(3)] for i in range(5)]
    np.testing.assert_allclose(batch, loop, rtol=1e-13)


def test_homogeneity_mle_is_the_pooled_proportion():
    t = np.array([[18, 20, 36, 12], [12, 11, 14, 16], [10, 19, 10, 22]])
    res = C.chi2_homogeneity(t)
    pooled = t.sum(axis=1) / t.sum()
    np.testing.assert_allclose(res.expected / t.sum(axis=0), np.tile(pooled[:, None], 4),
                               atol=1e-15)
    # the pooled proportion maximises sum_i n_i. log pi_i on the simplex
    rng = np.random.default_rng(7)
    others = rng.dirichlet(np.ones(3), size=1000)
    best = t.sum(axis=1) @ np.log(pooled)
    assert np.all(np.log(others) @ t.sum(axis=1) < best)


@pytest.mark.parametrize("n, seed", [(500, 0)])
def test_x2_null_distribution_is_chi2(n, seed):
    rng = np.random.default_rng(seed)
    pi = np.outer([0.2, 0.3, 0.5], [0.25, 0.35, 0.4])
    T = rng.multinomial(n, pi.ravel(), size=20_000).reshape(-1, 3, 3)
    ks = scipy.stats.kstest(C.chi2_statistic(T), scipy.stats.chi2(4).cdf)
    assert ks.pvalue > 0.001


# ------------------------------------------------------------------------- McNemar
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcnemar_matches_chi2_and_binomtest(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        t = rng.integers(0, [[50, 30], [30, 50]])
        if t[0, 1] + t[1, 0] == 0:
            continue
        m = t[0, 1] + t[1, 0]
        res = C.mcnemar(t)
        x2 = (t[0, 1] - t[1, 0]) ** 2 / m
        assert res.statistic == pytest.approx(x2, rel=1e-14)
        assert res.pvalue == pytest.approx(scipy.stats.chi2(1).sf(x2), abs=1e-12)
        assert res.dof == 1
        exact = C.mcnemar(t, exact=True)
        assert exact.pvalue == pytest.approx(scipy.stats.binomtest(t[0, 1], m, 0.5).pvalue,
                                             abs=1e-12)


def test_mcnemar_is_pearson_with_mle_expected_counts():
    t = np.array([[85, 6], [16, 13]])
    n, m = t.sum(), t[0, 1] + t[1, 0]
    expected = np.array([[t[0, 0], m / 2], [m / 2, t[1, 1]]])
    assert C.mcnemar(t).statistic == pytest.approx(np.sum((t - expected) ** 2 / expected))
    assert expected.sum() == n


# ---------------------------------------------------------------------- odds ratios
@pytest.mark.parametrize("high, seed", [(3, 0), (20, 1), (500, 2)])
def test_odds_ratio_matches_scipy(high, seed):
    for t in _random_tables(200, high, seed, ties=False):
        if np.any(t.sum(axis=0) == 0) or np.any(t.sum(axis=1) == 0):
            continue
        ref = scipy.stats.contingency.odds_ratio(t, kind="sample").statistic
        assert C.odds_ratio(t) == pytest.approx(ref, rel=1e-13)
        with np.errstate(divide="ignore"):
            assert C.log_odds_ratio(t) == pytest.approx(np.log(ref), rel=1e-13)


def test_odds_ratio_zero_cells_and_batches():
    assert C.odds_ratio([[3, 0], [2, 5]]) == np.inf
    assert C.odds_ratio([[0, 3], [2, 5]]) == 0.0
    assert C.log_odds_ratio([[0, 3], [2, 5]]) == -np.inf
    stack = np.array([[[3, 1], [2, 5]], [[1, 1], [1, 1]], [[2, 4], [6, 3]]])
    np.testing.assert_allclose(C.odds_ratio(stack), [7.5, 1.0, 0.25])


def test_odds_ratio_invariant_under_row_and_column_scaling():
    rng = np.random.default_rng(8)
    pi = rng.dirichlet(np.ones(4), size=50).reshape(50, 2, 2)
    rows, cols = rng.uniform(0.1, 10, size=(50, 2, 1)), rng.uniform(0.1, 10, size=(50, 1, 2))
    np.testing.assert_allclose(C.odds_ratio(pi * rows * cols), C.odds_ratio(pi), rtol=1e-12)
    # symmetry: transposing (swapping the roles of X and D) keeps the odds ratio
    np.testing.assert_allclose(C.odds_ratio(np.swapaxes(pi, 1, 2)), C.odds_ratio(pi), rtol=1e-12)
    # ... while the relative risk changes when the columns are scaled differently
    assert not np.allclose(C.relative_risk(pi * cols), C.relative_risk(pi))


def test_relative_risk_matches_scipy():
    rng = np.random.default_rng(9)
    for _ in range(50):
        t = rng.integers(1, 100, size=(2, 2))
        ref = scipy.stats.contingency.relative_risk(t[1, 1], t[1].sum(), t[0, 1], t[0].sum())
        assert C.relative_risk(t) == pytest.approx(ref.relative_risk, rel=1e-13)


def test_case_control_sampling_estimates_the_odds_ratio():
    risk, p_x = np.array([0.1, 0.2]), 0.3
    pi = np.array([1 - p_x, p_x])[:, None] * np.stack([1 - risk, risk], axis=1)
    delta = C.odds_ratio(pi)
    p_x_given_d = pi / pi.sum(axis=0)
    rng = np.random.default_rng(10)
    sizes = np.array([[5000, 5000]] * 200)                     # (controls, cases), 200 studies
    exposed = rng.binomial(sizes, p_x_given_d[1])
    tables = np.stack([sizes - exposed, exposed], axis=1)
    log_or = C.log_odds_ratio(tables)
    se = np.sqrt(np.sum(1 / tables, axis=(1, 2)))
    assert abs(log_or.mean() - np.log(delta)) < 4 * se.mean() / np.sqrt(200)
    # the design-dependent "relative risk" is far from the population value 2
    assert abs(np.log(C.relative_risk(tables)).mean() - np.log(2.0)) > 0.1


def test_table_from_pairs_matches_crosstab():
    rng = np.random.default_rng(11)
    pairs = rng.integers(0, 2, size=(7, 50, 2))
    tables = C.table_from_pairs(pairs)
    assert tables.shape == (7, 2, 2)
    for p, t in zip(pairs, tables):
        np.testing.assert_array_equal(t, crosstab(p[:, 0], p[:, 1], levels=([0, 1], [0, 1])).count)


# ------------------------------------------------------------------------ bootstrap
def _log_or(samples):
    return C.log_odds_ratio(C.table_from_pairs(samples))


def _scipy_log_or(x, d, axis=-1):
    return _log_or(np.stack([x, d], axis=-1))


@pytest.mark.parametrize("n, seed", [(80, 0), (300, 1)])
@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_bootstrap_ci_matches_scipy_on_the_same_resamples(n, seed, method):
    rng = np.random.default_rng(seed)
    cells = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    data = cells[rng.choice(4, size=n, p=[0.4, 0.2, 0.15, 0.25])]
    ours = C.bootstrap_ci(_log_or, data, n_resamples=1500, level=0.9, method=method, seed=seed)
    ref = scipy.stats.bootstrap((data[:, 0], data[:, 1]), _scipy_log_or, paired=True,
                                vectorized=True, n_resamples=1500, confidence_level=0.9,
                                method=method, rng=np.random.default_rng(seed))
    np.testing.assert_allclose([ours.low, ours.high], [*ref.confidence_interval], atol=1e-12)
    np.testing.assert_allclose(ours.distribution, ref.bootstrap_distribution, atol=1e-12)
    assert ours.standard_error == pytest.approx(ref.standard_error, abs=1e-12)
    assert ours.estimate == pytest.approx(_log_or(data[None])[0])


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_bootstrap_ci_of_a_mean_matches_scipy(method):
    x = np.random.default_rng(12).exponential(size=40)
    ours = C.bootstrap_ci(lambda s: s.mean(axis=1), x, n_resamples=2000, method=method, seed=3)
    ref = scipy.stats.bootstrap((x,), np.mean, n_resamples=2000, method=method,
                                rng=np.random.default_rng(3))
    np.testing.assert_allclose([ours.low, ours.high], [*ref.confidence_interval], atol=1e-12)


def test_bootstrap_percentile_coverage():
    # 95% percentile intervals for the mean of N(1, 1) samples of size 60
    rng = np.random.default_rng(13)
    reps = 300
    covered = 0
    for _ in range(reps):
        x = rng.normal(1.0, 1.0, size=60)
        ci = C.bootstrap_ci(lambda s: s.mean(axis=1), x, n_resamples=500, seed=rng)
        covered += ci.low <= 1.0 <= ci.high
    assert abs(covered / reps - 0.95) < 4 * np.sqrt(0.95 * 0.05 / reps)


def test_bootstrap_standard_error_is_nan_with_infinite_values():
    data = np.array([[0, 0]] * 30 + [[1, 1]] * 2 + [[0, 1]] * 20 + [[1, 0]] * 20)
    ci = C.bootstrap_ci(_log_or, data, n_resamples=200, seed=0)
    assert np.isinf(ci.distribution).any() and np.isnan(ci.standard_error)


# ---------------------------------------------------------------------- result reprs
def test_reprs_have_no_addresses():
    r = repr(C.chi2_independence([[3, 4], [5, 6]]))
    assert r.startswith("HypothesisTestResult(method='chi-square test of independence'")
    assert "dof=1" in r and "0x" not in r
    b = repr(C.bootstrap_ci(lambda s: s.mean(axis=1), np.arange(10.0), n_resamples=10, seed=0))
    assert b.startswith("BootstrapCI(method='percentile'") and "0x" not in b


# ---------------------------------------------------------------------- validation
BAD_TABLES = [
    ([[1, 2, 3]], "table"),                       # one row
    ([1, 2, 3, 4], "table"),                      # 1-D
    ([[1, -2], [3, 4]], "negative"),
    ([[1.5, 2], [3, 4]], "whole-number"),
    ([[np.nan, 2], [3, 4]], "finite"),
    ([["a", "b"], ["c", "d"]], "numeric"),
]


@pytest.mark.parametrize("table, match", BAD_TABLES)
@pytest.mark.parametrize("fn", [C.fisher_exact, C.chi2_independence, C.chi2_homogeneity,
                                C.mcnemar, C.fisher_null_distribution])
def test_bad_tables_raise(fn, table, match):
    with pytest.raises(ValueError, match=match):
        fn(table)


@pytest.mark.parametrize("fn", [C.fisher_exact, C.mcnemar, C.fisher_null_distribution])
def test_two_by_two_functions_reject_other_shapes(fn):
    with pytest.raises(ValueError, match=r"table must have shape \(2, 2\)"):
        fn([[1, 2, 3], [4, 5, 6]])


@pytest.mark.parametrize("fn", [C.chi2_independence, C.chi2_homogeneity, C.chi2_statistic,
                                C.expected_counts])
def test_chi2_rejects_a_zero_margin(fn):
    with pytest.raises(ValueError, match="table has a row or column of zeros"):
        fn([[0, 0, 0], [1, 2, 3]])
    with pytest.raises(ValueError, match="table has a row or column of zeros"):
        fn([[0, 4], [0, 3]])


def test_chi2_single_table_functions_reject_stacks():
    with pytest.raises(ValueError, match="table must be a 2-D array"):
        C.chi2_independence(np.ones((2, 2, 2), dtype=int))


def test_fisher_rejects_bad_alternative():
    with pytest.raises(ValueError, match="alternative must be one of"):
        C.fisher_exact([[1, 2], [3, 4]], alternative="two_sided")


def test_mcnemar_rejects_no_discordant_pairs():
    with pytest.raises(ValueError, match="table has no discordant pairs"):
        C.mcnemar([[10, 0], [0, 5]])


@pytest.mark.parametrize("table, match", [
    ([[0, 0], [2, 3]], "row or column of zeros"),
    ([[1, 2, 3], [4, 5, 6]], r"shape \(2, 2\)"),
    ([[1, -2], [3, 4]], "negative"),
    ([[1, np.inf], [3, 4]], "finite"),
])
def test_odds_ratio_validation(table, match):
    with pytest.raises(ValueError, match=match):
        C.odds_ratio(table)
    with pytest.raises(ValueError, match=match):
        C.log_odds_ratio(table)


def test_odds_ratio_accepts_probabilities():
    assert C.odds_ratio([[0.4, 0.1], [0.2, 0.3]]) == pytest.approx(6.0)


def test_relative_risk_validation():
    with pytest.raises(ValueError, match="table needs positive row margins and t01 > 0"):
        C.relative_risk([[5, 0], [2, 3]])
    with pytest.raises(ValueError, match="table needs positive row margins"):
        C.relative_risk([[0, 0], [2, 3]])


@pytest.mark.parametrize("pairs, match", [
    (np.zeros((5, 3)), r"pairs must have shape \(\.\.\., n, 2\)"),
    (np.zeros(5), r"pairs must have shape"),
    (np.full((5, 2), 2), "pairs must contain only the values 0 and 1"),
])
def test_table_from_pairs_validation(pairs, match):
    with pytest.raises(ValueError, match=match):
        C.table_from_pairs(pairs)


@pytest.mark.parametrize("kwargs, match", [
    (dict(stat="mean"), "stat must be callable"),
    (dict(data=[1.0]), "data must have at least 2 rows"),
    (dict(data=[1.0, np.nan, 2.0]), "data must be finite"),
    (dict(data=["a", "b", "c"]), "data must be numeric"),
    (dict(data=[[1.0, 2.0], [3.0]]), "data must be a rectangular array"),
    (dict(n_resamples=True), "n_resamples must be an integer >= 1"),
    (dict(level="0.95"), "level must be a finite real number"),
    (dict(seed="abc"), "seed must be a non-negative integer"),
    (dict(seed=1.5), "seed must be a non-negative integer"),
    (dict(stat=lambda s: ["x"] * len(s)), "the value returned by stat must be numeric"),
    (dict(n_resamples=0), "n_resamples must be an integer >= 1"),
    (dict(n_resamples=10.0), "n_resamples must be an integer >= 1"),
    (dict(level=1.0), "level must lie strictly between 0 and 1"),
    (dict(level=0), "level must lie strictly between 0 and 1"),
    (dict(method="student"), "method must be one of"),
    (dict(stat=lambda s: s.mean()), "stat must map an array of 50 samples"),
])
def test_bootstrap_ci_validation(kwargs, match):
    args = dict(stat=lambda s: s.mean(axis=1), data=np.arange(5.0), n_resamples=50)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        C.bootstrap_ci(**args)


@pytest.mark.parametrize("fn, flag", [(C.chi2_statistic, "correction"), (C.chi2_homogeneity, "correction"),
                                      (C.chi2_independence, "correction"), (C.mcnemar, "exact")])
@pytest.mark.parametrize("value", ["no", None, 1])
def test_flags_must_be_bools(fn, flag, value):
    with pytest.raises(ValueError, match=f"{flag} must be True or False"):
        fn([[12, 5], [7, 15]], **{flag: value})


def test_ragged_tables_and_pairs_are_rejected_by_name():
    with pytest.raises(ValueError, match="table must be a rectangular array"):
        C.fisher_exact([[1, 2], [3]])
    with pytest.raises(ValueError, match="pairs must be a rectangular array"):
        C.table_from_pairs([[0, 1], [1]])


def test_bootstrap_bca_rejects_degenerate_data():
    with pytest.raises(ValueError, match="BCa interval is undefined"):
        C.bootstrap_ci(lambda s: s.mean(axis=1), np.ones(10), n_resamples=50, method="bca")


def test_fisher_exact_coincidental_ties_in_small_tables():
    # tables whose null distribution has two equal probabilities that are not mirror images
    checked = 0
    for n1 in range(1, 13):
        for n2 in range(1, 19):
            for c1 in range(1, n1 + n2):
                x, pmf = C.fisher_null_distribution([[0, n1], [c1, n2 - c1]] if c1 <= n2
                                                    else [[c1 - n2, n1 - c1 + n2], [n2, 0]])
                w = [math.comb(n1, v) * math.comb(n2, c1 - v) for v in x.tolist()]
                tied = [v for i, v in enumerate(x.tolist()) if w.count(w[i]) > 1]
                for v in tied:
                    t = np.array([[v, n1 - v], [c1 - v, n2 - c1 + v]])
                    ref = scipy.stats.fisher_exact(t).pvalue
                    assert C.fisher_exact(t).pvalue == pytest.approx(ref, abs=1e-12), t
                    checked += 1
    assert checked > 400


def test_near_ties_are_settled_exactly():
    # p(0) = p(2) exactly for these margins (330/1365); perturb the computed log-weight of
    # x = 2 beyond the 1e-14 tolerance: the exact integer check must still count it.
    t = np.array([[0, 4], [4, 7]])
    x, log_w = C._hypergeom_log_weights(t)
    log_w = log_w.copy()
    log_w[x == 2] += 1e-12
    assert C._no_more_likely(t, x, log_w)[x == 2][0]
    log_w[x == 2] += 1e-6  # beyond 1e-9 the computed values decide: now x = 2 is more likely
    assert not C._no_more_likely(t, x, log_w)[x == 2][0]
