import numpy as np
import pytest

from mlnotes import datasets


@pytest.mark.parametrize("n, p", [(5, 1), (200, 4)])
def test_linear_regression_shapes_and_model(n, p):
    X, y, beta = datasets.linear_regression(n=n, p=p, sigma=0.0, seed=1)
    assert X.shape == (n, p + 1) and y.shape == (n,) and beta.shape == (p + 1,)
    assert np.all(X[:, 0] == 1)
    np.testing.assert_allclose(y, X @ beta)


def test_linear_regression_is_seeded():
    a = datasets.linear_regression(seed=3)
    b = datasets.linear_regression(seed=3)
    c = datasets.linear_regression(seed=4)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    assert not np.array_equal(a[1], c[1])


def test_linear_regression_noise_level():
    X, y, beta = datasets.linear_regression(n=20000, p=2, sigma=0.7, intercept=False, seed=0)
    assert X.shape[1] == 2
    assert abs(np.std(y - X @ beta) - 0.7) < 0.02


@pytest.mark.parametrize("labels, values", [("01", {0, 1}), ("pm1", {-1, 1})])
def test_two_gaussians(labels, values):
    X, y = datasets.two_gaussians(n=4000, mean_pos=[2, 0], mean_neg=[-2, 0], frac_pos=0.25, labels=labels, seed=2)
    assert X.shape == (4000, 2) and set(np.unique(y)) == values
    pos = y == max(values)
    assert pos.sum() == 1000
    np.testing.assert_allclose(X[pos].mean(axis=0), [2, 0], atol=0.1)
    np.testing.assert_allclose(X[~pos].mean(axis=0), [-2, 0], atol=0.1)
    np.testing.assert_allclose(np.cov(X[~pos].T), np.eye(2), atol=0.1)


def test_separable_has_the_margin():
    X, y, w = datasets.separable(n=500, d=3, margin=0.3, radius=2.0, seed=5)
    assert X.shape == (500, 3) and set(np.unique(y)) == {-1, 1}
    assert np.isclose(np.linalg.norm(w), 1)
    assert np.all(y * (X @ w) >= 0.3)
    assert np.all(np.linalg.norm(X, axis=1) <= 2.0 + 1e-12)


def test_sine_1d():
    x, y = datasets.sine_1d(n=50, sigma=0.0, seed=0)
    assert np.all(np.diff(x) >= 0)
    np.testing.assert_allclose(y, np.sin(2 * np.pi * x))


@pytest.mark.parametrize("call, match", [
    (lambda: datasets.linear_regression(n=0), "n must be"),
    (lambda: datasets.linear_regression(p=1.5), "p must be"),
    (lambda: datasets.linear_regression(sigma=-1), "sigma must be"),
    (lambda: datasets.linear_regression(sigma=np.nan), "sigma must be"),
    (lambda: datasets.two_gaussians(n=1), "n must be"),
    (lambda: datasets.two_gaussians(mean_pos=[0, 0], mean_neg=[0]), "mean_pos and mean_neg"),
    (lambda: datasets.two_gaussians(cov_pos=[[1, 2], [2, 1]]), "cov_pos"),
    (lambda: datasets.two_gaussians(cov_neg=np.eye(3)), "cov_neg"),
    (lambda: datasets.two_gaussians(frac_pos=1.0), "frac_pos"),
    (lambda: datasets.two_gaussians(labels="ab"), "labels"),
    (lambda: datasets.separable(margin=1.0, radius=1.0), "margin"),
    (lambda: datasets.separable(d=0), "d must be"),
    (lambda: datasets.separable(radius=0), "radius"),
    (lambda: datasets.sine_1d(low=1, high=0), "low < high"),
])
def test_bad_arguments_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("d, margin", [(1, 0.99999), (10, 0.95), (100, 0.5)])
def test_separable_rejects_a_margin_that_rejection_sampling_cannot_reach(d, margin):
    # these used to run practically forever: a fraction < 1e-4 of the ball has |w·x| >= margin
    with pytest.raises(ValueError, match="margin=.* is too close to radius"):
        datasets.separable(n=10, d=d, margin=margin)


@pytest.mark.parametrize("d, t", [(1, 0.6), (3, 0.5), (10, 0.3)])
def test_separable_acceptance_probability(d, t):
    # P(|w·x| >= t r) for x uniform in the d-ball of radius r, against a Monte Carlo estimate
    rng = np.random.default_rng(d)
    z = rng.standard_normal((200_000, d))
    z *= (2.0 * rng.random(len(z)) ** (1 / d) / np.linalg.norm(z, axis=1))[:, None]
    assert datasets._acceptance(2.0 * t, 2.0, d) == pytest.approx(np.mean(np.abs(z[:, 0]) >= 2.0 * t), abs=0.005)


def test_separable_near_the_acceptance_limit_finishes():
    X, y, w = datasets.separable(n=20, d=1, margin=0.9998, seed=0)
    assert np.all(y * (X @ w) >= 0.9998)


@pytest.mark.parametrize("call, match", [
    (lambda: datasets.linear_regression(seed="0"), "seed must be"),
    (lambda: datasets.two_gaussians(seed=-1), "seed must be"),
    (lambda: datasets.separable(seed=1.5), "seed must be"),
    (lambda: datasets.sine_1d(seed=True), "seed must be"),
    (lambda: datasets.linear_regression(intercept="no"), "intercept must be True or False"),
    (lambda: datasets.linear_regression(n=True), "n must be"),
    (lambda: datasets.linear_regression(sigma="0.5"), "sigma must be"),
    (lambda: datasets.two_gaussians(mean_pos=[[1.0, 2.0], [3.0]]), "mean_pos must be"),
    (lambda: datasets.two_gaussians(cov_neg="eye"), "cov_neg must be"),
    (lambda: datasets.two_gaussians(frac_pos="0.5"), "frac_pos must be"),
    (lambda: datasets.separable(margin="0.1"), "margin must be"),
    (lambda: datasets.sine_1d(low="0"), "low must be"),
])
def test_bad_types_are_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_a_generator_is_accepted_as_seed():
    a = datasets.sine_1d(n=5, seed=np.random.default_rng(3))
    b = datasets.sine_1d(n=5, seed=3)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
