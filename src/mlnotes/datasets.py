"""Seeded toy data sets used across the book.

Every generator takes a ``seed`` and draws from ``np.random.default_rng(seed)``, so a
chapter's numbers are the same on every run. Data points are the rows of ``X``.
"""
import numpy as np
import scipy.special

from mlnotes import _validate as check

__all__ = ["linear_regression", "two_gaussians", "separable", "sine_1d"]


# separable() keeps a candidate point with this probability at least (else it would run "forever")
_MIN_ACCEPTANCE = 1e-4


def _acceptance(margin, radius, d):
    """Probability that a uniform point of the d-ball of ``radius`` has ``|w·x| >= margin``:
    ``(w·x / radius)²`` is Beta(1/2, (d+1)/2), so it is ``I_{1-t²}((d+1)/2, 1/2)``, ``t = margin/radius``."""
    return float(scipy.special.betainc((d + 1) / 2, 0.5, 1 - (margin / radius) ** 2))


def linear_regression(n=100, p=2, sigma=0.5, intercept=True, seed=0):
    """Data from the linear model ``y = X beta + eps`` with Gaussian noise.

    Parameters
    ----------
    n : int
        Number of points (at least 1).
    p : int
        Number of features, not counting the intercept column (at least 1).
    sigma : float
        Noise standard deviation (non-negative).
    intercept : bool
        If true, the first column of ``X`` is all ones (so ``X`` has ``p + 1`` columns).
    seed : int or numpy.random.Generator
        Seed (an integer >= 0) of ``np.random.default_rng``.

    Returns
    -------
    X : ndarray, shape (n, p + intercept)
        Features drawn from N(0, 1).
    y : ndarray, shape (n,)
    beta : ndarray, shape (p + intercept,)
        The true coefficients, drawn from N(0, 1).

    Raises
    ------
    ValueError
        If ``n`` or ``p`` is not an integer >= 1, ``sigma`` is negative or not finite,
        ``intercept`` is not a bool, or ``seed`` is not a valid seed.
    """
    n, p = check.count(n, "n"), check.count(p, "p")
    sigma, intercept = check.nonnegative(sigma, "sigma"), check.flag(intercept, "intercept")
    rng = np.random.default_rng(check.seed(seed))
    X = rng.standard_normal((n, p))
    if intercept:
        X = np.column_stack([np.ones(n), X])
    beta = rng.standard_normal(X.shape[1])
    y = X @ beta + sigma * rng.standard_normal(n)
    return X, y, beta


def two_gaussians(n=200, mean_pos=(1.0, 1.0), mean_neg=(-1.0, -1.0), cov_pos=None, cov_neg=None,
                  frac_pos=0.5, labels="01", seed=0):
    """Two Gaussian classes, ``X | y=+ ~ N(mean_pos, cov_pos)`` and ``X | y=- ~ N(mean_neg, cov_neg)``.

    Parameters
    ----------
    n : int
        Total number of points (at least 2).
    mean_pos, mean_neg : array_like, shape (d,)
        Class means.
    cov_pos, cov_neg : array_like, shape (d, d), optional
        Class covariances (symmetric positive definite); identity by default.
    frac_pos : float
        Fraction of positive points, strictly between 0 and 1.
    labels : {"01", "pm1"}
        Return labels in {0, 1} (probabilistic classifiers) or {-1, +1} (margin methods).
    seed : int or numpy.random.Generator
        Seed (an integer >= 0) of ``np.random.default_rng``.

    Returns
    -------
    X : ndarray, shape (n, d)
    y : ndarray, shape (n,)
        Integer labels; the positive class is 1 (or +1).

    Raises
    ------
    ValueError
        If an argument is invalid (shapes, non-finite values, a covariance that is not
        symmetric positive definite, ``frac_pos`` outside (0, 1), an unknown ``labels``).
    """
    n = check.count(n, "n", low=2)
    mean_pos = check.vector(np.atleast_1d(check.as_float(mean_pos, "mean_pos")), None, "mean_pos")
    mean_neg = check.vector(np.atleast_1d(check.as_float(mean_neg, "mean_neg")), None, "mean_neg")
    d = mean_pos.shape[0]
    if mean_neg.shape != (d,):
        raise ValueError(f"mean_pos and mean_neg must be vectors of one length, got {mean_pos.shape}, {mean_neg.shape}")
    covs = [np.eye(d) if cov is None else check.spd(cov, d, name)[0]
            for name, cov in (("cov_pos", cov_pos), ("cov_neg", cov_neg))]
    if not 0 < check.number(frac_pos, "frac_pos") < 1:
        raise ValueError(f"frac_pos must lie strictly between 0 and 1, got {frac_pos}")
    labels = check.choice(labels, ("01", "pm1"), "labels")
    rng = np.random.default_rng(check.seed(seed))
    n_pos = int(round(frac_pos * n))
    n_pos = min(max(n_pos, 1), n - 1)
    Xp = rng.multivariate_normal(mean_pos, covs[0], size=n_pos)
    Xn = rng.multivariate_normal(mean_neg, covs[1], size=n - n_pos)
    X = np.vstack([Xp, Xn])
    y = np.concatenate([np.ones(n_pos, dtype=int), np.zeros(n - n_pos, dtype=int)])
    if labels == "pm1":
        y = 2 * y - 1
    order = rng.permutation(n)
    return X[order], y[order]


def separable(n=100, d=2, margin=0.5, radius=1.0, seed=0):
    """Linearly separable points with labels in {-1, +1} and a guaranteed margin.

    Points are drawn uniformly from the ball of the given radius; a unit normal ``w`` is
    drawn at random, points with ``|w·x| < margin`` are rejected, and ``y = sign(w·x)``.
    The hyperplane through the origin with normal ``w`` therefore separates the data with
    geometric margin at least ``margin``.

    Parameters
    ----------
    n : int
        Number of points (at least 1).
    d : int
        Dimension (at least 1).
    margin : float
        Margin, in [0, radius), and small enough that a point of the ball is kept with
        probability at least ``1e-4`` (e.g. ``margin < 0.9 radius`` for ``d = 10``); the
        rejection sampling would otherwise take practically forever.
    radius : float
        Radius of the ball containing the points (positive).
    seed : int or numpy.random.Generator
        Seed (an integer >= 0) of ``np.random.default_rng``.

    Returns
    -------
    X : ndarray, shape (n, d)
    y : ndarray, shape (n,)
        Labels in {-1, +1}.
    w : ndarray, shape (d,)
        The unit normal of the separating hyperplane.

    Raises
    ------
    ValueError
        If an argument is invalid, or ``margin`` is so close to ``radius`` (for this ``d``)
        that fewer than one candidate point in ``1e4`` would be kept.
    """
    n, d = check.count(n, "n"), check.count(d, "d")
    radius = check.positive(radius, "radius")
    if not check.nonnegative(margin, "margin") < radius:
        raise ValueError(f"margin must lie in [0, radius) = [0, {radius}), got {margin}")
    if (accept := _acceptance(margin, radius, d)) < _MIN_ACCEPTANCE:
        raise ValueError(f"margin={margin} is too close to radius={radius} in d={d} dimensions: only a "
                         f"fraction {accept:.2g} of the ball has |w·x| >= margin (at least "
                         f"{_MIN_ACCEPTANCE:g} is needed); use a smaller margin")
    rng = np.random.default_rng(check.seed(seed))
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    keep = np.empty((0, d))
    while keep.shape[0] < n:  # rejection sampling, in vectorised batches
        m = 4 * (n - keep.shape[0]) + 16
        z = rng.standard_normal((m, d))
        z *= (radius * rng.random(m) ** (1 / d) / np.linalg.norm(z, axis=1))[:, None]
        keep = np.vstack([keep, z[np.abs(z @ w) >= margin]])
    X = keep[:n]
    y = np.where(X @ w > 0, 1, -1)
    return X, y, w


def sine_1d(n=30, sigma=0.2, low=0.0, high=1.0, seed=0):
    """Noisy samples of ``sin(2 pi x)`` at uniform random inputs.

    Parameters
    ----------
    n : int
        Number of points (at least 1).
    sigma : float
        Noise standard deviation (non-negative).
    low, high : float
        Input range, ``low < high``.
    seed : int or numpy.random.Generator
        Seed (an integer >= 0) of ``np.random.default_rng``.

    Returns
    -------
    x : ndarray, shape (n,)
        Sorted inputs.
    y : ndarray, shape (n,)

    Raises
    ------
    ValueError
        If ``n`` is not an integer >= 1, ``sigma`` is negative, ``low >= high``, a value
        is not finite, or ``seed`` is not a valid seed.
    """
    n, sigma = check.count(n, "n"), check.nonnegative(sigma, "sigma")
    low, high = check.interval_bounds(low, high)
    rng = np.random.default_rng(check.seed(seed))
    x = np.sort(rng.uniform(low, high, n))
    y = np.sin(2 * np.pi * x) + sigma * rng.standard_normal(n)
    return x, y
