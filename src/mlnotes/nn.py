"""Neural networks and backpropagation (chapter 15).

Shared with chapter 16: :func:`numerical_gradient` and :func:`gradient_check`, the central-
difference checks every backward pass in the book is tested against.
"""
import numpy as np

from mlnotes import _validate as check

__all__ = ["numerical_gradient", "gradient_check", "activation", "softmax", "output_loss",
           "dense_forward", "dense_backward", "init_weights", "MLP", "train", "one_hot", "two_moons"]


def _point(x):
    """``x`` if it is a finite float64 ndarray (it is perturbed in place, so not a copy)."""
    if not isinstance(x, np.ndarray) or x.dtype != np.float64:
        raise ValueError(f"x must be a float64 numpy array (it is perturbed in place), got {type(x).__name__}"
                         + (f" of dtype {x.dtype}" if isinstance(x, np.ndarray) else ""))
    check.finite(x, "x")
    return x


def numerical_gradient(f, x, h=1e-6):
    """Central-difference gradient of a scalar function ``f`` at the array ``x``.

    Each entry is ``(f(x + h e_i) - f(x - h e_i)) / (2h)``; the error is O(h²) for smooth
    ``f``. ``x`` is perturbed in place and restored, so ``f`` may close over it.

    Parameters
    ----------
    f : callable
        ``f(x) -> float``.
    x : ndarray of float64
        The point; any shape.
    h : float
        Step (positive).

    Returns
    -------
    ndarray, same shape as ``x``

    Raises
    ------
    ValueError
        If ``f`` is not callable, ``x`` is not a finite float64 array, ``h`` is not
        positive, or ``f`` does not return a finite scalar (``x`` is restored in every case).
    """
    f = check.function(f, "f")
    x = _point(x)
    h = check.positive(h, "h")
    grad = np.empty_like(x)
    flat, g = x.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):  # one coordinate at a time: that is what a gradient check is
        old = flat[i]
        try:
            flat[i] = old + h
            up = check.returned(f(x), "f", shape=())
            flat[i] = old - h
            down = check.returned(f(x), "f", shape=())
        finally:
            flat[i] = old                   # x is restored even if f fails
        g[i] = (up - down) / (2 * h)
    return grad


def gradient_check(f, x, analytic, h=1e-6):
    """Relative error ``max|a - n| / max(1e-12, max|a| + max|n|)`` between an analytic
    gradient ``a`` and the central-difference gradient ``n`` of ``f`` at ``x``.

    Parameters
    ----------
    f : callable
        ``f(x) -> float``.
    x : ndarray of float64
        The point.
    analytic : array_like, same shape as ``x``
        The gradient to check (e.g. from a backward pass).
    h : float
        Central-difference step.

    Returns
    -------
    float
        In float64 a correct gradient typically gives about 1e-9 or less; the book's
        threshold is 1e-6.

    Raises
    ------
    ValueError
        If ``analytic`` does not have the shape of ``x``, or as :func:`numerical_gradient`.
    """
    x, analytic = _point(x), check.finite(analytic, "analytic")
    if analytic.shape != x.shape:
        raise ValueError(f"analytic must have the shape of x {x.shape}, got {analytic.shape}")
    numeric = numerical_gradient(f, x, h)
    scale = max(1e-12, np.abs(analytic).max() + np.abs(numeric).max())
    return float(np.abs(analytic - numeric).max() / scale)


# ------------------------------------------------------------------ activations and outputs
def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))  # 1 / (1 + e^{-z}) without overflow


_ACTIVATIONS = {
    "identity": (lambda z: z, lambda z, a: np.ones_like(z)),
    "sigmoid": (_sigmoid, lambda z, a: a * (1.0 - a)),
    "tanh": (np.tanh, lambda z, a: 1.0 - a ** 2),
    "relu": (lambda z: np.maximum(z, 0.0), lambda z, a: (z > 0).astype(float)),
}


def activation(z, name):
    """An activation ``g`` applied elementwise, with its derivative: ``(g(z), g'(z))``.

    ``sigmoid`` 1/(1 + e^{-z}) with g' = g(1 - g); ``tanh`` with g' = 1 - g²; ``relu``
    max(z, 0) with g' = 1(z > 0) (the value 0 is used at the kink z = 0); ``identity``.

    Parameters
    ----------
    z : array_like
        Pre-activations, any shape.
    name : {"sigmoid", "tanh", "relu", "identity"}

    Returns
    -------
    a, da : ndarray, same shape as ``z``
        ``g(z)`` and ``g'(z)``.

    Raises
    ------
    ValueError
        If ``z`` is not finite or ``name`` is unknown.
    """
    name = check.choice(name, tuple(_ACTIVATIONS), "name")
    z = check.finite(z, "z")
    g, dg = _ACTIVATIONS[name]
    a = g(z)
    return a, dg(z, a)


def softmax(Z):
    """Row-wise softmax ``exp(z_k - max z) / sum_j exp(z_j - max z)`` of a score matrix.

    Parameters
    ----------
    Z : array_like, shape (n, k)

    Returns
    -------
    ndarray, shape (n, k)
        Each row is a probability vector.

    Raises
    ------
    ValueError
        If ``Z`` is not a finite 2-D array.
    """
    Z = check.matrix(Z, "Z")
    E = np.exp(Z - Z.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def output_loss(Z, Y, output):
    """Mean loss of an output layer, its predictions ``Ŷ`` and the gradient ``(Ŷ - Y)/n``.

    The output activation and its loss come in matched pairs, written in terms of the
    output pre-activations ``Z`` (one row per example):
    ``identity``: ½‖ŷ - y‖²; ``sigmoid``: binary cross-entropy summed over the columns,
    ``log(1 + e^z) - y z``; ``softmax``: cross-entropy ``logsumexp(z) - y·z``. For each
    pair ``∂(mean loss)/∂Z = (Ŷ - Y)/n``.

    Parameters
    ----------
    Z : array_like, shape (n, k)
        Output pre-activations.
    Y : array_like, shape (n, k)
        Targets: reals (identity), numbers in [0, 1] (sigmoid), probability rows, e.g.
        one-hot (softmax).
    output : {"identity", "sigmoid", "softmax"}

    Returns
    -------
    loss : float
        Mean over the n rows of the per-example loss.
    Yhat : ndarray, shape (n, k)
    dZ : ndarray, shape (n, k)
        Gradient of ``loss`` with respect to ``Z``, ``(Yhat - Y) / n``.

    Raises
    ------
    ValueError
        If the shapes differ, a value is not finite, ``Y`` is outside [0, 1] (sigmoid) or
        its rows are not probability vectors (softmax), or ``output`` is unknown.
    """
    output = check.choice(output, ("identity", "sigmoid", "softmax"), "output")
    Z = check.matrix(Z, "Z")
    Y = check.finite(Y, "Y")
    if Y.shape != Z.shape:
        raise ValueError(f"Y must have the shape of Z {Z.shape}, got {Y.shape}")
    if output == "identity":
        Yhat, per_row = Z, 0.5 * ((Z - Y) ** 2).sum(axis=1)
    elif output == "sigmoid":
        if np.any((Y < 0) | (Y > 1)):
            raise ValueError("Y must lie in [0, 1] for a sigmoid output")
        Yhat, per_row = _sigmoid(Z), (np.logaddexp(0.0, Z) - Y * Z).sum(axis=1)
    else:
        Y = check.probabilities(Y, "Y", axis=1)
        m = Z.max(axis=1, keepdims=True)
        lse = (m + np.log(np.exp(Z - m).sum(axis=1, keepdims=True)))[:, 0]
        Yhat, per_row = softmax(Z), lse - (Y * Z).sum(axis=1)
    n = Z.shape[0]
    return float(per_row.mean()), Yhat, (Yhat - Y) / n


# ------------------------------------------------------------------------- dense layer
def dense_forward(A, W, b):
    """Dense (affine) layer on a batch of rows: ``Z = A W + b``.

    Parameters
    ----------
    A : array_like, shape (n, d_in)
        Inputs, one example per row.
    W : array_like, shape (d_in, d_out)
    b : array_like, shape (d_out,)

    Returns
    -------
    ndarray, shape (n, d_out)

    Raises
    ------
    ValueError
        If a value is not finite or the shapes do not fit together.
    """
    A, W = check.matrix(A, "A"), check.matrix(W, "W")
    if W.shape[0] != A.shape[1]:
        raise ValueError(f"W must have {A.shape[1]} rows (the columns of A), got {W.shape[0]}")
    b = check.vector(b, W.shape[1], "b")
    return A @ W + b


def dense_backward(A, W, dZ):
    """Backward pass of ``Z = A W + b``: from ``dZ = ∂J/∂Z`` to ``(∂J/∂A, ∂J/∂W, ∂J/∂b)``.

    ``∂J/∂A = dZ Wᵀ``, ``∂J/∂W = Aᵀ dZ`` (the layer's *input* times the upstream gradient)
    and ``∂J/∂b = 1ᵀ dZ`` (column sums).

    Parameters
    ----------
    A : array_like, shape (n, d_in)
        The layer's input in the forward pass.
    W : array_like, shape (d_in, d_out)
    dZ : array_like, shape (n, d_out)

    Returns
    -------
    dA : ndarray, shape (n, d_in)
    dW : ndarray, shape (d_in, d_out)
    db : ndarray, shape (d_out,)

    Raises
    ------
    ValueError
        If a value is not finite or the shapes do not fit together.
    """
    A, W, dZ = check.matrix(A, "A"), check.matrix(W, "W"), check.matrix(dZ, "dZ")
    if W.shape[0] != A.shape[1] or dZ.shape != (A.shape[0], W.shape[1]):
        raise ValueError(f"dZ must have shape {(A.shape[0], W.shape[1])} and W {A.shape[1]} rows; "
                         f"got dZ {dZ.shape}, W {W.shape}")
    return dZ @ W.T, A.T @ dZ, dZ.sum(axis=0)


def init_weights(sizes, scheme, rng):
    """Initial weights and zero biases for dense layers of the given sizes.

    ``W[l]`` has shape ``(sizes[l], sizes[l+1])`` and i.i.d. N(0, s²) entries with
    ``s² = 2 / (fan_in + fan_out)`` (``"xavier"``, Glorot–Bengio), ``2 / fan_in`` (``"he"``,
    for ReLU) or ``1`` (``"normal"``); ``"zeros"`` gives all-zero weights.

    Parameters
    ----------
    sizes : sequence of int
        Layer widths ``(d_0, d_1, ..., d_L)``, at least two, each >= 1.
    scheme : {"xavier", "he", "normal", "zeros"}
    rng : numpy.random.Generator

    Returns
    -------
    Ws, bs : lists of ndarray
        ``L`` weight matrices and ``L`` zero bias vectors.

    Raises
    ------
    ValueError
        If ``sizes`` is not a sequence of at least two positive integers, ``scheme`` is
        unknown or ``rng`` is not a Generator.
    """
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__") or len(sizes) < 2:
        raise ValueError(f"sizes must be a sequence of at least two layer widths, got {sizes!r}")
    sizes = [check.count(s, "sizes") for s in sizes]
    scheme = check.choice(scheme, ("xavier", "he", "normal", "zeros"), "scheme")
    rng = check.generator(rng)
    Ws = []
    for d_in, d_out in zip(sizes[:-1], sizes[1:]):
        var = {"xavier": 2.0 / (d_in + d_out), "he": 2.0 / d_in, "normal": 1.0, "zeros": 0.0}[scheme]
        Ws.append(np.sqrt(var) * rng.standard_normal((d_in, d_out)))
    return Ws, [np.zeros(d) for d in sizes[1:]]


# --------------------------------------------------------------------------------- MLP
class MLP:
    """Multilayer perceptron: dense layers, a hidden activation, and an output/loss pair.

    Layer ``l = 1, ..., L`` computes ``Z[l] = A[l-1] W[l] + b[l]`` and ``A[l] = g(Z[l])``
    on a batch whose rows are examples (``A[0] = X``); the last layer uses the output
    activation, matched with its loss as in :func:`output_loss`. Parameters live in the
    lists ``W`` and ``b``; :meth:`get_params`/:meth:`set_params` flatten them into one
    vector for an optimiser.

    Parameters
    ----------
    sizes : sequence of int
        ``(d_0, ..., d_L)``: input dimension, hidden widths, output dimension.
    hidden : {"relu", "tanh", "sigmoid", "identity"}
    output : {"identity", "sigmoid", "softmax"}
    init : {"he", "xavier", "normal", "zeros"}
    rng : numpy.random.Generator
    """

    def __init__(self, sizes, hidden="relu", output="softmax", init="he", rng=None):
        self.hidden = check.choice(hidden, tuple(_ACTIVATIONS), "hidden")
        self.output = check.choice(output, ("identity", "sigmoid", "softmax"), "output")
        init = check.choice(init, ("he", "xavier", "normal", "zeros"), "init")
        self.W, self.b = init_weights(sizes, init, np.random.default_rng(0) if rng is None else rng)
        self.sizes = tuple(int(s) for s in sizes)

    def __repr__(self):
        return f"MLP(sizes={self.sizes}, hidden={self.hidden!r}, output={self.output!r})"

    def forward(self, X):
        """Forward pass; returns the cache ``(As, Zs)`` with ``As[0] = X`` and ``As[-1] = Ŷ``."""
        A = check.matrix_with_columns(X, self.sizes[0])
        As, Zs = [A], []
        for l, (W, b) in enumerate(zip(self.W, self.b)):
            Z = A @ W + b
            if l < len(self.W) - 1:
                A = activation(Z, self.hidden)[0]
            else:
                A = softmax(Z) if self.output == "softmax" else activation(Z, self.output)[0]
            As.append(A)
            Zs.append(Z)
        return As, Zs

    def predict(self, X):
        """Network output ``Ŷ`` for the rows of ``X``, shape (n, d_L)."""
        return self.forward(X)[0][-1]

    def backward(self, cache, Y):
        """Backpropagation: mean loss and its gradients ``(loss, dWs, dbs)`` from a cache.

        ``δ[L] = (Ŷ - Y)/n``; ``∂J/∂W[l] = A[l-1]ᵀ δ[l]``, ``∂J/∂b[l] = 1ᵀ δ[l]`` and
        ``δ[l-1] = (δ[l] W[l]ᵀ) ⊙ g'(Z[l-1])``.
        """
        As, Zs = check.cache_layout(cache, ((list, tuple), (list, tuple)), "MLP.forward")
        L, arrays = len(self.W), list(As) + list(Zs)
        n = As[0].shape[0] if len(As) and isinstance(As[0], np.ndarray) and As[0].ndim == 2 else -1
        if len(As) != L + 1 or len(Zs) != L or not all(
                isinstance(a, np.ndarray) and a.shape == (n, d) for a, d in zip(arrays, self.sizes + self.sizes[1:])):
            raise ValueError(f"cache must be the pair (As, Zs) returned by MLP.forward: As holds {L + 1} "
                             f"arrays of shapes (n, d) for d in {self.sizes}, Zs {L} for d in {self.sizes[1:]}")
        Y = check.finite(Y, "Y")
        if Y.shape != (n, self.sizes[-1]):
            raise ValueError(f"Y must have shape {(n, self.sizes[-1])} (one row per row of X), got {Y.shape}")
        loss, _, delta = output_loss(Zs[-1], Y, self.output)
        dWs, dbs = [None] * len(self.W), [None] * len(self.W)
        for l in range(len(self.W) - 1, -1, -1):
            dWs[l], dbs[l] = As[l].T @ delta, delta.sum(axis=0)
            if l > 0:
                delta = (delta @ self.W[l].T) * activation(Zs[l - 1], self.hidden)[1]
        return loss, dWs, dbs

    def loss_and_grad(self, X, Y, weight_decay=0.0):
        """Mean loss on ``(X, Y)`` plus ``(weight_decay/2) Σ_l ‖W[l]‖²`` and its gradient.

        The penalty (L2 regularisation) is on the weight matrices only, not the biases; its
        gradient adds ``weight_decay * W[l]`` to each ``∂J/∂W[l]``. The gradient is one flat
        vector laid out as by :meth:`get_params`.

        Parameters
        ----------
        X, Y : array_like
            Inputs and targets, as for :meth:`backward`.
        weight_decay : float
            The penalty's coefficient λ >= 0 (default 0: the plain mean loss).

        Returns
        -------
        loss : float
        grad : ndarray, shape (n_params,)

        Raises
        ------
        ValueError
            If ``weight_decay`` is negative or not a number, or as for :meth:`backward`.
        """
        lam = check.nonnegative(weight_decay, "weight_decay")
        loss, dWs, dbs = self.backward(self.forward(X), Y)
        loss += 0.5 * lam * sum(float(np.sum(W**2)) for W in self.W)
        dWs = [dW + lam * W for dW, W in zip(dWs, self.W)]
        return loss, np.concatenate([g.ravel() for pair in zip(dWs, dbs) for g in pair])

    def get_params(self):
        """All parameters as one vector ``(W[1], b[1], W[2], b[2], ...)``, row-major."""
        return np.concatenate([p.ravel() for pair in zip(self.W, self.b) for p in pair])

    def set_params(self, theta):
        """Set all parameters from a vector laid out as by :meth:`get_params`."""
        theta = check.vector(theta, self.get_params().size, "theta")
        k = 0
        for l, (W, b) in enumerate(zip(self.W, self.b)):
            self.W[l] = theta[k:k + W.size].reshape(W.shape)
            k += W.size
            self.b[l] = theta[k:k + b.size].copy()
            k += b.size


# ------------------------------------------------------------------------ training
def train(model, X, Y, step=0.01, n_steps=500, batch_size=None, rng=None, weight_decay=0.0):
    """Train an :class:`MLP` with Adam (:func:`mlnotes.optimize.adam`); returns the losses.

    Full-batch gradient descent with Adam steps if ``batch_size`` is None, otherwise
    minibatches of that size drawn by :func:`mlnotes.optimize.minibatch_gradient`. With
    ``weight_decay = λ > 0`` the objective is the L2-penalised loss
    ``J + (λ/2) Σ_l ‖W[l]‖²`` (:meth:`MLP.loss_and_grad`; the penalty's gradient goes through
    Adam, i.e. coupled, not decoupled, weight decay). The model's parameters are set to the
    last iterate.

    Parameters
    ----------
    model : MLP
    X : array_like, shape (n, d_0)
    Y : array_like, shape (n, d_L)
        Targets, as for :func:`output_loss`.
    step : float
        Adam's step size.
    n_steps : int
        Number of parameter updates.
    batch_size : int or None
    rng : numpy.random.Generator, optional
        Needed for minibatches.
    weight_decay : float
        The L2 penalty's coefficient λ >= 0 (default 0: no penalty).

    Returns
    -------
    ndarray, shape (n_steps,)
        The (minibatch) mean loss, penalty included, at each iterate before its update.

    Raises
    ------
    ValueError
        If ``model`` is not an MLP, the data do not fit it, ``step`` is not positive,
        ``n_steps`` or ``batch_size`` is not a positive integer (``batch_size <= n``), ``rng``
        is not a Generator (it is needed with ``batch_size``), ``weight_decay`` is negative,
        or as for :func:`mlnotes.optimize.adam`.
    """
    from mlnotes import optimize

    model = check.instance_of(model, MLP, "model")
    X = check.matrix_with_columns(X, model.sizes[0])
    Y = check.finite(Y, "Y")
    if Y.shape != (X.shape[0], model.sizes[-1]):
        raise ValueError(f"Y must have shape {(X.shape[0], model.sizes[-1])}, got {Y.shape}")
    step, n_steps = check.positive(step, "step"), check.count(n_steps, "n_steps")
    batch_size = None if batch_size is None else check.count(batch_size, "batch_size")
    rng = None if rng is None else check.generator(rng)
    if batch_size is not None and rng is None:
        raise ValueError("rng must be a numpy.random.Generator when batch_size is given (it draws the minibatches)")
    lam, losses = check.nonnegative(weight_decay, "weight_decay"), []

    def batch_grad(theta, idx):
        model.set_params(theta)
        loss, g = model.loss_and_grad(X[idx], Y[idx], lam)
        losses.append(loss)
        return g

    if batch_size is None:
        grad = lambda theta: batch_grad(theta, slice(None))  # noqa: E731
    else:
        grad = optimize.minibatch_gradient(batch_grad, X.shape[0], batch_size, rng)
    path = optimize.adam(grad, model.get_params(), step, n_steps)
    model.set_params(path[-1])
    return np.array(losses)


def one_hot(y, k):
    """One-hot rows for integer labels ``y`` in ``{0, ..., k-1}``: shape (n, k).

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer or a label is outside ``{0, ..., k-1}``.
    """
    k = check.count(k, "k")
    y = check.as_float(y, "y")
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array of labels, got shape {y.shape}")
    y = check.labels(y, y.shape[0], tuple(range(k)))
    return np.eye(k)[y]


def two_moons(n=200, noise=0.1, rng=None):
    """Two interleaving half circles in the plane, labels 0 and 1, plus Gaussian noise.

    Class 0 lies on the upper unit half circle, class 1 on the lower one shifted by
    ``(1, 0.5)``; ``n // 2`` points each (the extra point of an odd ``n`` goes to class 1),
    in random order, so any split of the rows is a random split.

    Parameters
    ----------
    n : int
        Number of points, >= 2.
    noise : float
        Standard deviation of the added noise, >= 0.
    rng : numpy.random.Generator

    Returns
    -------
    X : ndarray, shape (n, 2)
    y : ndarray of int, shape (n,)

    Raises
    ------
    ValueError
        If ``n < 2``, ``noise < 0`` or ``rng`` is not a Generator.
    """
    n = check.count(n, "n", low=2)
    noise = check.nonnegative(noise, "noise")
    rng = check.generator(rng)
    y = rng.permutation((np.arange(n) >= n // 2).astype(int))
    t = np.pi * rng.random(n)
    X = np.column_stack([np.cos(t) + y, np.where(y == 0, np.sin(t), 0.5 - np.sin(t))])
    return X + noise * rng.standard_normal((n, 2)), y
