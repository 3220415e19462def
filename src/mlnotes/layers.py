"""Convolutional and recurrent layers with hand-written backward passes (chapter 16).

Every layer is a pair: ``layer(...)`` returns the output and a cache, and
``layer_backward(dout, cache)`` returns the gradients of a scalar loss with respect to the
inputs and parameters, given ``dout``, the gradient with respect to the output. Images have
shape ``(N, C, H, W)``; recurrent inputs ``(N, D)``, hidden states ``(N, H)``; weights act
on the right (``x @ Wx``), so data points are rows as everywhere in the book.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mlnotes import _validate as check

__all__ = ["conv_output_size", "conv2d", "conv2d_backward", "max_pool2d", "max_pool2d_backward",
           "batch_norm", "batch_norm_backward", "batch_norm_inference", "residual_block",
           "residual_block_backward", "rnn_cell", "rnn_cell_backward", "lstm_cell",
           "lstm_cell_backward", "gru_cell", "gru_cell_backward", "cnn_forward", "cnn_param_count"]


def _images(x, name="x", layout="(N, C, H, W)"):
    x = check.finite(x, name)
    if x.ndim != 4 or x.size == 0:
        raise ValueError(f"{name} must be a non-empty 4-D array {layout}, got shape {x.shape}")
    return x


def _sigmoid(s):
    return 0.5 * (1.0 + np.tanh(0.5 * s))  # overflow-free logistic function


def conv_output_size(n, k, stride=1, padding=0):
    """Output length ``floor((n + 2p - k) / s) + 1`` of a convolution or pooling window.

    Parameters
    ----------
    n, k : int
        Input length and window (kernel) length, both >= 1.
    stride : int
        Step between windows, >= 1.
    padding : int
        Zeros added on each side, >= 0.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If an argument is not an integer in range, or the kernel is larger than the
        padded input.
    """
    n, k = check.count(n, "n"), check.count(k, "k")
    stride, padding = check.count(stride, "stride"), check.count(padding, "padding", low=0)
    if k > n + 2 * padding:
        raise ValueError(f"kernel size k={k} is larger than the padded input {n + 2 * padding}")
    return (n + 2 * padding - k) // stride + 1


def conv2d(x, w, b, stride=1, padding=0):
    """2-D convolution layer (cross-correlation, as in deep-learning libraries), vectorised.

    ``out[n, f, u, v] = b[f] + sum_{c,i,j} w[f, c, i, j] * xpad[n, c, s*u + i, s*v + j]``,
    where ``xpad`` is ``x`` with ``padding`` rows/columns of zeros on every side. The windows
    are a strided view of ``xpad`` (im2col without copying), contracted with ``einsum``.

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        Input images.
    w : array_like, shape (F, C, kh, kw)
        F filters, each spanning all C input channels.
    b : array_like, shape (F,)
        One bias per filter.
    stride : int
        Step between windows, >= 1.
    padding : int
        Zeros added on each side, >= 0.

    Returns
    -------
    out : ndarray, shape (N, F, Ho, Wo)
        With ``Ho = (H + 2p - kh) // stride + 1`` (same for ``Wo``).
    cache : tuple
        For :func:`conv2d_backward`.

    Raises
    ------
    ValueError
        On a wrong ndim or shape, a channel mismatch, a kernel larger than the padded
        input, a non-positive stride, a negative padding, or NaN/inf.
    """
    x, w = _images(x, "x"), _images(w, "w", "(F, C, kh, kw)")
    b = check.vector(b, w.shape[0], "b")
    if w.shape[1] != x.shape[1]:
        raise ValueError(f"w has {w.shape[1]} input channels but x has {x.shape[1]} channels")
    s, p = check.count(stride, "stride"), check.count(padding, "padding", low=0)
    if w.shape[2] > x.shape[2] + 2 * p or w.shape[3] > x.shape[3] + 2 * p:
        raise ValueError(f"w's kernel {w.shape[2:]} is larger than the padded input "
                         f"{(x.shape[2] + 2 * p, x.shape[3] + 2 * p)} (x {x.shape[2:]}, padding={p})")
    Ho, Wo = conv_output_size(x.shape[2], w.shape[2], s, p), conv_output_size(x.shape[3], w.shape[3], s, p)
    xpad = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    windows = sliding_window_view(xpad, w.shape[2:], axis=(2, 3))[:, :, ::s, ::s]
    out = np.einsum("nchwij,fcij->nfhw", windows, w, optimize=True) + b[:, None, None]
    assert out.shape[2:] == (Ho, Wo)
    return out, (x.shape, w, windows, s, p)


def conv2d_backward(dout, cache):
    """Gradients ``(dx, dw, db)`` of :func:`conv2d` given ``dout = dL/dout``.

    ``dw`` and ``db`` contract ``dout`` with the windows; ``dx`` scatters the gradient of
    every window back to the pixels it read (col2im), one kernel offset at a time.

    Parameters
    ----------
    dout : array_like, shape (N, F, Ho, Wo)
    cache : tuple
        From :func:`conv2d`.

    Returns
    -------
    dx : ndarray, shape (N, C, H, W)
    dw : ndarray, shape (F, C, kh, kw)
    db : ndarray, shape (F,)

    Raises
    ------
    ValueError
        If ``dout`` does not have the shape of the layer's output, or ``cache`` is not the
        layer's cache.
    """
    x_shape, w, windows, s, p = check.cache_layout(cache, (tuple, np.ndarray, np.ndarray, int, int), "conv2d")
    N, C, H, W = x_shape
    Ho, Wo = windows.shape[2:4]
    dout = check.finite(dout, "dout")
    if dout.shape != (N, w.shape[0], Ho, Wo):
        raise ValueError(f"dout must have shape {(N, w.shape[0], Ho, Wo)}, got {dout.shape}")
    db = dout.sum(axis=(0, 2, 3))
    dw = np.einsum("nchwij,nfhw->fcij", windows, dout, optimize=True)
    dwin = np.einsum("nfhw,fcij->nchwij", dout, w, optimize=True)
    dxpad = np.zeros((N, C, H + 2 * p, W + 2 * p))
    for i in range(w.shape[2]):  # loop over the kh*kw kernel offsets, not over pixels
        for j in range(w.shape[3]):
            dxpad[:, :, i:i + s * Ho:s, j:j + s * Wo:s] += dwin[..., i, j]
    return dxpad[:, :, p:p + H, p:p + W], dw, db


def max_pool2d(x, size=2, stride=None):
    """Max pooling over ``size x size`` windows with step ``stride`` (default ``size``).

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
    size : int
        Window side, >= 1 and at most min(H, W).
    stride : int, optional
        Step between windows, >= 1; defaults to ``size`` (non-overlapping windows).

    Returns
    -------
    out : ndarray, shape (N, C, Ho, Wo)
        ``Ho = (H - size) // stride + 1``.
    cache : tuple
        For :func:`max_pool2d_backward`.

    Raises
    ------
    ValueError
        On a wrong ndim, a window larger than the input, a non-positive size or stride.
    """
    x = _images(x, "x")
    size = check.count(size, "size")
    stride = size if stride is None else check.count(stride, "stride")
    if size > min(x.shape[2:]):
        raise ValueError(f"size must be at most min(H, W) = {min(x.shape[2:])}, got {size}")
    Ho = conv_output_size(x.shape[2], size, stride)
    Wo = conv_output_size(x.shape[3], size, stride)
    windows = sliding_window_view(x, (size, size), axis=(2, 3))[:, :, ::stride, ::stride]
    flat = windows.reshape(*windows.shape[:4], size * size)
    arg = flat.argmax(axis=-1)  # position of the maximum inside each window
    out = np.take_along_axis(flat, arg[..., None], axis=-1)[..., 0]
    assert out.shape[2:] == (Ho, Wo)
    return out, (x.shape, arg, size, stride)


def max_pool2d_backward(dout, cache):
    """Gradient ``dx`` of :func:`max_pool2d`: each window's ``dout`` goes to its maximum.

    Overlapping windows that share a maximum add their contributions (``np.add.at``). With
    ties the gradient goes to the first maximum in row-major order (a subgradient).

    Parameters
    ----------
    dout : array_like, shape (N, C, Ho, Wo)
    cache : tuple
        From :func:`max_pool2d`.

    Returns
    -------
    dx : ndarray, shape (N, C, H, W)

    Raises
    ------
    ValueError
        If ``dout`` does not have the shape of the layer's output, or ``cache`` is not the
        layer's cache.
    """
    x_shape, arg, size, stride = check.cache_layout(cache, (tuple, np.ndarray, int, int), "max_pool2d")
    dout = check.finite(dout, "dout")
    if dout.shape != arg.shape:
        raise ValueError(f"dout must have shape {arg.shape}, got {dout.shape}")
    n, c, u, v = np.indices(arg.shape)
    rows, cols = stride * u + arg // size, stride * v + arg % size
    dx = np.zeros(x_shape)
    np.add.at(dx, (n, c, rows, cols), dout)
    return dx


def _bn_axes(x, gamma, beta):
    if x.ndim not in (2, 4) or x.size == 0:
        raise ValueError(f"x must be a non-empty array of shape (N, D) or (N, C, H, W), got {x.shape}")
    gamma = check.vector(gamma, x.shape[1], "gamma")
    beta = check.vector(beta, x.shape[1], "beta")
    axes = (0,) if x.ndim == 2 else (0, 2, 3)
    shape = (1, -1) if x.ndim == 2 else (1, -1, 1, 1)
    return axes, gamma.reshape(shape), beta.reshape(shape)


def batch_norm(x, gamma, beta, eps=1e-5):
    """Batch normalisation in training mode: per-feature (per-channel) batch statistics.

    ``xhat = (x - mu) / sqrt(var + eps)`` and ``out = gamma * xhat + beta``, where ``mu`` and
    ``var`` (biased, divisor m) are taken over the m = N (or N*H*W) values of each feature.

    Parameters
    ----------
    x : array_like, shape (N, D) or (N, C, H, W)
    gamma, beta : array_like, shape (D,) or (C,)
        Scale and shift.
    eps : float
        Positive constant added to the variance.

    Returns
    -------
    out : ndarray, shape of ``x``
    cache : tuple
        For :func:`batch_norm_backward`; ``cache[-2:]`` are the batch mean and variance
        (shape (D,) or (C,)), which a network averages into its inference statistics.

    Raises
    ------
    ValueError
        On a wrong ndim, a parameter of the wrong length, NaN/inf, or ``eps <= 0``.
    """
    x = check.finite(x, "x")
    axes, g, bt = _bn_axes(x, gamma, beta)
    eps = check.positive(eps, "eps")
    mu = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    inv_std = 1.0 / np.sqrt(var + eps)
    xhat = (x - mu) * inv_std
    return g * xhat + bt, (xhat, g, inv_std, axes, mu.ravel(), var.ravel())


def batch_norm_backward(dout, cache):
    """Gradients ``(dx, dgamma, dbeta)`` of :func:`batch_norm` (training mode).

    With ``g = gamma * dout`` and m values per feature,
    ``dx = inv_std * (g - mean(g) - xhat * mean(g * xhat))``: the two means are the paths
    through the batch mean and the batch variance.

    Parameters
    ----------
    dout : array_like, shape of the input
    cache : tuple
        From :func:`batch_norm`.

    Returns
    -------
    dx : ndarray, shape of the input
    dgamma, dbeta : ndarray, shape (D,) or (C,)

    Raises
    ------
    ValueError
        If ``dout`` does not have the shape of the input, or ``cache`` is not the layer's cache.
    """
    xhat, g, inv_std, axes, _, _ = check.cache_layout(cache, (np.ndarray,) * 3 + (tuple,) + (np.ndarray,) * 2,
                                                      "batch_norm")
    dout = check.finite(dout, "dout")
    if dout.shape != xhat.shape:
        raise ValueError(f"dout must have shape {xhat.shape}, got {dout.shape}")
    dbeta = dout.sum(axis=axes)
    dgamma = (dout * xhat).sum(axis=axes)
    gx = g * dout
    dx = inv_std * (gx - gx.mean(axis=axes, keepdims=True)
                    - xhat * (gx * xhat).mean(axis=axes, keepdims=True))
    return dx, dgamma, dbeta


def batch_norm_inference(x, gamma, beta, mean, var, eps=1e-5):
    """Batch normalisation at inference: fixed (running) statistics instead of batch ones.

    ``out = gamma * (x - mean) / sqrt(var + eps) + beta``, an affine map of each example
    alone, so the output of one example no longer depends on the rest of the batch.

    Parameters
    ----------
    x : array_like, shape (N, D) or (N, C, H, W)
    gamma, beta, mean : array_like, shape (D,) or (C,)
    var : array_like, shape (D,) or (C,)
        Non-negative.
    eps : float
        Positive.

    Returns
    -------
    ndarray, shape of ``x``

    Raises
    ------
    ValueError
        On a wrong ndim or length, NaN/inf, a negative variance, or ``eps <= 0``.
    """
    x = check.finite(x, "x")
    axes, g, bt = _bn_axes(x, gamma, beta)
    mean = check.vector(mean, x.shape[1], "mean").reshape(g.shape)
    var = check.vector(var, x.shape[1], "var").reshape(g.shape)
    if np.any(var < 0):
        raise ValueError("var must be non-negative")
    eps = check.positive(eps, "eps")
    return g * (x - mean) / np.sqrt(var + eps) + bt


def _rows(x, h, D, H, xname="x", hname="h_prev"):
    """Validate a batch of inputs (N, D) and states (N, H)."""
    x = check.matrix(x, xname)
    h = check.matrix(h, hname)
    if x.shape[1] != D:
        raise ValueError(f"{xname} must have {D} columns (the rows of Wx), got {x.shape[1]}")
    if h.shape != (x.shape[0], H):
        raise ValueError(f"{hname} must have shape {(x.shape[0], H)}, got {h.shape}")
    return x, h


def _weights(Wx, Wh, b, k):
    """Validate Wx (D, kH), Wh (H, kH), b (kH,) for a cell with k blocks."""
    Wx, Wh = check.matrix(Wx, "Wx"), check.matrix(Wh, "Wh")
    H = Wh.shape[0]
    if Wh.shape != (H, k * H):
        raise ValueError(f"Wh must have shape (H, {k}H), got {Wh.shape}")
    if Wx.shape[1] != k * H:
        raise ValueError(f"Wx must have {k * H} columns ({k}H with H={H}), got {Wx.shape[1]}")
    return Wx, Wh, check.vector(b, k * H, "b"), Wx.shape[0], H


def residual_block(x, W1, b1, W2, b2):
    """Residual block ``out = x + F(x)`` with ``F(x) = tanh(x W1 + b1) W2 + b2``.

    Parameters
    ----------
    x : array_like, shape (N, D)
    W1 : array_like, shape (D, K)
    b1 : array_like, shape (K,)
    W2 : array_like, shape (K, D)
    b2 : array_like, shape (D,)

    Returns
    -------
    out : ndarray, shape (N, D)
    cache : tuple
        For :func:`residual_block_backward`.

    Raises
    ------
    ValueError
        On shapes that do not fit together, or NaN/inf.
    """
    x, W1, W2 = check.matrix(x, "x"), check.matrix(W1, "W1"), check.matrix(W2, "W2")
    if W1.shape[0] != x.shape[1] or W2.shape != (W1.shape[1], x.shape[1]):
        raise ValueError(f"W1 must have shape ({x.shape[1]}, K) and W2 shape (K, {x.shape[1]}); "
                         f"got {W1.shape} and {W2.shape}")
    b1, b2 = check.vector(b1, W1.shape[1], "b1"), check.vector(b2, x.shape[1], "b2")
    a = np.tanh(x @ W1 + b1)
    return x + a @ W2 + b2, (x, a, W1, W2)


def residual_block_backward(dout, cache):
    """Gradients ``(dx, dW1, db1, dW2, db2)`` of :func:`residual_block`.

    ``dx = dout + (dout W2^T * (1 - a^2)) W1^T``: the identity path passes ``dout``
    through unchanged, whatever the weights.

    Parameters
    ----------
    dout : array_like, shape (N, D)
    cache : tuple
        From :func:`residual_block`.

    Returns
    -------
    dx, dW1, db1, dW2, db2 : ndarray
        Shapes of ``x, W1, b1, W2, b2``.

    Raises
    ------
    ValueError
        If ``dout`` does not have the shape of the output, or ``cache`` is not the layer's cache.
    """
    x, a, W1, W2 = check.cache_layout(cache, (np.ndarray,) * 4, "residual_block")
    dout = check.matrix(dout, "dout")
    if dout.shape != x.shape:
        raise ValueError(f"dout must have shape {x.shape}, got {dout.shape}")
    ds = (dout @ W2.T) * (1 - a ** 2)
    return dout + ds @ W1.T, x.T @ ds, ds.sum(axis=0), a.T @ dout, dout.sum(axis=0)


def rnn_cell(x, h_prev, Wx, Wh, b):
    """One step of a tanh RNN: ``h = tanh(x Wx + h_prev Wh + b)``.

    Parameters
    ----------
    x : array_like, shape (N, D)
    h_prev : array_like, shape (N, H)
    Wx : array_like, shape (D, H)
    Wh : array_like, shape (H, H)
    b : array_like, shape (H,)

    Returns
    -------
    h : ndarray, shape (N, H)
    cache : tuple
        For :func:`rnn_cell_backward`.

    Raises
    ------
    ValueError
        On shapes that do not fit together, or NaN/inf.
    """
    Wx, Wh, b, D, H = _weights(Wx, Wh, b, 1)
    x, h_prev = _rows(x, h_prev, D, H)
    h = np.tanh(x @ Wx + h_prev @ Wh + b)
    return h, (x, h_prev, Wx, Wh, h)


def rnn_cell_backward(dh, cache):
    """Gradients ``(dx, dh_prev, dWx, dWh, db)`` of :func:`rnn_cell` given ``dh = dL/dh``.

    Parameters
    ----------
    dh : array_like, shape (N, H)
    cache : tuple
        From :func:`rnn_cell`.

    Returns
    -------
    dx, dh_prev, dWx, dWh, db : ndarray
        Shapes of ``x, h_prev, Wx, Wh, b``.

    Raises
    ------
    ValueError
        If ``dh`` does not have the shape of ``h``, or ``cache`` is not the cell's cache.
    """
    x, h_prev, Wx, Wh, h = check.cache_layout(cache, (np.ndarray,) * 5, "rnn_cell")
    dh = check.matrix(dh, "dh")
    if dh.shape != h.shape:
        raise ValueError(f"dh must have shape {h.shape}, got {dh.shape}")
    ds = dh * (1 - h ** 2)
    return ds @ Wx.T, ds @ Wh.T, x.T @ ds, h_prev.T @ ds, ds.sum(axis=0)


def lstm_cell(x, h_prev, c_prev, Wx, Wh, b):
    """One step of an LSTM; the four blocks of ``x Wx + h_prev Wh + b`` are i, f, o, g.

    ``i, f, o = sigmoid(.)`` (input, forget, output gates), ``g = tanh(.)`` (candidate),
    ``c = f * c_prev + i * g`` and ``h = o * tanh(c)``, all products elementwise.

    Parameters
    ----------
    x : array_like, shape (N, D)
    h_prev, c_prev : array_like, shape (N, H)
    Wx : array_like, shape (D, 4H)
    Wh : array_like, shape (H, 4H)
    b : array_like, shape (4H,)

    Returns
    -------
    (h, c) : tuple of ndarray, shape (N, H)
    cache : tuple
        For :func:`lstm_cell_backward`.

    Raises
    ------
    ValueError
        On shapes that do not fit together, or NaN/inf.
    """
    Wx, Wh, b, D, H = _weights(Wx, Wh, b, 4)
    x, h_prev = _rows(x, h_prev, D, H)
    c_prev = check.finite(c_prev, "c_prev")
    if c_prev.shape != h_prev.shape:
        raise ValueError(f"c_prev must have shape {h_prev.shape}, got {c_prev.shape}")
    s = x @ Wx + h_prev @ Wh + b
    i, f, o = _sigmoid(s[:, :H]), _sigmoid(s[:, H:2 * H]), _sigmoid(s[:, 2 * H:3 * H])
    g = np.tanh(s[:, 3 * H:])
    c = f * c_prev + i * g
    tc = np.tanh(c)
    h = o * tc
    return (h, c), (x, h_prev, c_prev, Wx, Wh, i, f, o, g, tc)


def lstm_cell_backward(dh, dc, cache):
    """Gradients ``(dx, dh_prev, dc_prev, dWx, dWh, db)`` of :func:`lstm_cell`.

    ``dh`` and ``dc`` are the gradients reaching ``h`` and ``c`` from later steps; the
    cell state receives ``dc + dh * o * (1 - tanh(c)^2)`` and passes ``f`` times it back
    to ``c_prev`` — the forget-gate path.

    Parameters
    ----------
    dh, dc : array_like, shape (N, H)
    cache : tuple
        From :func:`lstm_cell`.

    Returns
    -------
    dx, dh_prev, dc_prev, dWx, dWh, db : ndarray
        Shapes of ``x, h_prev, c_prev, Wx, Wh, b``.

    Raises
    ------
    ValueError
        If ``dh`` or ``dc`` does not have the shape (N, H), or ``cache`` is not the cell's cache.
    """
    x, h_prev, c_prev, Wx, Wh, i, f, o, g, tc = check.cache_layout(cache, (np.ndarray,) * 10, "lstm_cell")
    dh, dc = check.matrix(dh, "dh"), check.matrix(dc, "dc")
    for name, d in (("dh", dh), ("dc", dc)):
        if d.shape != i.shape:
            raise ValueError(f"{name} must have shape {i.shape}, got {d.shape}")
    dc_total = dc + dh * o * (1 - tc ** 2)
    ds = np.hstack([dc_total * g * i * (1 - i), dc_total * c_prev * f * (1 - f),
                    dh * tc * o * (1 - o), dc_total * i * (1 - g ** 2)])
    return ds @ Wx.T, ds @ Wh.T, dc_total * f, x.T @ ds, h_prev.T @ ds, ds.sum(axis=0)


def gru_cell(x, h_prev, Wx, Wh, b):
    """One step of a GRU; the three blocks of the weights are z (update), r (reset), n.

    ``z, r = sigmoid(x Wx_. + h_prev Wh_. + b_.)``, candidate
    ``n = tanh(x Wx_n + (r * h_prev) Wh_n + b_n)`` and ``h = (1 - z) * h_prev + z * n``
    (the notes' convention: z weights the new candidate).

    Parameters
    ----------
    x : array_like, shape (N, D)
    h_prev : array_like, shape (N, H)
    Wx : array_like, shape (D, 3H)
    Wh : array_like, shape (H, 3H)
    b : array_like, shape (3H,)

    Returns
    -------
    h : ndarray, shape (N, H)
    cache : tuple
        For :func:`gru_cell_backward`.

    Raises
    ------
    ValueError
        On shapes that do not fit together, or NaN/inf.
    """
    Wx, Wh, b, D, H = _weights(Wx, Wh, b, 3)
    x, h_prev = _rows(x, h_prev, D, H)
    sx = x @ Wx + b
    szr = sx[:, :2 * H] + h_prev @ Wh[:, :2 * H]
    z, r = _sigmoid(szr[:, :H]), _sigmoid(szr[:, H:])
    n = np.tanh(sx[:, 2 * H:] + (r * h_prev) @ Wh[:, 2 * H:])
    h = (1 - z) * h_prev + z * n
    return h, (x, h_prev, Wx, Wh, z, r, n)


def gru_cell_backward(dh, cache):
    """Gradients ``(dx, dh_prev, dWx, dWh, db)`` of :func:`gru_cell` given ``dh = dL/dh``.

    Parameters
    ----------
    dh : array_like, shape (N, H)
    cache : tuple
        From :func:`gru_cell`.

    Returns
    -------
    dx, dh_prev, dWx, dWh, db : ndarray
        Shapes of ``x, h_prev, Wx, Wh, b``.

    Raises
    ------
    ValueError
        If ``dh`` does not have the shape of ``h``, or ``cache`` is not the cell's cache.
    """
    x, h_prev, Wx, Wh, z, r, n = check.cache_layout(cache, (np.ndarray,) * 7, "gru_cell")
    H = h_prev.shape[1]
    dh = check.matrix(dh, "dh")
    if dh.shape != h_prev.shape:
        raise ValueError(f"dh must have shape {h_prev.shape}, got {dh.shape}")
    dsn = dh * z * (1 - n ** 2)                 # through the candidate's tanh
    drh = dsn @ Wh[:, 2 * H:].T                  # gradient reaching r * h_prev
    dsz = dh * (n - h_prev) * z * (1 - z)
    dsr = drh * h_prev * r * (1 - r)
    dszr = np.hstack([dsz, dsr])
    ds = np.hstack([dszr, dsn])
    dh_prev = dh * (1 - z) + drh * r + dszr @ Wh[:, :2 * H].T
    dWh = np.hstack([h_prev.T @ dszr, (r * h_prev).T @ dsn])
    return ds @ Wx.T, dh_prev, x.T @ ds, dWh, ds.sum(axis=0)


# ------------------------------------------------------------------ a whole network


def _pairs(layers_, name):
    """``layers_`` as a list of ``(weight, bias)`` pairs; ``ValueError`` naming ``name`` otherwise."""
    if not isinstance(layers_, (list, tuple)) or len(layers_) == 0 or not all(
            isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in layers_):
        raise ValueError(f"{name} must be a non-empty list of (weight, bias) pairs")
    return list(layers_)


def cnn_forward(x, convs, fcs, pool_after, padding=0):
    """Forward pass of a plain CNN: (Conv → ReLU [→ Max-Pool])* → flatten → (FC → ReLU)* → FC → Softmax.

    Each ``convs[i] = (w, b)`` is a :func:`conv2d` layer (stride 1, ``padding``) followed by
    a ReLU and, where ``pool_after[i]``, a 2 x 2 max pool of stride 2. The maps are then
    flattened per image (channel-major, ``(C, H, W)`` order) and passed through the dense
    layers ``fcs[j] = (W, b)`` (``A @ W + b``), with a ReLU after all but the last, whose
    output goes through a softmax.

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
    convs : list of (w, b)
        Filters ``w`` of shape (F, C, k, k) and biases of shape (F,).
    fcs : list of (W, b)
        ``W`` of shape (d_in, d_out); the first ``d_in`` must equal the flattened map size.
    pool_after : sequence of bool, one per conv layer
    padding : int
        Zero padding of every convolution, >= 0.

    Returns
    -------
    probs : ndarray, shape (N, K)
        Softmax outputs.
    shapes : list of (str, tuple)
        The name and output shape of every layer, input first.

    Raises
    ------
    ValueError
        If ``convs`` or ``fcs`` is not a list of pairs or a pair does not fit the previous
        layer (the message names ``convs[i]`` or ``fcs[j]``), ``pool_after`` does not have one
        entry per conv layer, the computation overflows, or as for :func:`conv2d` and
        :func:`max_pool2d`.
    """
    x, convs, fcs = _images(x, "x"), _pairs(convs, "convs"), _pairs(fcs, "fcs")
    pool_after = np.asarray(pool_after)
    if pool_after.shape != (len(convs),) or pool_after.dtype != bool:
        raise ValueError(f"pool_after must be {len(convs)} booleans (one per conv layer), got {pool_after!r}")
    padding = check.count(padding, "padding", low=0)
    with np.errstate(over="ignore", invalid="ignore"):
        probs, shapes = _cnn_layers(x, convs, fcs, pool_after, padding)
    return check.finite_result(probs, "x and the weights"), shapes


def _cnn_layers(x, convs, fcs, pool_after, padding):
    a, shapes = x, [("input", x.shape)]
    for i, ((w, b), pool) in enumerate(zip(convs, pool_after)):
        try:
            a = np.maximum(conv2d(a, w, b, 1, padding)[0], 0.0)
            shapes += [(f"conv{i + 1}", a.shape), ("relu", a.shape)]
            if pool:
                a = max_pool2d(a, 2)[0]
                shapes.append(("maxpool", a.shape))
        except ValueError as err:
            raise ValueError(f"convs[{i}] (input of shape {a.shape}): {err}") from None
    a = a.reshape(a.shape[0], -1)
    shapes.append(("flatten", a.shape))
    for j, (W, b) in enumerate(fcs):
        W, b = check.finite(W, f"fcs[{j}]"), check.finite(b, f"fcs[{j}]")
        if W.ndim != 2 or W.shape[0] != a.shape[1] or b.shape != (W.shape[1],):
            raise ValueError(f"fcs[{j}] must be (W, b) with W of shape ({a.shape[1]}, d_out) and b of shape "
                             f"(d_out,), got {W.shape} and {b.shape}")
        a = a @ W + b
        shapes.append((f"fc{j + 1}", a.shape))
        if j < len(fcs) - 1:
            a = np.maximum(a, 0.0)
            shapes.append(("relu", a.shape))
    a = np.exp(a - a.max(axis=1, keepdims=True))
    shapes.append(("softmax", a.shape))
    return a / a.sum(axis=1, keepdims=True), shapes


def cnn_param_count(channels, kernel, fc_sizes):
    """Number of weights and biases of a CNN with square kernels and dense layers.

    A conv layer from ``C_in`` to ``C_out`` channels with ``k x k`` kernels has
    ``C_out (C_in k² + 1)`` parameters; a dense layer from ``d_in`` to ``d_out`` has
    ``d_out (d_in + 1)``; pooling, ReLU and softmax have none.

    Parameters
    ----------
    channels : sequence of int
        ``(C_0, C_1, ..., C_L)``: the input channels, then the output channels of each conv layer.
    kernel : int or sequence of int
        Kernel side k: one for every conv layer, or one per conv layer (length L).
    fc_sizes : sequence of int
        ``(d_0, d_1, ..., d_M)``: the flattened map size, then the width of each dense layer.

    Returns
    -------
    int
        Python int (no overflow).

    Raises
    ------
    ValueError
        If ``channels`` or ``fc_sizes`` has fewer than two entries or a non-positive or
        non-integer entry, or ``kernel`` is not a positive integer or a sequence of them,
        one per conv layer.
    """
    sizes = []
    for name, seq in (("channels", channels), ("fc_sizes", fc_sizes)):
        if isinstance(seq, (str, bytes)) or np.ndim(seq) != 1 or len(seq) < 2:
            raise ValueError(f"{name} must be a sequence of at least two positive integers, got {seq!r}")
        sizes.append([check.count(v, name) for v in seq])
    (c, f) = sizes
    if np.ndim(kernel) == 0:
        kernel = [check.count(kernel, "kernel")] * (len(c) - 1)
    elif isinstance(kernel, (str, bytes)) or np.ndim(kernel) != 1 or len(kernel) != len(c) - 1:
        raise ValueError(f"kernel must be a positive integer or {len(c) - 1} of them (one per conv layer), "
                         f"got {kernel!r}")
    else:
        kernel = [check.count(k, "kernel") for k in kernel]
    return (sum(c_out * (c_in * k**2 + 1) for c_in, c_out, k in zip(c[:-1], c[1:], kernel))
            + sum(d_out * (d_in + 1) for d_in, d_out in zip(f[:-1], f[1:])))
