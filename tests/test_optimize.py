"""Tests of mlnotes.optimize against scipy.optimize, closed forms and brute force, plus the
chapter's inequalities (projection lemma, convergence rates)."""
import itertools

import numpy as np
import pytest
import scipy.optimize

from mlnotes import optimize as opt

SIZES = [(2, 0), (5, 1), (12, 2)]  # (d, seed)


def _quadratic(d, seed, cond=100.0):
    """A random SPD matrix with eigenvalues from 1 to cond, and a minimiser."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    A = (Q * np.geomspace(1.0, cond, d)) @ Q.T
    return (A + A.T) / 2, rng.standard_normal(d)


def _regression(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = X @ (2 * rng.standard_normal(d)) + 0.3 * rng.standard_normal(n)
    return X, y


def _simplex_brute_force(y, total=1.0):
    """Projection onto the simplex by trying every support set (small d only)."""
    best, best_dist = None, np.inf
    for k in range(1, y.size + 1):
        for S in itertools.combinations(range(y.size), k):
            S = list(S)
            p = np.zeros_like(y)
            p[S] = y[S] - (y[S].sum() - total) / k
            if np.all(p >= -1e-12) and np.sum((p - y) ** 2) < best_dist:
                best, best_dist = p, np.sum((p - y) ** 2)
    return best


def _slsqp(fun, jac, x0, constraints, bounds=None):
    res = scipy.optimize.minimize(fun, x0, jac=jac, method="SLSQP", bounds=bounds,
                                  constraints=constraints, options={"ftol": 1e-10, "maxiter": 1000})
    # status 8 ("positive directional derivative in line search") is SLSQP stopping at the
    # limit of its precision; the callers compare res.x elementwise, which is the real test
    assert res.status in (0, 8), res.message
    return res.x


# ------------------------------------------------------------------------ projections
@pytest.mark.parametrize("d, seed", SIZES)
def test_project_simplex_matches_brute_force_and_slsqp(d, seed):
    rng = np.random.default_rng(seed)
    Y = 2 * rng.standard_normal((6, d))
    for total in (1.0, 2.5):
        P = opt.project_simplex(Y, total)
        np.testing.assert_allclose(P.sum(axis=1), total, atol=1e-12)
        assert P.min() >= 0
        if d <= 5:
            for y, p in zip(Y, P):
                np.testing.assert_allclose(p, _simplex_brute_force(y, total), atol=1e-12)
        for y, p in zip(Y[:3], P[:3]):
            ref = _slsqp(lambda z: 0.5 * np.sum((z - y) ** 2), lambda z: z - y, np.full(d, total / d),
                         [{"type": "eq", "fun": lambda z: z.sum() - total, "jac": lambda z: np.ones(d)}],
                         bounds=[(0, None)] * d)
            np.testing.assert_allclose(p, ref, atol=1e-7)
        np.testing.assert_allclose(opt.project_simplex(Y[0], total), P[0])  # 1-D input


@pytest.mark.parametrize("d, seed", SIZES)
def test_project_ball_closed_form_and_slsqp(d, seed):
    rng = np.random.default_rng(seed)
    Y, c, r = 3 * rng.standard_normal((8, d)), rng.standard_normal(d), 1.7
    P = opt.project_ball(Y, r, c)
    dist = np.linalg.norm(Y - c, axis=1)
    outside = dist > r
    np.testing.assert_allclose(P[outside], c + r * (Y[outside] - c) / dist[outside, None], atol=1e-12)
    np.testing.assert_array_equal(P[~outside], Y[~outside])
    for y, p in zip(Y[:3], P[:3]):
        ref = _slsqp(lambda z: 0.5 * np.sum((z - y) ** 2), lambda z: z - y, c + 0.1,
                     [{"type": "ineq", "fun": lambda z: r**2 - np.sum((z - c) ** 2),
                       "jac": lambda z: -2 * (z - c)}])
        np.testing.assert_allclose(p, ref, atol=1e-6)
    np.testing.assert_allclose(opt.project_ball(Y[0]), Y[0] / max(1.0, np.linalg.norm(Y[0])))


@pytest.mark.parametrize("d, seed", SIZES)
def test_project_box_matches_lsq_linear(d, seed):
    rng = np.random.default_rng(seed)
    y = 2 * rng.standard_normal(d)
    lo, hi = -rng.random(d), rng.random(d)
    lo[0] = -np.inf
    ref = scipy.optimize.lsq_linear(np.eye(d), y, bounds=(lo, hi)).x  # min ||z - y||² on the box
    np.testing.assert_allclose(opt.project_box(y, lo, hi), ref, atol=1e-10)
    np.testing.assert_array_equal(opt.project_box(y, -0.5, 0.5), np.clip(y, -0.5, 0.5))


def _sets(d, rng):
    """(projection, sampler of points of the set) for the three sets."""
    lo, hi = -rng.random(d), rng.random(d)
    c, r = rng.standard_normal(d), 1.3

    def in_ball(m):
        u = rng.standard_normal((m, d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        return c + r * rng.random((m, 1)) ** (1 / d) * u

    return {
        "box": (lambda x: opt.project_box(x, lo, hi), lambda m: lo + (hi - lo) * rng.random((m, d))),
        "ball": (lambda x: opt.project_ball(x, r, c), in_ball),
        "simplex": (opt.project_simplex, lambda m: rng.dirichlet(np.ones(d), size=m)),
    }


@pytest.mark.parametrize("d, seed", SIZES)
@pytest.mark.parametrize("name", ["box", "ball", "simplex"])
def test_projection_lemma(name, d, seed):
    rng = np.random.default_rng(seed)
    project, sample = _sets(d, rng)[name]
    m = 2000
    Y, Y2, Z = 3 * rng.standard_normal((m, d)), 3 * rng.standard_normal((m, d)), sample(m)
    P, P2 = project(Y), project(Y2)
    # variational inequality <y - P(y), z - P(y)> <= 0 for z in the set
    assert np.all(np.sum((Y - P) * (Z - P), axis=1) <= 1e-10)
    # the notes' three-point form ||P(y) - z||² <= ||y - z||² - ||y - P(y)||²
    lhs = np.sum((P - Z) ** 2, axis=1)
    assert np.all(lhs <= np.sum((Y - Z) ** 2, axis=1) - np.sum((Y - P) ** 2, axis=1) + 1e-10)
    # non-expansive, idempotent, and closest among the sampled points of the set
    assert np.all(np.linalg.norm(P - P2, axis=1) <= np.linalg.norm(Y - Y2, axis=1) + 1e-12)
    np.testing.assert_allclose(project(P), P, atol=1e-12)
    assert np.all(np.linalg.norm(Y - P, axis=1) <= np.linalg.norm(Y - Z, axis=1) + 1e-12)
    np.testing.assert_allclose(project(Z), Z, atol=1e-12)  # points of the set stay put


def test_projection_lemma_fails_for_a_non_convex_set():
    """Projection onto the unit circle (not convex) breaks the variational inequality."""
    rng = np.random.default_rng(0)
    Y = 0.5 * rng.standard_normal((500, 2))
    P = Y / np.linalg.norm(Y, axis=1, keepdims=True)
    Z = -P  # the antipodal points are on the circle too
    assert np.any(np.sum((Y - P) * (Z - P), axis=1) > 0.1)


# ------------------------------------------------------------------ gradient descent
@pytest.mark.parametrize("d, seed", SIZES)
def test_gradient_descent_rates_on_quadratics(d, seed):
    A, x_star = _quadratic(d, seed)
    L, mu = np.linalg.eigvalsh(A)[[-1, 0]]
    f = lambda X: 0.5 * np.einsum("ti,ij,tj->t", X - x_star, A, X - x_star)  # noqa: E731
    x0 = np.zeros(d)
    path = opt.gradient_descent(lambda x: A @ (x - x_star), x0, 1 / L, 300)
    gap, t = f(path), np.arange(301)
    assert np.all(gap[1:] <= L * np.sum((x0 - x_star) ** 2) / (2 * t[1:]) * (1 + 1e-12))
    assert np.all(gap <= (1 - mu / L) ** t * gap[0] * (1 + 1e-12) + 1e-300)
    assert np.all(np.diff(np.linalg.norm(path - x_star, axis=1)) <= 1e-12)  # Fejér monotone
    for eta in (1.5 / L, 1.9 / L):  # the general linear rate for 0 < eta < 2/L
        gap = f(opt.gradient_descent(lambda x: A @ (x - x_star), x0, eta, 200))
        assert np.all(gap <= (1 - eta * mu * (2 - eta * L)) ** t[:201] * gap[0] * (1 + 1e-12) + 1e-300)
        assert np.all(np.diff(gap) <= 1e-15)
    np.testing.assert_allclose(opt.gradient_descent(lambda x: A @ (x - x_star), x0, 1 / L, 3000)[-1],
                               x_star, atol=1e-8)


@pytest.mark.parametrize("n, d, seed", [(50, 2, 0), (200, 5, 1)])
def test_gradient_descent_logistic_matches_lbfgs(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (rng.random(n) < 1 / (1 + np.exp(-X @ rng.standard_normal(d)))).astype(float)
    lam = 0.1
    f = lambda w: np.sum(np.logaddexp(0, X @ w) - y * (X @ w)) + lam / 2 * w @ w  # noqa: E731
    grad = lambda w: X.T @ (1 / (1 + np.exp(-X @ w)) - y) + lam * w  # noqa: E731
    L = np.linalg.eigvalsh(X.T @ X).max() / 4 + lam
    ref = scipy.optimize.minimize(f, np.zeros(d), jac=grad, method="L-BFGS-B",
                                  options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10000})
    path = opt.gradient_descent(grad, np.zeros(d), 1 / L, 3000)
    np.testing.assert_allclose(path[-1], ref.x, atol=1e-6)
    gaps = np.array([f(w) for w in path[1:200]]) - ref.fun
    assert np.all(gaps <= L * np.sum(ref.x**2) / (2 * np.arange(1, 200)) + 1e-9)


def test_step_schedule():
    A, x_star = _quadratic(3, 0)
    grad = lambda x: A @ (x - x_star)  # noqa: E731
    const = opt.gradient_descent(grad, np.zeros(3), 0.005, 20)
    np.testing.assert_array_equal(opt.gradient_descent(grad, np.zeros(3), lambda t: 0.005, 20), const)
    seen = []
    opt.sgd(grad, np.zeros(3), lambda t: seen.append(t) or 1.0 / (t + 100), 5)
    assert seen == [1, 2, 3, 4, 5]


# ----------------------------------------------------------- projected gradient descent
@pytest.mark.parametrize("n, d, seed", [(30, 3, 0), (80, 6, 1), (200, 10, 2)])
def test_pgd_reaches_the_lsq_linear_optimum(n, d, seed):
    X, y = _regression(n, d, seed)
    rng = np.random.default_rng(seed + 10)
    lo, hi = -rng.random(d), rng.random(d)
    ref = scipy.optimize.lsq_linear(X, y, bounds=(lo, hi), method="bvls", tol=1e-12)
    L = np.linalg.norm(X, 2) ** 2
    path = opt.projected_gradient_descent(lambda w: X.T @ (X @ w - y),
                                          lambda w: opt.project_box(w, lo, hi), np.zeros(d), 1 / L, 5000)
    np.testing.assert_allclose(path[-1], ref.x, atol=1e-7)
    assert np.all((path >= lo - 1e-15) & (path <= hi + 1e-15))  # every iterate is feasible
    f = 0.5 * np.sum((path @ X.T - y) ** 2, axis=1)
    t = np.arange(1, path.shape[0])
    assert np.all(f[1:] - ref.cost <= L * np.sum((path[0] - ref.x) ** 2) / (2 * t) + 1e-9)
    assert np.all(np.diff(f) <= 1e-9)  # monotone decrease with step 1/L
    # fixed point: x* = P(x* - grad f(x*) / L)
    np.testing.assert_allclose(opt.project_box(ref.x - X.T @ (X @ ref.x - y) / L, lo, hi), ref.x, atol=1e-7)


@pytest.mark.parametrize("n, d, seed", [(30, 3, 0), (100, 5, 1)])
def test_pgd_on_ball_and_simplex_matches_slsqp(n, d, seed):
    X, y = _regression(n, d, seed)
    L = np.linalg.norm(X, 2) ** 2
    grad = lambda w: X.T @ (X @ w - y)  # noqa: E731
    fun = lambda w: 0.5 * np.sum((X @ w - y) ** 2)  # noqa: E731
    ball = opt.projected_gradient_descent(grad, lambda w: opt.project_ball(w, 0.5), np.zeros(d), 1 / L, 5000)[-1]
    ref = _slsqp(fun, grad, np.full(d, 0.1), [{"type": "ineq", "fun": lambda w: 0.25 - w @ w, "jac": lambda w: -2 * w}])
    np.testing.assert_allclose(ball, ref, atol=1e-6)
    simplex = opt.projected_gradient_descent(grad, opt.project_simplex, np.zeros(d), 1 / L, 5000)[-1]
    ref = _slsqp(fun, grad, np.full(d, 1 / d),
                 [{"type": "eq", "fun": lambda w: w.sum() - 1, "jac": lambda w: np.ones(d)}],
                 bounds=[(0, None)] * d)
    np.testing.assert_allclose(simplex, ref, atol=1e-6)


def test_qp_dual_by_pgd_satisfies_kkt():
    """min xᵀPx s.t. Ax <= b: the dual solved by PGD on λ >= 0 gives the primal solution."""
    P = np.array([[2.0, 0.6], [0.6, 1.0]])
    A = np.array([[-1.0, -1.0], [1.0, -2.0], [-0.5, 1.0]])
    b = np.array([-2.0, 1.0, 1.2])
    Q = A @ np.linalg.solve(P, A.T)
    path = opt.projected_gradient_descent(lambda lam: Q @ lam / 2 + b, lambda lam: opt.project_box(lam, 0, np.inf),
                                          np.zeros(3), 2 / np.linalg.eigvalsh(Q).max(), 3000)
    lam = path[-1]
    x = -0.5 * np.linalg.solve(P, A.T @ lam)
    ref = _slsqp(lambda z: z @ P @ z, lambda z: 2 * P @ z, np.array([3.0, 3.0]),
                 [{"type": "ineq", "fun": lambda z: b - A @ z, "jac": lambda z: -A}])
    np.testing.assert_allclose(x, ref, atol=1e-7)
    assert x @ P @ x == pytest.approx(-0.25 * lam @ Q @ lam - b @ lam, abs=1e-10)  # no duality gap
    assert np.all(A @ x - b <= 1e-10) and np.all(lam >= 0)
    np.testing.assert_allclose(lam * (A @ x - b), 0, atol=1e-10)
    np.testing.assert_allclose(2 * P @ x + A.T @ lam, 0, atol=1e-10)


# ------------------------------------------------------------------ stochastic methods
def _ill_conditioned():
    th = np.pi / 6
    R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    A = R @ np.diag([1.0, 50.0]) @ R.T
    c = np.array([1.0, 2.0])
    return A, c, (lambda x: A @ (x - c)), np.array([-2.0, -1.0])


@pytest.mark.parametrize("method, step, kwargs, tol", [
    (opt.sgd, 1 / 50, {}, 1e-6),
    (opt.momentum, 4 / (1 + np.sqrt(50)) ** 2, {"mu": ((np.sqrt(50) - 1) / (np.sqrt(50) + 1)) ** 2}, 1e-12),
    (opt.momentum, 0.002, {"mu": 0.9}, 1e-8),
    (opt.adagrad, 1.0, {}, 1e-10),
    (opt.rmsprop, 0.01, {"beta": 0.999}, 1e-9),
    (opt.adam, 0.1, {}, 1e-10),
])
def test_optimisers_reach_the_minimiser_of_an_ill_conditioned_quadratic(method, step, kwargs, tol):
    _, c, grad, x0 = _ill_conditioned()
    path = method(grad, x0, step, 3000, **kwargs)
    assert path.shape == (3001, 2)
    assert np.linalg.norm(path[-1] - c) <= tol


def test_rmsprop_with_short_memory_ends_in_a_two_cycle():
    A, c, grad, x0 = _ill_conditioned()
    for eta in (0.02, 0.005):
        path = opt.rmsprop(grad, x0, eta, 3000, beta=0.9)
        dev = (path[-4:] - c) / (eta / 2)  # ±s with s a sign vector satisfying sign(A s) = s
        s = np.sign(dev[-1])
        np.testing.assert_allclose(np.abs(dev), 1, atol=1e-5)
        np.testing.assert_allclose(dev[1:], -dev[:-1], atol=1e-5)
        assert np.array_equal(np.sign(A @ s), s)


def test_sgd_equals_gradient_descent_and_momentum_zero():
    _, _, grad, x0 = _ill_conditioned()
    gd = opt.gradient_descent(grad, x0, 0.01, 50)
    np.testing.assert_array_equal(opt.sgd(grad, x0, 0.01, 50), gd)
    np.testing.assert_allclose(opt.momentum(grad, x0, 0.01, 50, mu=0.0), gd, atol=1e-15)


def test_momentum_is_the_linear_heavy_ball_recursion():
    A, c, grad, x0 = _ill_conditioned()
    eta, mu, T = 0.01, 0.8, 40
    path = opt.momentum(grad, x0, eta, T, mu=mu)
    I = np.eye(2)
    M = np.block([[I - eta * A, -eta * mu * I], [A, mu * I]])  # (e_t, v_t) -> (e_{t+1}, v_{t+1})
    state = np.concatenate([x0 - c, np.zeros(2)])
    for t in range(1, T + 1):
        state = M @ state
        np.testing.assert_allclose(path[t], c + state[:2], atol=1e-12)
    # the notes' form u_t = mu u_{t-1} + eta g_t, x_t = x_{t-1} - u_t gives the same path
    x, u = x0.copy(), np.zeros(2)
    for t in range(1, T + 1):
        u = mu * u + eta * grad(x)
        x = x - u
        np.testing.assert_allclose(path[t], x, atol=1e-12)


def test_adagrad_effective_step_decreases():
    _, _, grad, x0 = _ill_conditioned()
    eta, eps = 0.5, 1e-8
    path = opt.adagrad(grad, x0, eta, 100, eps=eps)
    G = np.cumsum(np.array([grad(x) for x in path[:-1]]) ** 2, axis=0)
    g = np.array([grad(x) for x in path[:-1]])
    effective = (path[:-1] - path[1:]) / g
    np.testing.assert_allclose(effective, eta / (np.sqrt(G) + eps), rtol=1e-9)
    assert np.all(np.diff(effective, axis=0) <= 1e-15)


def test_adam_first_step_and_bias_correction():
    g = np.array([1e-3, -2.0, 5e2, -7e-2])
    eta, eps = 0.01, 1e-8
    path = opt.adam(lambda x: g, np.zeros(4), eta, 20, eps=eps)
    step = path[:-1] - path[1:]
    # with a constant gradient m̂_t = g and v̂_t = g² at every t: each step is eta g / (|g| + eps)
    np.testing.assert_allclose(step, np.tile(eta * g / (np.abs(g) + eps), (20, 1)), rtol=1e-10)
    np.testing.assert_allclose(step[0], eta * np.sign(g), rtol=1e-5)
    # on any gradient the first step is about eta sign(g)
    _, _, grad, x0 = _ill_conditioned()
    first = opt.adam(grad, x0, 0.05, 1)
    np.testing.assert_allclose(x0 - first[1], 0.05 * np.sign(grad(x0)), rtol=1e-7)


@pytest.mark.parametrize("n, batch_size, seed", [(50, 5, 0), (200, 20, 1)])
def test_minibatch_gradient_is_unbiased(n, batch_size, seed):
    X, y = _regression(n, 3, seed)
    batch_grad = lambda w, idx: X[idx].T @ (X[idx] @ w - y[idx]) / len(idx)  # noqa: E731
    oracle = opt.minibatch_gradient(batch_grad, n, batch_size, np.random.default_rng(seed))
    w = np.ones(3)
    draws = np.array([oracle(w) for _ in range(4000)])
    full = batch_grad(w, np.arange(n))
    se = draws.std(axis=0, ddof=1) / np.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - full) < 4 * se)
    exact = opt.minibatch_gradient(batch_grad, n, n, np.random.default_rng(0))
    np.testing.assert_allclose(exact(w), full, atol=1e-12)


@pytest.mark.parametrize("method", [opt.sgd, opt.momentum, opt.adagrad, opt.rmsprop, opt.adam])
def test_stochastic_methods_on_minibatch_least_squares(method):
    X, y = _regression(300, 3, 0)
    w_star = np.linalg.lstsq(X, y, rcond=None)[0]
    batch_grad = lambda w, idx: X[idx].T @ (X[idx] @ w - y[idx]) / len(idx)  # noqa: E731
    oracle = opt.minibatch_gradient(batch_grad, 300, 30, np.random.default_rng(1))
    step = {opt.sgd: lambda t: 0.5 / (1 + t / 50), opt.momentum: lambda t: 0.05 / (1 + t / 50),
            opt.adagrad: 0.5}.get(method, lambda t: 0.1 / np.sqrt(t))  # Adagrad decays by itself
    path = method(oracle, np.zeros(3), step, 2000)
    assert np.linalg.norm(path[-1] - w_star) < 0.05 * np.linalg.norm(w_star)


# -------------------------------------------------------------------------- bad inputs
def test_bad_inputs():
    grad = lambda x: x  # noqa: E731
    x0 = np.ones(2)
    for method in (opt.gradient_descent, opt.sgd, opt.momentum, opt.adagrad, opt.rmsprop, opt.adam):
        with pytest.raises(ValueError, match="grad"):
            method("not a function", x0, 0.1, 5)
        with pytest.raises(ValueError, match="x0"):
            method(grad, np.ones((2, 2)), 0.1, 5)
        with pytest.raises(ValueError, match="x0"):
            method(grad, [1.0, np.nan], 0.1, 5)
        with pytest.raises(ValueError, match="step"):
            method(grad, x0, 0.0, 5)
        with pytest.raises(ValueError, match="step"):
            method(grad, x0, lambda t: -1.0, 5)
        with pytest.raises(ValueError, match="n_steps"):
            method(grad, x0, 0.1, 0)
        with pytest.raises(ValueError, match="n_steps"):
            method(grad, x0, 0.1, 5.0)
        with pytest.raises(ValueError, match="grad must return an array of shape"):
            method(lambda x: np.ones(3), x0, 0.1, 5)
    with pytest.raises(ValueError, match="grad returned NaN or inf"):
        opt.gradient_descent(lambda x: np.exp(1e3 * x), x0, 1.0, 5)
    with pytest.raises(ValueError, match="mu"):
        opt.momentum(grad, x0, 0.1, 5, mu=1.0)
    with pytest.raises(ValueError, match="beta"):
        opt.rmsprop(grad, x0, 0.1, 5, beta=-0.1)
    with pytest.raises(ValueError, match="beta2"):
        opt.adam(grad, x0, 0.1, 5, beta2=1.5)
    with pytest.raises(ValueError, match="eps"):
        opt.adam(grad, x0, 0.1, 5, eps=0.0)
    with pytest.raises(ValueError, match="eps"):
        opt.adagrad(grad, x0, 0.1, 5, eps=-1.0)
    with pytest.raises(ValueError, match="project"):
        opt.projected_gradient_descent(grad, None, x0, 0.1, 5)
    with pytest.raises(ValueError, match="project must return"):
        opt.projected_gradient_descent(grad, lambda y: y[:1], x0, 0.1, 5)


def test_bad_projection_inputs():
    with pytest.raises(ValueError, match="x"):
        opt.project_box(np.ones((2, 2, 2)), 0, 1)
    with pytest.raises(ValueError, match="x"):
        opt.project_simplex([1.0, np.inf])
    with pytest.raises(ValueError, match="lower must not exceed upper"):
        opt.project_box([0.0, 0.0], 1, 0)
    with pytest.raises(ValueError, match="upper"):
        opt.project_box([0.0, 0.0], 0, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="lower"):
        opt.project_box([0.0, 0.0], np.nan, 1)
    with pytest.raises(ValueError, match="radius"):
        opt.project_ball([1.0, 2.0], radius=0)
    with pytest.raises(ValueError, match="center"):
        opt.project_ball([1.0, 2.0], center=[0.0])
    with pytest.raises(ValueError, match="total"):
        opt.project_simplex([1.0, 2.0], total=-1)


def test_bad_minibatch_inputs():
    bg = lambda w, idx: w  # noqa: E731
    with pytest.raises(ValueError, match="batch_grad"):
        opt.minibatch_gradient(3, 10, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="batch_size"):
        opt.minibatch_gradient(bg, 10, 11, np.random.default_rng(0))
    with pytest.raises(ValueError, match="n must"):
        opt.minibatch_gradient(bg, 0, 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        opt.minibatch_gradient(bg, 10, 2, 0)


def test_what_the_callables_return_is_checked_by_name():
    x0 = np.ones(2)
    for bad in ("abc", None, [[1.0, 2.0], [3.0]], object()):
        with pytest.raises(ValueError, match="the value returned by grad"):
            opt.gradient_descent(lambda x, b=bad: b, x0, 0.1, 3)
        with pytest.raises(ValueError, match="the value returned by project"):
            opt.projected_gradient_descent(lambda x: x, lambda y, b=bad: b, x0, 0.1, 3)
        with pytest.raises(ValueError, match="the value returned by step"):
            opt.adam(lambda x: x, x0, lambda t, b=bad: b, 3)
    with pytest.raises(ValueError, match="step must return an array of shape"):
        opt.sgd(lambda x: x, x0, lambda t: np.ones(2), 3)
    batch = opt.minibatch_gradient(lambda w, idx: "abc", 10, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="the value returned by grad"):
        opt.sgd(batch, x0, 0.1, 3)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_divergence_is_reported_not_returned():
    x0 = np.ones(2)
    with pytest.raises(ValueError, match="grad returned NaN or inf at x0"):
        opt.gradient_descent(lambda x: np.full(2, np.nan), x0, 0.1, 3)
    # x_t = -2 x_{t-1}: the gradient overflows after about 1000 steps
    with pytest.raises(ValueError, match="grad returned NaN or inf at step .* diverged .*reduce step"):
        opt.gradient_descent(lambda x: 3 * x, x0, 1.0, 2000)
    # a finite gradient whose step overflows the iterate itself, in the last update
    for method in (opt.gradient_descent, opt.sgd, opt.momentum):
        with pytest.raises(ValueError, match="iterates diverged to inf at step 1: reduce step"):
            method(lambda x: np.full(2, 1e308), x0, 10.0, 1)
