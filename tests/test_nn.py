"""Tests of mlnotes.nn: every backward pass against central differences, the references
scipy.special (expit, softmax, logsumexp) and scikit-learn's MLPClassifier, and bad inputs."""
import warnings

import numpy as np
import pytest
import scipy.special
from sklearn.neural_network import MLPClassifier

from mlnotes import nn

SHAPES = [(5, 3, 2, 0), (12, 4, 3, 1), (30, 6, 5, 2)]  # (n, d_in, d_out, seed)
TOL = 1e-6


# ------------------------------------------------------------- the lead's two helpers
def test_numerical_gradient_of_a_quadratic():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((4, 4))
    x = rng.standard_normal(4)
    g = nn.numerical_gradient(lambda v: v @ A @ v, x)
    np.testing.assert_allclose(g, (A + A.T) @ x, atol=1e-8)
    assert nn.gradient_check(lambda v: v @ A @ v, x, (A + A.T) @ x) < 1e-9
    assert nn.gradient_check(lambda v: v @ A @ v, x, A @ x) > 1e-2  # a wrong gradient fails


def test_numerical_gradient_restores_x_and_validates():
    x = np.arange(3.0)
    nn.numerical_gradient(lambda v: float(v.sum()), x)
    np.testing.assert_array_equal(x, np.arange(3.0))
    with pytest.raises(ValueError, match="x"):
        nn.numerical_gradient(lambda v: 0.0, np.arange(3))
    with pytest.raises(ValueError, match="h"):
        nn.numerical_gradient(lambda v: 0.0, x, h=0.0)
    with pytest.raises(ValueError, match="f"):
        nn.numerical_gradient(lambda v: v, x)
    with pytest.raises(ValueError, match="analytic"):
        nn.gradient_check(lambda v: 0.0, x, np.zeros(2))


# --------------------------------------------------------------------- activations
@pytest.mark.parametrize("name", ["sigmoid", "tanh", "relu", "identity"])
@pytest.mark.parametrize("seed", [0, 1])
def test_activation_values_and_derivatives(name, seed):
    z = np.random.default_rng(seed).normal(scale=3, size=(7, 4))
    a, da = nn.activation(z, name)
    ref = {"sigmoid": scipy.special.expit(z), "tanh": np.tanh(z), "relu": np.maximum(z, 0), "identity": z}[name]
    np.testing.assert_allclose(a, ref, rtol=1e-14, atol=1e-15)
    # backward pass of the activation: dJ/dZ = dJ/dA * g'(Z), J = sum(G * g(Z))
    G = np.random.default_rng(seed + 10).standard_normal(z.shape)
    assert nn.gradient_check(lambda v: float((G * nn.activation(v, name)[0]).sum()), z.copy(), G * da) < TOL


def test_sigmoid_is_stable_for_large_arguments():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, da = nn.activation(np.array([-800.0, 0.0, 800.0]), "sigmoid")
    np.testing.assert_allclose(a, [0.0, 0.5, 1.0])
    np.testing.assert_allclose(da, [0.0, 0.25, 0.0])


@pytest.mark.parametrize("n, d_in, d_out, seed", SHAPES)
def test_softmax_matches_scipy(n, d_in, d_out, seed):
    Z = np.random.default_rng(seed).normal(scale=5, size=(n, d_out))
    np.testing.assert_allclose(nn.softmax(Z), scipy.special.softmax(Z, axis=1), rtol=1e-12)
    np.testing.assert_allclose(nn.softmax(Z + 1000.0), scipy.special.softmax(Z, axis=1), rtol=1e-12)


# ------------------------------------------------------------------ output layers
def _targets(output, n, k, rng):
    if output == "identity":
        return rng.standard_normal((n, k))
    if output == "sigmoid":
        return (rng.random((n, k)) < 0.5).astype(float)
    return nn.one_hot(rng.integers(0, k, n), k)


@pytest.mark.parametrize("output", ["identity", "sigmoid", "softmax"])
@pytest.mark.parametrize("n, d_in, k, seed", SHAPES)
def test_output_loss_values(output, n, d_in, k, seed):
    rng = np.random.default_rng(seed)
    Z = rng.normal(scale=2, size=(n, k))
    Y = _targets(output, n, k, rng)
    loss, Yhat, _ = nn.output_loss(Z, Y, output)
    if output == "identity":
        ref_hat, ref = Z, 0.5 * np.sum((Z - Y) ** 2) / n
    elif output == "sigmoid":
        p = scipy.special.expit(Z)
        ref_hat, ref = p, -np.sum(Y * np.log(p) + (1 - Y) * np.log1p(-p)) / n
    else:
        ref_hat = scipy.special.softmax(Z, axis=1)
        ref = np.mean(scipy.special.logsumexp(Z, axis=1) - np.sum(Y * Z, axis=1))
        np.testing.assert_allclose(ref, -np.mean(np.sum(Y * np.log(ref_hat), axis=1)), rtol=1e-12)
    np.testing.assert_allclose(Yhat, ref_hat, rtol=1e-12)
    np.testing.assert_allclose(loss, ref, rtol=1e-12)


@pytest.mark.parametrize("output", ["identity", "sigmoid", "softmax"])
@pytest.mark.parametrize("n, d_in, k, seed", SHAPES)
def test_output_delta_is_yhat_minus_y(output, n, d_in, k, seed):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, k))
    Y = _targets(output, n, k, rng)
    _, Yhat, dZ = nn.output_loss(Z, Y, output)
    np.testing.assert_allclose(dZ, (Yhat - Y) / n, rtol=1e-15)
    assert nn.gradient_check(lambda v: nn.output_loss(v, Y, output)[0], Z.copy(), dZ) < TOL


def test_softmax_cross_entropy_with_soft_targets():
    rng = np.random.default_rng(3)
    Z = rng.normal(size=(6, 4))
    Y = scipy.special.softmax(rng.normal(size=(6, 4)), axis=1)
    _, Yhat, dZ = nn.output_loss(Z, Y, "softmax")
    assert nn.gradient_check(lambda v: nn.output_loss(v, Y, "softmax")[0], Z.copy(), dZ) < TOL


# -------------------------------------------------------------------- dense layer
@pytest.mark.parametrize("n, d_in, d_out, seed", SHAPES)
def test_dense_backward_against_central_differences(n, d_in, d_out, seed):
    rng = np.random.default_rng(seed)
    A, W, b = rng.standard_normal((n, d_in)), rng.standard_normal((d_in, d_out)), rng.standard_normal(d_out)
    G = rng.standard_normal((n, d_out))  # J = sum(G * Z), so dJ/dZ = G
    dA, dW, db = nn.dense_backward(A, W, G)
    np.testing.assert_allclose(nn.dense_forward(A, W, b), A @ W + b)
    assert nn.gradient_check(lambda v: float((G * nn.dense_forward(v, W, b)).sum()), A.copy(), dA) < TOL
    assert nn.gradient_check(lambda v: float((G * nn.dense_forward(A, v, b)).sum()), W.copy(), dW) < TOL
    assert nn.gradient_check(lambda v: float((G * nn.dense_forward(A, W, v)).sum()), b.copy(), db) < TOL


# ------------------------------------------------------------------------ the MLP
def _flat_check(model, X, Y):
    theta = model.get_params().copy()
    _, g = model.loss_and_grad(X, Y)

    def f(t):
        model.set_params(t)
        return model.loss_and_grad(X, Y)[0]

    err = nn.gradient_check(f, theta, g)
    model.set_params(theta)
    return err


@pytest.mark.parametrize("hidden", ["sigmoid", "tanh", "relu"])
@pytest.mark.parametrize("output", ["identity", "sigmoid", "softmax"])
@pytest.mark.parametrize("sizes, n, seed", [((3, 5, 2), 8, 0), ((4, 6, 5, 3), 15, 1), ((2, 7, 4, 4, 2), 25, 2)])
def test_mlp_backprop_against_central_differences(hidden, output, sizes, n, seed):
    rng = np.random.default_rng(seed)
    model = nn.MLP(sizes, hidden, output, "xavier", rng)
    for b in model.b:  # non-zero biases, so their gradients are checked at a generic point
        b += 0.1 * rng.standard_normal(b.shape)
    X = rng.standard_normal((n, sizes[0]))
    Y = _targets(output, n, sizes[-1], rng)
    assert _flat_check(model, X, Y) < TOL


def test_mlp_backward_equals_the_layerwise_chain():
    """MLP.backward agrees with dense_backward and activation chained by hand."""
    rng = np.random.default_rng(4)
    model = nn.MLP((3, 4, 2), "tanh", "softmax", "xavier", rng)
    X, Y = rng.standard_normal((9, 3)), nn.one_hot(rng.integers(0, 2, 9), 2)
    loss, dWs, dbs = model.backward(model.forward(X), Y)
    Z1 = nn.dense_forward(X, model.W[0], model.b[0])
    A1, dA1dZ1 = nn.activation(Z1, "tanh")
    loss2, _, dZ2 = nn.output_loss(nn.dense_forward(A1, model.W[1], model.b[1]), Y, "softmax")
    dA1, dW2, db2 = nn.dense_backward(A1, model.W[1], dZ2)
    _, dW1, db1 = nn.dense_backward(X, model.W[0], dA1 * dA1dZ1)
    np.testing.assert_allclose(loss, loss2)
    for a, b in zip(dWs + dbs, [dW1, dW2, db1, db2]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("hidden, output, k, seed", [("relu", "softmax", 3, 0), ("tanh", "sigmoid", 1, 1),
                                                     ("logistic", "softmax", 3, 2)])
def test_mlp_matches_sklearn_with_the_same_weights(hidden, output, k, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 3))
    y = rng.integers(0, max(k, 2), 40)
    act = "sigmoid" if hidden == "logistic" else hidden
    model = nn.MLP((3, 6, 5, k), act, output, "xavier", rng)
    for b in model.b:
        b += 0.3 * rng.standard_normal(b.shape)
    clf = MLPClassifier(hidden_layer_sizes=(6, 5), activation=hidden, alpha=0.0, random_state=0)
    clf.partial_fit(X, y, classes=np.arange(max(k, 2)))
    clf.coefs_, clf.intercepts_ = [W.copy() for W in model.W], [b.copy() for b in model.b]
    P = clf.predict_proba(X)
    Yhat = model.predict(X)
    if output == "sigmoid":
        np.testing.assert_allclose(Yhat[:, 0], P[:, 1], rtol=1e-12)
        Y = y[:, None].astype(float)
    else:
        np.testing.assert_allclose(Yhat, P, rtol=1e-12)
        Y = nn.one_hot(y, k)
    loss, *_ = model.backward(model.forward(X), Y)
    ref = -np.mean(np.log(P[np.arange(40), y]))
    np.testing.assert_allclose(loss, ref, rtol=1e-10)


def test_params_round_trip():
    model = nn.MLP((2, 3, 2), rng=np.random.default_rng(0))
    theta = np.arange(model.get_params().size, dtype=float)
    model.set_params(theta)
    np.testing.assert_array_equal(model.get_params(), theta)
    assert model.W[0].shape == (2, 3) and model.b[1].shape == (2,)
    assert repr(model) == "MLP(sizes=(2, 3, 2), hidden='relu', output='softmax')"


# ----------------------------------------------------------------- initialisation
@pytest.mark.parametrize("scheme, var", [("xavier", lambda i, o: 2 / (i + o)), ("he", lambda i, o: 2 / i),
                                         ("normal", lambda i, o: 1.0)])
def test_init_variances(scheme, var):
    Ws, bs = nn.init_weights((300, 200, 100), scheme, np.random.default_rng(0))
    for W, (i, o) in zip(Ws, [(300, 200), (200, 100)]):
        assert W.shape == (i, o)
        # sample variance of m = i*o normals: standard error ≈ var·sqrt(2/m); allow 4 s.e.
        assert abs(W.var() / var(i, o) - 1) < 4 * np.sqrt(2 / W.size)
    assert all(np.all(b == 0) for b in bs)


def test_constant_initialisation_keeps_hidden_units_identical():
    rng = np.random.default_rng(0)
    X, y = nn.two_moons(50, 0.1, rng)
    model = nn.MLP((2, 5, 2), "tanh", "softmax", "xavier", rng)
    model.W = [np.full_like(W, 0.3) for W in model.W]
    nn.train(model, X, nn.one_hot(y, 2), step=0.05, n_steps=50)
    W1, W2 = model.W
    assert np.allclose(W1, W1[:, :1]) and np.allclose(W2, W2[:1, :]) and np.ptp(W1) > 0
    zero = nn.MLP((2, 5, 2), "tanh", "softmax", "zeros", rng)
    _, dWs, _ = zero.backward(zero.forward(X), nn.one_hot(y, 2))
    assert np.all(dWs[0] == 0)


# ----------------------------------------------------------------------- training
def test_training_reaches_high_accuracy_on_two_moons():
    rng = np.random.default_rng(0)
    X, y = nn.two_moons(400, 0.15, rng)
    model = nn.MLP((2, 16, 16, 2), "tanh", "softmax", "xavier", rng)
    losses = nn.train(model, X[:200], nn.one_hot(y[:200], 2), step=0.02, n_steps=600)
    assert losses.shape == (600,) and losses[-1] < 0.1 * losses[0]
    assert np.mean(model.predict(X[200:]).argmax(axis=1) == y[200:]) >= 0.95


def test_minibatch_training_decreases_the_loss():
    rng = np.random.default_rng(1)
    X, y = nn.two_moons(200, 0.1, rng)
    model = nn.MLP((2, 8, 1), "relu", "sigmoid", "he", rng)
    Y = y[:, None].astype(float)
    before = model.loss_and_grad(X, Y)[0]
    nn.train(model, X, Y, step=0.02, n_steps=300, batch_size=32, rng=rng)
    assert model.loss_and_grad(X, Y)[0] < 0.5 * before


def test_two_moons_geometry():
    X, y = nn.two_moons(101, 0.0, np.random.default_rng(0))
    assert X.shape == (101, 2) and np.sum(y == 0) == 50 and np.sum(y == 1) == 51
    np.testing.assert_allclose(np.hypot(*X[y == 0].T), 1.0)
    np.testing.assert_allclose(np.hypot(X[y == 1, 0] - 1, X[y == 1, 1] - 0.5), 1.0)
    assert np.all(X[y == 0, 1] >= 0) and np.all(X[y == 1, 1] <= 0.5)


# --------------------------------------------------------------------- bad inputs
def test_bad_inputs_name_the_argument():
    rng = np.random.default_rng(0)
    model = nn.MLP((2, 3, 2), rng=rng)
    cases = [
        (lambda: nn.activation([1.0, np.nan], "relu"), "z"),
        (lambda: nn.activation([1.0], "swish"), "name"),
        (lambda: nn.softmax([1.0, 2.0]), "Z"),
        (lambda: nn.output_loss(np.zeros((2, 2)), np.zeros((2, 3)), "identity"), "Y"),
        (lambda: nn.output_loss(np.zeros((2, 2)), np.full((2, 2), 2.0), "sigmoid"), "Y"),
        (lambda: nn.output_loss(np.zeros((2, 2)), np.ones((2, 2)), "softmax"), "Y"),
        (lambda: nn.output_loss(np.zeros((2, 2)), np.zeros((2, 2)), "hinge"), "output"),
        (lambda: nn.dense_forward(np.zeros((2, 3)), np.zeros((2, 2)), np.zeros(2)), "W"),
        (lambda: nn.dense_forward(np.zeros((2, 3)), np.zeros((3, 2)), np.zeros(3)), "b"),
        (lambda: nn.dense_backward(np.zeros((2, 3)), np.zeros((3, 2)), np.zeros((2, 3))), "dZ"),
        (lambda: nn.init_weights((3,), "he", rng), "sizes"),
        (lambda: nn.init_weights((3, 0), "he", rng), "sizes"),
        (lambda: nn.init_weights((3, 2), "uniform", rng), "scheme"),
        (lambda: nn.init_weights((3, 2), "he", 0), "rng"),
        (lambda: nn.MLP((2, 3, 2), hidden="softmax"), "hidden"),
        (lambda: nn.MLP((2, 3, 2), output="relu"), "output"),
        (lambda: model.forward(np.zeros((4, 3))), "X"),
        (lambda: model.forward(np.full((4, 2), np.inf)), "X"),
        (lambda: model.set_params(np.zeros(3)), "theta"),
        (lambda: nn.train("net", np.zeros((4, 2)), np.zeros((4, 2))), "model"),
        (lambda: nn.train(model, np.zeros((4, 2)), np.zeros((4, 1))), "Y"),
        (lambda: nn.train(model, np.zeros((4, 2)), nn.one_hot([0, 1, 0, 1], 2), step=-1.0), "step"),
        (lambda: nn.train(model, np.zeros((4, 2)), nn.one_hot([0, 1, 0, 1], 2), batch_size=2), "rng"),
        (lambda: nn.one_hot([0, 2], 2), "y"),
        (lambda: nn.one_hot([[0]], 2), "y"),
        (lambda: nn.one_hot([0], 0), "k"),
        (lambda: nn.two_moons(1, 0.1, rng), "n"),
        (lambda: nn.two_moons(10, -0.1, rng), "noise"),
        (lambda: nn.two_moons(10, 0.1, 3), "rng"),
    ]
    for fn, name in cases:
        with pytest.raises(ValueError, match=name):
            fn()


# ------------------------------------------------------------------ more bad inputs
def test_numerical_gradient_checks_f_and_restores_x_when_f_fails():
    x = np.arange(3.0)
    with pytest.raises(ValueError, match="f must be callable"):
        nn.numerical_gradient(3, x)
    with pytest.raises(ValueError, match="returned by f must be"):
        nn.numerical_gradient(lambda v: "abc", x)

    def broken(v):
        raise RuntimeError("f failed")

    with pytest.raises(RuntimeError):
        nn.numerical_gradient(broken, x)
    np.testing.assert_array_equal(x, np.arange(3.0))
    with pytest.raises(ValueError, match="analytic must be"):
        nn.gradient_check(lambda v: 0.0, x, [[1.0, 2.0], [3.0]])
    with pytest.raises(ValueError, match="x must be a float64"):
        nn.gradient_check(lambda v: 0.0, [[1.0, 2.0], [3.0]], np.zeros(3))


def test_mlp_methods_check_their_inputs():
    rng = np.random.default_rng(0)
    model = nn.MLP((2, 3, 2), "tanh", "softmax", "xavier", rng)
    X, Y = rng.standard_normal((5, 2)), nn.one_hot(rng.integers(0, 2, 5), 2)
    with pytest.raises(ValueError, match="X must have 2 columns"):
        model.forward(np.zeros((5, 3)))
    As, Zs = model.forward(X)
    assert model.backward((As, Zs), Y)[0] == model.loss_and_grad(X, Y)[0]
    for cache in (None, "abc", np.ones(3), (As, Zs[:1]), (As[:2], Zs), (As, [z[:3] for z in Zs])):
        with pytest.raises(ValueError, match="cache must be"):
            model.backward(cache, Y)
    with pytest.raises(ValueError, match="Y must have shape"):
        model.backward((As, Zs), Y[:4])
    with pytest.raises(ValueError, match="model must be a MLP"):
        nn.train("mlp", X, Y)
    with pytest.raises(ValueError, match="rng must be a numpy.random.Generator when batch_size"):
        nn.train(model, X, Y, n_steps=2, batch_size=2)
    with pytest.raises(ValueError, match="step"):
        nn.train(model, X, Y, step="0.1", n_steps=2)
    with pytest.raises(ValueError, match="y must be"):
        nn.one_hot([[0, 1], [1]], 2)
    assert nn.one_hot([], 3).shape == (0, 3)


def test_mlp_names_its_init_argument():
    with pytest.raises(ValueError, match="init must be one of"):
        nn.MLP([2, 3, 2], init="glorot")


@pytest.mark.parametrize("hidden,output,seed", [("tanh", "softmax", 0), ("relu", "sigmoid", 1), ("tanh", "identity", 2)])
def test_weight_decay_gradient_against_central_differences(hidden, output, seed):
    rng = np.random.default_rng(seed)
    model = nn.MLP((3, 4, 2), hidden, output, "xavier", rng)
    X = rng.standard_normal((7, 3))
    Y = {"softmax": nn.one_hot(rng.integers(0, 2, 7), 2), "sigmoid": rng.random((7, 2)),
         "identity": rng.standard_normal((7, 2))}[output]
    lam, theta = 0.3, model.get_params()

    def penalised(t):   # mean loss + (λ/2) ‖weights‖², biases unpenalised, written out independently
        model.set_params(t)
        Z = X
        for l, (W, b) in enumerate(zip(model.W, model.b)):
            Z = Z @ W + b
            if l < len(model.W) - 1:
                Z = np.tanh(Z) if hidden == "tanh" else np.maximum(Z, 0.0)
        if output == "softmax":
            per = scipy.special.logsumexp(Z, axis=1) - (Y * Z).sum(axis=1)
        elif output == "sigmoid":
            per = (np.logaddexp(0.0, Z) - Y * Z).sum(axis=1)
        else:
            per = 0.5 * ((Z - Y) ** 2).sum(axis=1)
        return per.mean() + 0.5 * lam * sum(np.sum(W**2) for W in model.W)

    h = 1e-6
    fd = np.array([(penalised(theta + h * e) - penalised(theta - h * e)) / (2 * h) for e in np.eye(theta.size)])
    model.set_params(theta)
    loss, grad = model.loss_and_grad(X, Y, weight_decay=lam)
    assert loss == pytest.approx(penalised(theta), rel=1e-12)
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-8)
    # the biases' gradient is unchanged by the penalty, each W's gets λ W added
    model.set_params(theta)
    grad0 = model.loss_and_grad(X, Y)[1]
    np.testing.assert_allclose(grad - grad0, lam * np.where(_weight_mask(model), theta, 0.0), atol=1e-12)


def _weight_mask(model):
    return np.concatenate([np.r_[np.ones(W.size), np.zeros(b.size)] for W, b in zip(model.W, model.b)]).astype(bool)


@pytest.mark.parametrize("lam,seed", [(0.05, 0), (0.5, 1)])
def test_weight_decay_on_a_linear_net_is_ridge_regression(lam, seed):
    from sklearn.linear_model import Ridge

    rng = np.random.default_rng(seed)
    n = 40
    X = rng.standard_normal((n, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.3 + 0.2 * rng.standard_normal(n)
    model = nn.MLP((3, 1), "relu", "identity", "zeros", rng)
    nn.train(model, X, y[:, None], step=0.01, n_steps=4000, weight_decay=lam)
    ridge = Ridge(alpha=n * lam).fit(X, y)     # ‖y - Xw - b‖² + nλ‖w‖² = 2n × (the net's objective)
    np.testing.assert_allclose(model.W[0][:, 0], ridge.coef_, atol=2e-4)
    assert model.b[0][0] == pytest.approx(ridge.intercept_, abs=2e-4)


def test_weight_decay_is_validated():
    rng = np.random.default_rng(0)
    model = nn.MLP((2, 3, 2), "tanh", "softmax", "xavier", rng)
    X, Y = rng.standard_normal((5, 2)), nn.one_hot(rng.integers(0, 2, 5), 2)
    for bad in (-0.1, np.nan, np.inf, "0.1", None):
        with pytest.raises(ValueError, match="weight_decay"):
            model.loss_and_grad(X, Y, weight_decay=bad)
        with pytest.raises(ValueError, match="weight_decay"):
            nn.train(model, X, Y, n_steps=2, weight_decay=bad)
