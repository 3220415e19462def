"""Information, likelihood and Langevin sampling (chapter 04).

Entropy, cross-entropy, KL divergence (also of conditionals) and mutual information of
discrete distributions; optimal prefix-code lengths; the categorical MLE and MAP; the
log-likelihood and its gradient for a discriminative (softmax), a descriptive
(exponential-family) and a generative (linear-Gaussian latent) model; Brownian motion and
the unadjusted Langevin algorithm.

Conventions. A discrete distribution is an array of non-negative numbers that sum to 1;
the whole array is one distribution (a 2-D array ``joint[x, y]`` is a joint table, rows
indexed by ``x``). Logarithms are natural (nats) unless ``base`` is given (``base=2``
gives bits). Terms with ``p(x) = 0`` contribute 0 (the convention ``0 log 0 = 0``); a
divergence or cross-entropy is ``+inf`` when ``q(x) = 0`` for some ``x`` with
``p(x) > 0``. Data points are the rows of ``X``; class labels are ``0, ..., K-1``.
"""
import heapq

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "entropy", "cross_entropy", "kl_divergence", "conditional_kl", "mutual_information",
    "empirical_joint", "huffman_code_lengths", "categorical_map",
    "softmax_log_likelihood", "descriptive_log_likelihood",
    "linear_gaussian_posterior", "linear_gaussian_log_likelihood",
    "brownian_paths", "langevin",
]

_SUM_TOL = 1e-8  # how far from 1 the sum of a probability vector may be


# ------------------------------------------------------------------------ validation
def _distribution(p, name, ndim=None):
    p = check.as_float(p, name)
    if p.size == 0 or (ndim is not None and p.ndim != ndim):
        shape = "a non-empty array" if ndim is None else f"a non-empty {ndim}-D array"
        raise ValueError(f"{name} must be {shape}, got shape {p.shape}")
    check.probabilities(p.ravel(), name, atol=_SUM_TOL)  # the whole array is one distribution
    return p


def _pair(p, q):
    p, q = _distribution(p, "p"), _distribution(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    return p, q


def _log_base(base):
    if base is None:
        return 1.0
    if check.positive(base, "base") == 1:
        raise ValueError(f"base must be a positive number other than 1, got {base!r}")
    return float(np.log(base))


def _finite(a, name, ndim):
    a = check.as_float(a, name)
    if a.ndim not in ndim or a.size == 0:
        raise ValueError(f"{name} must be a non-empty array with "
                         f"{' or '.join(map(str, ndim))} dimensions, got shape {a.shape}")
    return check.finite(a, name)


def _kl_terms(p, q):
    """Elementwise ``p log(p/q)``: 0 where ``p = 0``, ``+inf`` where ``p > 0 = q``."""
    terms = np.zeros(np.broadcast(p, q).shape)
    pos = np.broadcast_to(p > 0, terms.shape)
    p_pos = np.broadcast_to(p, terms.shape)[pos]
    q_pos = np.broadcast_to(q, terms.shape)[pos]
    with np.errstate(divide="ignore"):
        terms[pos] = p_pos * (np.log(p_pos) - np.log(q_pos))
    return terms


def _logsumexp(F, axis=None, keepdims=False):
    m = np.max(F, axis=axis, keepdims=True)
    out = m + np.log(np.sum(np.exp(F - m), axis=axis, keepdims=True))
    return out if keepdims else np.squeeze(out, axis=axis)


# ------------------------------------------------------------- entropy and divergence
def entropy(p, base=None):
    """Entropy ``H(p) = -sum_x p(x) log p(x)`` of a discrete distribution.

    Parameters
    ----------
    p : array_like
        Probabilities (non-negative, summing to 1); the whole array is one distribution,
        so a joint table ``p[x, y]`` gives the joint entropy ``H(X, Y)``.
    base : float, optional
        Base of the logarithm: natural (nats) by default, 2 for bits.

    Returns
    -------
    float
        ``H(p) >= 0``; terms with ``p(x) = 0`` contribute 0.

    Raises
    ------
    ValueError
        If ``p`` is empty, not finite, negative or does not sum to 1, or ``base`` is
        not a positive number other than 1.
    """
    p = _distribution(p, "p")
    scale = _log_base(base)
    return float(-np.sum(_kl_terms(p, 1.0)) / scale)


def cross_entropy(p, q, base=None):
    """Cross-entropy ``CE(p‖q) = -sum_x p(x) log q(x)``.

    The mean code length, under ``p``, of a code built for ``q`` (in bits for ``base=2``,
    up to rounding the lengths to integers).

    Parameters
    ----------
    p, q : array_like
        Two distributions of the same shape (non-negative, each summing to 1).
    base : float, optional
        Base of the logarithm: natural (nats) by default, 2 for bits.

    Returns
    -------
    float
        ``CE(p‖q) = H(p) + KL(p‖q)``; ``+inf`` if ``q(x) = 0`` for some ``x`` with
        ``p(x) > 0``. Terms with ``p(x) = 0`` contribute 0 whatever ``q(x)`` is.

    Raises
    ------
    ValueError
        If ``p`` or ``q`` is not a distribution, their shapes differ, or ``base`` is
        invalid.
    """
    p, q = _pair(p, q)
    scale = _log_base(base)
    pos = p > 0
    if np.any(q[pos] == 0):
        return float("inf")
    return float(-np.sum(p[pos] * np.log(q[pos])) / scale)


def kl_divergence(p, q, base=None):
    """Kullback-Leibler divergence ``KL(p‖q) = sum_x p(x) log(p(x) / q(x))``.

    Parameters
    ----------
    p, q : array_like
        Two distributions of the same shape (non-negative, each summing to 1).
    base : float, optional
        Base of the logarithm: natural (nats) by default, 2 for bits.

    Returns
    -------
    float
        ``KL(p‖q) >= 0``, zero if and only if ``p = q``. It is ``+inf`` when
        ``q(x) = 0`` for some ``x`` with ``p(x) > 0``: a code built for ``q`` has no
        codeword for such an ``x``. Terms with ``p(x) = 0`` contribute 0. This is the
        sum of ``scipy.special.rel_entr(p, q)``.

    Raises
    ------
    ValueError
        If ``p`` or ``q`` is not a distribution, their shapes differ, or ``base`` is
        invalid.
    """
    p, q = _pair(p, q)
    scale = _log_base(base)
    return float(np.sum(_kl_terms(p, q)) / scale)


def conditional_kl(p_x, p_cond, q_cond, base=None):
    """Conditional divergence ``E_{p(x)} KL(p(y|x) ‖ q(y|x))``, rows weighted by ``p(x)``.

    Parameters
    ----------
    p_x : array_like, shape (m,)
        The weights ``p(x)``, a distribution over the ``m`` values of ``x``.
    p_cond, q_cond : array_like, shape (m, k)
        Conditional tables: row ``x`` is the distribution ``p(y | x)``
        (resp. ``q(y | x)``).
    base : float, optional
        Base of the logarithm: natural (nats) by default, 2 for bits.

    Returns
    -------
    float
        ``sum_x p(x) KL(p(.|x) ‖ q(.|x))``. Rows with ``p(x) = 0`` contribute 0 (the
        conditional is only defined where ``p(x) > 0``); ``+inf`` if some row with
        ``p(x) > 0`` has an infinite divergence.

    Raises
    ------
    ValueError
        If ``p_x`` is not a distribution, a table has the wrong shape, or a row of a
        table is not a distribution; or ``base`` is invalid.
    """
    p_x = _distribution(p_x, "p_x", ndim=1)
    scale = _log_base(base)
    tables = []
    for name, table in (("p_cond", p_cond), ("q_cond", q_cond)):
        table = check.as_float(table, name)
        if table.ndim != 2 or table.shape[0] != p_x.size:
            raise ValueError(f"{name} must have shape ({p_x.size}, k), got {table.shape}")
        tables.append(check.probabilities(table, name, axis=1, atol=_SUM_TOL))  # rows
    if tables[0].shape != tables[1].shape:
        raise ValueError(f"p_cond and q_cond must have the same shape, "
                         f"got {tables[0].shape} and {tables[1].shape}")
    row_kl = np.sum(_kl_terms(*tables), axis=1)
    seen = p_x > 0
    return float(np.sum(p_x[seen] * row_kl[seen]) / scale)


def mutual_information(joint, base=None):
    """Mutual information ``I(X; Y) = KL(p(x, y) ‖ p(x) p(y))`` of a joint table.

    Parameters
    ----------
    joint : array_like, shape (a, b)
        Joint distribution ``p(x, y)``, rows indexed by ``x`` (non-negative, sum 1).
    base : float, optional
        Base of the logarithm: natural (nats) by default, 2 for bits.

    Returns
    -------
    float
        ``I(X; Y) >= 0``, zero if and only if ``X`` and ``Y`` are independent; always
        finite, because ``p(x) p(y) = 0`` only where ``p(x, y) = 0``.

    Raises
    ------
    ValueError
        If ``joint`` is not a 2-D distribution, or ``base`` is invalid.
    """
    joint = _distribution(joint, "joint", ndim=2)
    scale = _log_base(base)
    product = np.outer(joint.sum(axis=1), joint.sum(axis=0))
    return float(np.sum(_kl_terms(joint, product)) / scale)


def empirical_joint(x, y):
    """Joint frequency table ``p̂(x, y)`` of two paired discrete samples.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired observations of two discrete variables (numbers or strings).

    Returns
    -------
    ndarray, shape (a, b)
        ``count(x = u, y = v) / n`` for the ``a`` distinct values ``u`` of ``x`` and the
        ``b`` distinct values ``v`` of ``y``, each in sorted order.

    Raises
    ------
    ValueError
        If ``x`` or ``y`` is not a non-empty 1-D array of numbers or strings (ragged,
        object, NaN or inf values), or their lengths differ.
    """
    x, y = check.discrete_sample(x, "x"), check.discrete_sample(y, "y")
    if y.shape != x.shape:
        raise ValueError(f"y must have shape {x.shape}, got {y.shape}")
    _, ix = np.unique(x, return_inverse=True)
    _, iy = np.unique(y, return_inverse=True)
    a, b = ix.max() + 1, iy.max() + 1
    counts = np.bincount(ix * b + iy, minlength=a * b).reshape(a, b)
    return counts / x.size


def huffman_code_lengths(p):
    """Codeword lengths (bits) of a Huffman code, an optimal binary prefix code for ``p``.

    Repeatedly merge the two least probable groups of symbols; every merge adds one bit
    to the codewords of all symbols in the two groups. The loop runs over the ``K - 1``
    merges, not over data.

    Parameters
    ----------
    p : array_like, shape (K,)
        Symbol probabilities (non-negative, summing to 1).

    Returns
    -------
    ndarray of int, shape (K,)
        Lengths ``l`` with ``sum 2**-l = 1`` (for ``K >= 2``) and the smallest expected
        length ``sum p * l`` of all prefix codes. One symbol gets length 0.

    Raises
    ------
    ValueError
        If ``p`` is not a 1-D distribution.
    """
    p = _distribution(p, "p", ndim=1)
    lengths = np.zeros(p.size, dtype=int)
    heap = [(prob, k, [k]) for k, prob in enumerate(p)]  # k breaks ties deterministically
    heapq.heapify(heap)
    while len(heap) > 1:
        p1, k1, group1 = heapq.heappop(heap)
        p2, k2, group2 = heapq.heappop(heap)
        merged = group1 + group2
        lengths[merged] += 1
        heapq.heappush(heap, (p1 + p2, min(k1, k2), merged))
    return lengths


# ------------------------------------------------------------ maximum likelihood, MAP
def categorical_map(counts, alpha=1.0):
    """MAP estimate ``(n_k + alpha - 1) / (n + K (alpha - 1))`` of category probabilities.

    Under a symmetric Dirichlet(``alpha``) prior the posterior is Dirichlet(``n + alpha``)
    and this is its mode. ``alpha = 1`` (a flat prior) gives the maximum-likelihood
    estimate ``n_k / n``, the empirical frequencies; ``alpha = 2`` adds one to every
    count (Laplace smoothing).

    Parameters
    ----------
    counts : array_like, shape (K,)
        Non-negative counts ``n_k`` of the ``K`` categories.
    alpha : float
        Concentration of the prior, at least 1 (for ``alpha < 1`` the prior density is
        unbounded at the boundary and the mode need not be given by this formula).

    Returns
    -------
    ndarray, shape (K,)
        A probability vector.

    Raises
    ------
    ValueError
        If ``counts`` is not a finite non-negative 1-D array, ``alpha < 1``, or the
        estimate is undefined (all counts zero with ``alpha = 1``).
    """
    counts = check.vector(counts, None, "counts")
    if np.any(counts < 0):
        raise ValueError("counts must be non-negative")
    alpha = check.positive(alpha, "alpha")
    if alpha < 1:
        raise ValueError(f"alpha must be at least 1, got {alpha!r}")
    total = counts.sum() + counts.size * (alpha - 1)
    if total <= 0:
        raise ValueError("counts must not all be zero when alpha = 1 "
                         "(the MLE is undefined)")
    return (counts + alpha - 1) / total


# ----------------------------------------------------- gradients of the log-likelihood
def softmax_log_likelihood(W, X, y):
    """Log-likelihood ``sum_i log p_W(y_i | x_i)`` of a softmax classifier, and gradient.

    The class scores are linear, ``f(x) = W x``, and
    ``p_W(y = k | x) = exp(f_k(x)) / sum_k' exp(f_k'(x))``. For one point the gradient
    is ``(Y - p) xᵀ``, with ``Y`` the one-hot label, and for the data set ``(Y - P)ᵀ X``:
    the model learns from its errors.

    Parameters
    ----------
    W : array_like, shape (K, d)
        One row of weights per class (include a constant feature in ``X`` for intercepts).
    X : array_like, shape (n, d)
        Data points as rows.
    y : array_like of int, shape (n,)
        Labels in ``0, ..., K-1``.

    Returns
    -------
    loglik : float
    grad : ndarray, shape (K, d)
        The gradient with respect to ``W``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or a label is not in ``0, ..., K-1``.
    """
    W, X = check.matrix(W, "W"), check.matrix(X, "X")
    K, d = W.shape
    if X.shape[1] != d:
        raise ValueError(f"X must have {d} columns (as W), got shape {X.shape}")
    y = check.index_array(y, X.shape[0], K, "y")   # labels in 0, ..., K-1
    F = X @ W.T                                   # scores, shape (n, K)
    log_P = F - _logsumexp(F, axis=1, keepdims=True)
    Y = np.eye(K)[y]                              # one-hot labels
    return float(np.sum(Y * log_P)), (Y - np.exp(log_P)).T @ X


def descriptive_log_likelihood(theta, phi, x):
    """Log-likelihood of ``p_θ(x) = exp(θᵀφ(x)) / Z(θ)`` on a finite space, and gradient.

    The gradient is ``sum_i φ(x_i) - n E_θ[φ]``: the data statistics minus ``n`` times
    their expectation under the model, which is computed exactly by summing over the
    states.

    Parameters
    ----------
    theta : array_like, shape (k,)
        Parameters.
    phi : array_like, shape (m, k)
        Row ``s`` holds the features ``φ(s)`` of state ``s``; ``f_θ(s) = θᵀφ(s)``.
    x : array_like of int, shape (n,)
        Observed states, as indices into the rows of ``phi``.

    Returns
    -------
    loglik : float
        ``sum_i log p_θ(x_i)``.
    grad : ndarray, shape (k,)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or a state index is out of range.
    """
    phi = check.matrix(phi, "phi")
    m, k = phi.shape
    theta = check.vector(theta, k, "theta")
    x = check.index_array(x, None, m, "x")           # states in 0, ..., m-1
    f = phi @ theta
    log_p = f - _logsumexp(f)                    # log p_θ of every state
    expected_phi = np.exp(log_p) @ phi           # E_θ[φ]
    return float(np.sum(log_p[x])), phi[x].sum(axis=0) - x.size * expected_phi


def _linear_gaussian_inputs(W, sigma, X):
    W, X = check.matrix(W, "W"), check.matrix(X, "X")
    sigma = check.positive(sigma, "sigma")
    if X.shape[1] != W.shape[0]:
        raise ValueError(f"X must have {W.shape[0]} columns (the rows of W), "
                         f"got shape {X.shape}")
    return W, sigma, X


def linear_gaussian_posterior(W, sigma, X):
    """Gaussian posterior ``h | x ~ N(m(x), S)`` of the linear-Gaussian latent model.

    The model is ``h ~ N(0, I)``, ``x | h ~ N(W h, sigma² I)``. Then
    ``S = (I + WᵀW / sigma²)⁻¹`` and ``m(x) = S Wᵀ x / sigma²``; ``S`` does not depend
    on ``x``.

    Parameters
    ----------
    W : array_like, shape (D, k)
        Loading matrix (``D`` observed and ``k`` latent dimensions).
    sigma : float
        Noise standard deviation (positive).
    X : array_like, shape (n, D)
        Observations as rows.

    Returns
    -------
    M : ndarray, shape (n, k)
        Row ``i`` is the posterior mean ``m(x_i)``.
    S : ndarray, shape (k, k)
        The posterior covariance.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``sigma`` is not positive.
    """
    W, sigma, X = _linear_gaussian_inputs(W, sigma, X)
    S = np.linalg.inv(np.eye(W.shape[1]) + W.T @ W / sigma**2)
    return X @ W @ S / sigma**2, S


def linear_gaussian_log_likelihood(W, sigma, X):
    """Log-likelihood of the linear-Gaussian latent model, and its gradient in ``W``.

    The marginal is ``x ~ N(0, C)`` with ``C = W Wᵀ + sigma² I``. The gradient is
    ``sum_i E_{p(h|x_i)}[∇_W log p(h, x_i)]``, where
    ``∇_W log p(h, x) = (x - W h) hᵀ / sigma²``, averaged over the Gaussian posterior
    (``E[h hᵀ | x] = S + m mᵀ``).

    Parameters
    ----------
    W : array_like, shape (D, k)
        Loading matrix.
    sigma : float
        Noise standard deviation (positive).
    X : array_like, shape (n, D)
        Observations as rows.

    Returns
    -------
    loglik : float
        ``sum_i log N(x_i; 0, W Wᵀ + sigma² I)``.
    grad : ndarray, shape (D, k)
        The gradient with respect to ``W``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``sigma`` is not positive.
    """
    W, sigma, X = _linear_gaussian_inputs(W, sigma, X)
    n, D = X.shape
    L = np.linalg.cholesky(W @ W.T + sigma**2 * np.eye(D))
    Z = np.linalg.solve(L, X.T)                  # whitened: ‖column i‖² = x_iᵀ C⁻¹ x_i
    log_det = 2 * np.sum(np.log(np.diag(L)))
    loglik = -0.5 * np.sum(Z**2) - 0.5 * n * (D * np.log(2 * np.pi) + log_det)
    M, S = linear_gaussian_posterior(W, sigma, X)
    grad = (X.T @ M - W @ (n * S + M.T @ M)) / sigma**2
    return float(loglik), grad


# --------------------------------------------------------- Brownian motion, Langevin
def brownian_paths(n_paths, n_steps, dt, rng, sigma=1.0, x0=0.0):
    """Brownian paths on the grid ``t = j dt``, by ``X_{t+dt} = X_t + sigma √dt ε``.

    Parameters
    ----------
    n_paths, n_steps : int
        Number of independent paths and of time steps (at least 1).
    dt : float
        Time step (positive).
    rng : numpy.random.Generator
        Source of the Gaussian increments.
    sigma : float
        Diffusion coefficient (positive): ``Var X_t = sigma² t``.
    x0 : float
        Starting point.

    Returns
    -------
    ndarray, shape (n_paths, n_steps + 1)
        Column ``j`` holds ``X`` at time ``j dt``; column 0 is ``x0``.

    Raises
    ------
    ValueError
        If a count is not a positive integer, ``dt`` or ``sigma`` is not positive,
        ``x0`` is not finite, or ``rng`` is not a Generator.
    """
    n_paths, n_steps = check.count(n_paths, "n_paths"), check.count(n_steps, "n_steps")
    dt, sigma = check.positive(dt, "dt"), check.positive(sigma, "sigma")
    x0 = check.number(x0, "x0")
    steps = sigma * np.sqrt(dt) * check.generator(rng).standard_normal((n_paths, n_steps))
    paths = np.concatenate([np.zeros((n_paths, 1)), np.cumsum(steps, axis=1)], axis=1)
    return x0 + paths


def langevin(grad_log_p, x0, step, n_steps, rng, return_path=False):
    """Unadjusted Langevin algorithm ``x ← x + ε ∇log p(x) + √(2ε) ξ`` for many chains.

    Here ``ε = step``; with ``ε = δ²/2`` the update is ``x ← x + (δ²/2) ∇log p(x) + δ ξ``.
    Drift and noise must be coupled this way (in the notes' notation ``η = λ²/2``); then
    for small ``ε`` the chains sample ``p``, with a bias of order ``ε``. Only ``∇log p``
    is needed, so ``p`` may be unnormalised. The loop runs over time steps only.

    Parameters
    ----------
    grad_log_p : callable
        Maps an array of states of shape ``x0.shape`` to the gradients of ``log p`` at
        those states, same shape (one row per chain for ``d``-dimensional targets).
    x0 : array_like, shape (n_chains,) or (n_chains, d)
        Starting points, one per independent chain (``(n_chains,)`` for a 1-D target).
    step : float
        Step size ``ε > 0`` (the time step of the discretised Langevin diffusion).
    n_steps : int
        Number of updates (at least 1).
    rng : numpy.random.Generator
        Source of the Gaussian noise ``ξ``.
    return_path : bool
        Return every state instead of only the last.

    Returns
    -------
    ndarray
        The final states, shape ``x0.shape``; with ``return_path``, shape
        ``(n_steps + 1,) + x0.shape`` with ``x0`` first.

    Raises
    ------
    ValueError
        If ``grad_log_p`` is not callable, returns an array of the wrong shape or a
        non-finite gradient at ``x0``; ``x0`` is not a finite 1-D or 2-D array, ``step`` is
        not positive, ``n_steps`` is not a positive integer, ``rng`` is not a Generator, or
        ``return_path`` is not a bool.
    FloatingPointError
        If the chains diverge (a step too large for the curvature of ``log p``).
    """
    grad_log_p, x = check.function(grad_log_p, "grad_log_p"), _finite(x0, "x0", (1, 2))
    eps, n_steps = check.positive(step, "step"), check.count(n_steps, "n_steps")  # ε = step
    rng, return_path = check.generator(rng), check.flag(return_path, "return_path")
    noise_scale = np.sqrt(2 * eps)
    path = np.empty((n_steps + 1,) + x.shape) if return_path else None
    if return_path:
        path[0] = x
    for t in range(1, n_steps + 1):
        with np.errstate(over="ignore", invalid="ignore"):  # divergence is reported below
            g = check.as_float(grad_log_p(x), "the value returned by grad_log_p")
            if g.shape != x.shape or (t == 1 and not np.all(np.isfinite(g))):
                check.returned(g, "grad_log_p", x.shape)  # raises: wrong shape, or not finite at x0
            x = x + eps * g + noise_scale * rng.standard_normal(x.shape)
        if not np.all(np.isfinite(x)):
            raise FloatingPointError(f"the chains diverged at step {t}: reduce step")
        if return_path:
            path[t] = x
    return path if return_path else x
