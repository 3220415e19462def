"""Deep generative models (chapter 17): autoencoders, GANs and the ELBO of a VAE.

The linear autoencoder and its principal subspace; the GAN value ``V(D, G)``, the optimal
discriminator and the Jensen-Shannon divergence (with the standard factor ½); a tiny
one-dimensional GAN with analytic gradients; the evidence lower bound of the
linear-Gaussian latent model with a Gaussian ``q(h|x)``, in closed form and by Monte Carlo
with the reparameterisation trick.

Conventions. Data points are the rows of ``X``. Logarithms are natural (nats). A discrete
distribution is a 1-D array of non-negative numbers summing to 1.
"""
import numpy as np

from mlnotes import _validate as check

__all__ = [
    "linear_autoencoder", "optimal_discriminator", "gan_value", "jsd", "jsd_normal",
    "discriminator", "gan_minibatch_value", "generator_loss", "gan_gradients",
    "train_gan_1d", "elbo_linear_gaussian", "elbo_monte_carlo",
]


# ------------------------------------------------------------------------ validation
def _pair(p, q, names=("p", "q")):
    p, q = check.probabilities(p, names[0]), check.probabilities(q, names[1])
    if p.ndim != 1 or p.shape != q.shape:
        raise ValueError(f"{names[0]} and {names[1]} must be 1-D with the same shape, "
                         f"got {p.shape} and {q.shape}")
    return p, q


# ------------------------------------------------------------------ autoencoder
def linear_autoencoder(X, k, n_iter=2000, lr=0.05, rng=None):
    """Linear autoencoder ``x ↦ B A (x - x̄)`` trained by gradient descent on the squared error.

    Minimises ``L(A, B) = (1/n) sum_i ‖x_i - x̄ - B A (x_i - x̄)‖²`` over the encoder
    ``A`` (k × d) and the decoder ``B`` (d × k), from a small random start.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points as rows.
    k : int
        Code dimension, ``1 <= k <= d``.
    n_iter : int
        Number of gradient steps.
    lr : float
        Step size (positive).
    rng : numpy.random.Generator
        Source of the random initialisation.

    Returns
    -------
    A : ndarray, shape (k, d)
    B : ndarray, shape (d, k)
    losses : ndarray, shape (n_iter + 1,)
        ``L`` before each step and after the last.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, ``k`` is not in ``1..d``, ``n_iter`` or
        ``lr`` is not positive, ``rng`` is not a Generator, or the iterates diverge
        (``lr`` too large).
    """
    X = check.matrix(X)
    n, d = X.shape
    k = check.count(k, "k")
    if k > d:
        raise ValueError(f"k must be at most d = {d}, got {k}")
    n_iter, lr, rng = check.count(n_iter, "n_iter"), check.positive(lr, "lr"), check.generator(rng)
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / n                                  # the loss only depends on X through C
    A, B = 0.1 * rng.standard_normal((k, d)), 0.1 * rng.standard_normal((d, k))
    losses = np.empty(n_iter + 1)
    for t in range(n_iter + 1):
        with np.errstate(all="ignore"):
            R = np.eye(d) - B @ A                      # residual map x ↦ (I - BA) x
            losses[t] = np.trace(R @ C @ R.T)
        if not np.isfinite(losses[t]):
            raise ValueError(f"gradient descent diverged at step {t} (the loss is {losses[t]}): reduce lr "
                             f"(below about 1 / (largest eigenvalue of the covariance of X))")
        if t == n_iter:
            break
        G = -2 * R @ C                                 # ∂L/∂(BA)
        A, B = A - lr * B.T @ G, B - lr * G @ A.T
    return A, B, losses


# ------------------------------------------------------------------ GAN identities
def optimal_discriminator(p_data, p_g):
    """Optimal discriminator ``D*(x) = p_data(x) / (p_data(x) + p_g(x))``, pointwise.

    Parameters
    ----------
    p_data, p_g : array_like, same shape
        Probabilities or density values at the same points (non-negative, finite, and
        not both zero at any point).

    Returns
    -------
    ndarray
        ``D*`` at each point, in ``[0, 1]``.

    Raises
    ------
    ValueError
        If an input is negative or not finite, the shapes differ, or both are zero at a point.
    """
    p_data, p_g = check.finite(p_data, "p_data"), check.finite(p_g, "p_g")
    if p_data.shape != p_g.shape:
        raise ValueError(f"p_data and p_g must have the same shape, got {p_data.shape} and {p_g.shape}")
    for name, value in (("p_data", p_data), ("p_g", p_g)):
        if np.any(value < 0):
            raise ValueError(f"{name} must be non-negative")
    total = p_data + p_g
    if np.any(total == 0):
        raise ValueError("p_data and p_g must not both be zero at a point (D* is undefined there)")
    return p_data / total


def gan_value(D, p_data, p_g):
    """GAN value ``V(D, G) = sum_x p_data(x) log D(x) + p_g(x) log(1 - D(x))`` (discrete).

    Parameters
    ----------
    D : array_like, shape (m,)
        Discriminator output at each of the ``m`` points, in ``[0, 1]``.
    p_data, p_g : array_like, shape (m,)
        The data and generator distributions.

    Returns
    -------
    float
        ``V <= 0``; terms with zero probability contribute 0.

    Raises
    ------
    ValueError
        If ``p_data`` or ``p_g`` is not a distribution, ``D`` has another shape or leaves
        ``[0, 1]``.
    """
    p_data, p_g = _pair(p_data, p_g, ("p_data", "p_g"))
    D = check.vector(D, p_data.size, "D")
    if np.any(D < 0) or np.any(D > 1):
        raise ValueError("D must lie in [0, 1]")
    with np.errstate(divide="ignore"):
        real = np.where(p_data > 0, p_data * np.log(D), 0.0)
        fake = np.where(p_g > 0, p_g * np.log1p(-D), 0.0)
    return float(real.sum() + fake.sum())


def jsd(p, q):
    """Jensen-Shannon divergence ``½ KL(p‖m) + ½ KL(q‖m)``, ``m = (p + q)/2``, in nats.

    Parameters
    ----------
    p, q : array_like, shape (m,)
        Two discrete distributions.

    Returns
    -------
    float
        In ``[0, log 2]``; zero if and only if ``p = q``.

    Raises
    ------
    ValueError
        If ``p`` or ``q`` is not a distribution or the shapes differ.
    """
    p, q = _pair(p, q)
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p / m), 0.0) + np.where(q > 0, q * np.log(q / m), 0.0)
    return float(terms.sum() / 2)


_GAUSS_LEGENDRE_16 = np.polynomial.legendre.leggauss(16)


def _log_p_over_m(r):
    """``log(p / m)`` with ``m = (p + q)/2`` from ``r = log q - log p``, accurate for small ``|r|``."""
    with np.errstate(over="ignore", invalid="ignore"):
        small = -np.log1p(np.expm1(np.minimum(r, 1.0)) / 2)                 # log 2 - log(1 + e^r)
        large = np.log(2) - r - np.log1p(np.exp(-np.maximum(r, 1.0)))
    return np.where(r < 1.0, small, large)


def _kl_to_mixture(d, sa, sb, n_panels, T=14.0):
    """``KL(a ‖ (a + b)/2)`` for ``a = N(mu_a, sa²)``, ``b = N(mu_b, sb²)``, ``d = mu_a - mu_b``.

    Integrates ``φ(t) log(a/m)`` in a's standard coordinate ``t = (x - mu_a)/sa`` over
    ``|t| <= T``, Gauss-Legendre (16 nodes) on panels cut at both components' windows
    ``mu ± T sd`` (each in ``n_panels`` pieces), so each scale is resolved; ``x`` itself is
    never formed, so a tiny ``sa`` next to a large mean loses nothing.
    """
    own = np.linspace(-T, T, n_panels + 1)
    with np.errstate(over="ignore", invalid="ignore"):
        other = (sb * own - d) / sa                   # b's window in a's coordinate
    cuts = np.unique(np.concatenate([own, np.clip(other[np.isfinite(other)], -T, T)]))
    nodes, weights = _GAUSS_LEGENDRE_16
    lo, hi = cuts[:-1, None], cuts[1:, None]
    t, w = (lo + hi) / 2 + (hi - lo) / 2 * nodes, (hi - lo) / 2 * weights
    la, lb = np.log(sa), np.log(sb)
    log_sd_ratio = np.log1p((sa - sb) / sb) if abs(la - lb) < 0.5 else la - lb      # log(sa / sb)
    with np.errstate(over="ignore", invalid="ignore"):
        u = (d + sa * t) / sb                         # the same point in b's coordinate
        r = 0.5 * ((t * (sb - sa) - d) / sb) * (t + u) + log_sd_ratio   # log b - log a = (t² - u²)/2 + log(sa/sb)
    return float(np.sum(w * np.exp(-t ** 2 / 2) / np.sqrt(2 * np.pi) * _log_p_over_m(r)))


def jsd_normal(mu1, sd1, mu2, sd2, n_grid=512):
    """JSD between ``N(mu1, sd1²)`` and ``N(mu2, sd2²)`` by quadrature adapted to both scales.

    ``JSD = ½ KL(p‖m) + ½ KL(q‖m)``; each term is an expectation under one component,
    integrated in that component's standard coordinate over ±14 standard deviations with
    16-point Gauss-Legendre panels cut at both components' windows, so a narrow component
    next to a wide one is resolved (the integrand of ``KL(q‖m)`` has a dip of the narrow
    component's width). The result is clipped to ``[0, log 2]`` (rounding only).

    Parameters
    ----------
    mu1, mu2 : float
        Means.
    sd1, sd2 : float
        Standard deviations (positive).
    n_grid : int
        Resolution: each window is cut into ``max(1, n_grid // 16)`` panels of 16 nodes
        (at least 3; the default converges to rounding for standard deviation ratios up to
        1e24).

    Returns
    -------
    float
        In ``[0, log 2]``; zero when the two normals are equal.

    Raises
    ------
    ValueError
        If a mean is not finite, a standard deviation is not positive, or ``n_grid < 3``.
    """
    mu1, mu2 = check.number(mu1, "mu1"), check.number(mu2, "mu2")
    sd1, sd2 = check.positive(sd1, "sd1"), check.positive(sd2, "sd2")
    n_panels = max(1, check.count(n_grid, "n_grid", low=3) // 16)
    d = mu1 - mu2
    value = 0.5 * (_kl_to_mixture(d, sd1, sd2, n_panels) + _kl_to_mixture(-d, sd2, sd1, n_panels))
    return float(min(max(value, 0.0), np.log(2)))


# ------------------------------------------------------------------ a tiny 1-D GAN
def _params(w, g):
    w, g = check.finite(w, "w"), check.finite(g, "g")
    if w.shape != (3,):
        raise ValueError(f"w must have shape (3,), got {w.shape}")
    if g.shape != (2,):
        raise ValueError(f"g must have shape (2,), got {g.shape}")
    return w, g


def discriminator(w, x):
    """Logistic discriminator ``D(x) = σ(w₀ + w₁ x + w₂ x²)``.

    Parameters
    ----------
    w : array_like, shape (3,)
        Weights of the features ``(1, x, x²)``.
    x : array_like
        Points.

    Returns
    -------
    ndarray, shape of ``x``

    Raises
    ------
    ValueError
        If ``w`` does not have shape (3,) or a value is not finite.
    """
    w, _ = _params(w, np.zeros(2))
    x = check.finite(x, "x")
    with np.errstate(over="ignore"):                     # exp overflows to inf: D = 0, exactly
        return 1 / (1 + np.exp(-(w[0] + w[1] * x + w[2] * x**2)))


def _log_sigmoid(s):
    return -np.logaddexp(0.0, -s)


def gan_minibatch_value(w, g, x_real, z):
    """Minibatch estimate of ``V(D, G)``: ``mean log D(x_real) + mean log(1 - D(a z + b))``.

    ``w`` holds the discriminator weights (see :func:`discriminator`) and ``g = (a, b)``
    the generator ``G(z) = a z + b``.

    Parameters
    ----------
    w : array_like, shape (3,)
    g : array_like, shape (2,)
    x_real : array_like, shape (n,)
        Data points.
    z : array_like, shape (m,)
        Noise draws.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong or a value is not finite.
    """
    w, g = _params(w, g)
    x_real, z = check.vector(x_real, None, "x_real"), check.vector(z, None, "z")
    f = lambda x: w[0] + w[1] * x + w[2] * x**2       # noqa: E731 - the discriminator's logit
    return float(_log_sigmoid(f(x_real)).mean() + _log_sigmoid(-f(g[0] * z + g[1])).mean())


def generator_loss(w, g, z):
    """Non-saturating generator loss ``-mean log D(a z + b)`` (see :func:`gan_minibatch_value`).

    Parameters
    ----------
    w : array_like, shape (3,)
    g : array_like, shape (2,)
    z : array_like, shape (m,)
        Noise draws.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong or a value is not finite.
    """
    w, g = _params(w, g)
    x = g[0] * check.vector(z, None, "z") + g[1]
    return float(-_log_sigmoid(w[0] + w[1] * x + w[2] * x**2).mean())


def gan_gradients(w, g, x_real, z):
    """Analytic gradients of the 1-D GAN: ``∇_w`` of the value and ``∇_g`` of the generator loss.

    With ``φ(x) = (1, x, x²)``, ``D = σ(wᵀφ)`` and fakes ``x̃ = a z + b``:
    ``∇_w V̂ = mean (1 - D(x)) φ(x) - mean D(x̃) φ(x̃)`` and, for
    ``L_G = -mean log D(x̃)``, ``∇_(a,b) L_G = -mean (1 - D(x̃)) (w₁ + 2 w₂ x̃) (z, 1)``.

    Parameters
    ----------
    w : array_like, shape (3,)
        Discriminator weights.
    g : array_like, shape (2,)
        Generator parameters ``(a, b)``.
    x_real : array_like, shape (n,)
        Data points.
    z : array_like, shape (m,)
        Noise draws ``z ~ N(0, 1)``.

    Returns
    -------
    grad_w : ndarray, shape (3,)
    grad_g : ndarray, shape (2,)

    Raises
    ------
    ValueError
        If a shape is wrong or a value is not finite.
    """
    w, g = _params(w, g)
    x_real, z = check.vector(x_real, None, "x_real"), check.vector(z, None, "z")
    x_fake = g[0] * z + g[1]
    d_real, d_fake = discriminator(w, x_real), discriminator(w, x_fake)
    phi = lambda x: np.stack([np.ones_like(x), x, x**2])  # noqa: E731
    grad_w = phi(x_real) @ (1 - d_real) / x_real.size - phi(x_fake) @ d_fake / z.size
    slope = (1 - d_fake) * (w[1] + 2 * w[2] * x_fake)
    grad_g = -np.array([np.mean(slope * z), np.mean(slope)])
    return grad_w, grad_g


def _diverged(params, step):
    """``ValueError`` if the GAN's parameters are no longer finite."""
    if not np.all(np.isfinite(params)):
        raise ValueError(f"the GAN diverged at step {step} (non-finite parameters): reduce lr_d or lr_g")


def train_gan_1d(x_data, n_steps, rng, g0=(1.0, 0.0), lr_d=0.1, lr_g=0.01, d_steps=10, batch=256):
    """Train the 1-D GAN ``G(z) = a z + b`` against ``D(x) = σ(w₀ + w₁ x + w₂ x²)``.

    Each step does ``d_steps`` gradient-ascent steps on the minibatch value for ``w``,
    then one gradient-descent step on the non-saturating generator loss for ``(a, b)``;
    every minibatch (data points drawn with replacement, fresh noise) comes from ``rng``.

    Parameters
    ----------
    x_data : array_like, shape (n,)
        Samples of the data distribution.
    n_steps : int
        Number of generator steps.
    rng : numpy.random.Generator
    g0 : pair of float
        Initial ``(a, b)``.
    lr_d, lr_g : float
        Step sizes (positive).
    d_steps, batch : int
        Discriminator steps per generator step; minibatch size.

    Returns
    -------
    G : ndarray, shape (n_steps + 1, 2)
        ``(a, b)`` before each step and after the last.
    W : ndarray, shape (n_steps + 1, 3)
        The discriminator weights at the same times.

    Raises
    ------
    ValueError
        If an argument has the wrong shape or is out of range, or the parameters diverge
        (reduce ``lr_d`` or ``lr_g``).
    """
    x_data = check.vector(x_data, None, "x_data")
    n_steps, d_steps, batch = (check.count(n_steps, "n_steps"), check.count(d_steps, "d_steps"),
                               check.count(batch, "batch"))
    lr_d, lr_g, rng = check.positive(lr_d, "lr_d"), check.positive(lr_g, "lr_g"), check.generator(rng)
    w, g = np.zeros(3), check.vector(g0, 2, "g0").copy()
    G, W = [g.copy()], [w.copy()]
    for step in range(n_steps):
        for _ in range(d_steps):
            x, z = rng.choice(x_data, batch), rng.standard_normal(batch)
            with np.errstate(over="ignore", invalid="ignore"):
                w = w + lr_d * gan_gradients(w, g, x, z)[0]
            _diverged(w, step)
        with np.errstate(over="ignore", invalid="ignore"):
            g = g - lr_g * gan_gradients(w, g, x, rng.standard_normal(batch))[1]
        _diverged(g, step)
        G.append(g.copy())
        W.append(w.copy())
    return np.array(G), np.array(W)


# ------------------------------------------------------------------ the ELBO
def _elbo_inputs(x, W, mu, sigma, m, S):
    W = check.matrix(W, "W")
    D, k = W.shape
    x, mu, m = check.vector(x, D, "x"), check.vector(mu, D, "mu"), check.vector(m, k, "m")
    S, L = check.spd(S, k, "S")
    return x, W, mu, check.positive(sigma, "sigma"), m, S, L


def elbo_linear_gaussian(x, W, mu, sigma, m, S):
    """Closed-form ELBO of ``x = W h + mu + ε``, ``h ~ N(0, I)``, ``ε ~ N(0, σ² I)``, for ``q = N(m, S)``.

    ``ELBO = E_q log p(x|h) - KL(q ‖ p(h))`` with
    ``E_q log p(x|h) = -D/2 log(2πσ²) - (‖x - W m - mu‖² + tr(W S Wᵀ)) / (2σ²)`` and
    ``KL(N(m, S) ‖ N(0, I)) = (tr S + mᵀm - k - log det S) / 2``.

    Parameters
    ----------
    x : array_like, shape (D,)
        One observation.
    W : array_like, shape (D, k)
        Loading matrix.
    mu : array_like, shape (D,)
        Offset.
    sigma : float
        Noise standard deviation (positive).
    m : array_like, shape (k,)
        Mean of ``q(h|x)``.
    S : array_like, shape (k, k)
        Covariance of ``q(h|x)`` (symmetric positive definite).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``sigma`` is not positive or ``S`` is
        not symmetric positive definite.
    """
    x, W, mu, sigma, m, S, L = _elbo_inputs(x, W, mu, sigma, m, S)
    D, k = W.shape
    r = x - W @ m - mu
    expected_loglik = -D / 2 * np.log(2 * np.pi * sigma**2) - (r @ r + np.sum((W @ L) ** 2)) / (2 * sigma**2)
    kl_prior = 0.5 * (np.trace(S) + m @ m - k - 2 * np.sum(np.log(np.diag(L))))
    return float(expected_loglik - kl_prior)


def elbo_monte_carlo(x, W, mu, sigma, m, S, n_samples, rng):
    """Monte Carlo ELBO with the reparameterisation ``h = m + L ε``, ``L Lᵀ = S``, ``ε ~ N(0, I)``.

    Averages ``log p(x|h) + log p(h) - log q(h)`` over ``n_samples`` draws.

    Parameters
    ----------
    x, W, mu, sigma, m, S
        As in :func:`elbo_linear_gaussian`.
    n_samples : int
        Number of draws.
    rng : numpy.random.Generator

    Returns
    -------
    estimate : float
    standard_error : float
        Sample standard deviation of the terms over ``sqrt(n_samples)``.

    Raises
    ------
    ValueError
        As :func:`elbo_linear_gaussian`, or if ``n_samples < 2`` or ``rng`` is not a Generator.
    """
    x, W, mu, sigma, m, S, L = _elbo_inputs(x, W, mu, sigma, m, S)
    n_samples, rng = check.count(n_samples, "n_samples", low=2), check.generator(rng)
    D, k = W.shape
    eps = rng.standard_normal((n_samples, k))
    H = m + eps @ L.T
    R = x - H @ W.T - mu
    log_lik = -D / 2 * np.log(2 * np.pi * sigma**2) - np.sum(R**2, axis=1) / (2 * sigma**2)
    log_prior = -k / 2 * np.log(2 * np.pi) - np.sum(H**2, axis=1) / 2
    log_q = (-k / 2 * np.log(2 * np.pi) - np.sum(np.log(np.diag(L)))
             - np.sum(eps**2, axis=1) / 2)
    terms = log_lik + log_prior - log_q
    return float(terms.mean()), float(terms.std(ddof=1) / np.sqrt(n_samples))
