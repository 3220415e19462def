"""Tests for mlnotes.layers: forward passes against references, backward passes against
central differences (relative error < 1e-6 in float64), and input validation."""
import numpy as np
import pytest
import scipy.signal
import scipy.special

from mlnotes import layers
from mlnotes.nn import gradient_check

TOL = 1e-6


def _check_all(f_of, arrays, grads):
    """gradient_check for each (name -> array) with loss f_of(name)(array)."""
    for name, x in arrays.items():
        err = gradient_check(f_of(name), x, grads[name])
        assert err < TOL, (name, err)


# ---------------------------------------------------------------- convolution
@pytest.mark.parametrize("seed,N,C,F,H,W,k,s,p", [
    (0, 2, 3, 4, 7, 6, 3, 1, 0), (1, 1, 2, 3, 8, 8, 3, 2, 1), (2, 3, 1, 2, 5, 9, 2, 3, 2),
    (3, 2, 2, 2, 6, 6, 5, 1, 2)])
def test_conv2d_forward_matches_correlate2d(seed, N, C, F, H, W, k, s, p):
    rng = np.random.default_rng(seed)
    x, w, b = rng.normal(size=(N, C, H, W)), rng.normal(size=(F, C, k, k)), rng.normal(size=F)
    out, _ = layers.conv2d(x, w, b, stride=s, padding=p)
    Ho, Wo = (H + 2 * p - k) // s + 1, (W + 2 * p - k) // s + 1
    assert out.shape == (N, F, Ho, Wo)
    assert (layers.conv_output_size(H, k, s, p), layers.conv_output_size(W, k, s, p)) == (Ho, Wo)
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    ref = np.zeros((N, F, H + 2 * p - k + 1, W + 2 * p - k + 1))
    for n in range(N):
        for f in range(F):
            ref[n, f] = b[f] + sum(scipy.signal.correlate2d(xp[n, c], w[f, c], mode="valid")
                                   for c in range(C))
    np.testing.assert_allclose(out, ref[:, :, ::s, ::s], atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_conv2d_same_and_full_padding(seed):
    rng = np.random.default_rng(seed)
    x, w = rng.normal(size=(1, 1, 6, 7)), rng.normal(size=(1, 1, 3, 3))
    same, _ = layers.conv2d(x, w, [0.0], padding=1)
    full, _ = layers.conv2d(x, w, [0.0], padding=2)
    np.testing.assert_allclose(same[0, 0], scipy.signal.correlate2d(x[0, 0], w[0, 0], "same"), atol=1e-12)
    np.testing.assert_allclose(full[0, 0], scipy.signal.correlate2d(x[0, 0], w[0, 0], "full"), atol=1e-12)


def test_conv2d_is_not_convolution():
    rng = np.random.default_rng(5)
    x, w = rng.normal(size=(1, 1, 5, 5)), rng.normal(size=(1, 1, 3, 3))
    out, _ = layers.conv2d(x, w, [0.0])
    conv = scipy.signal.convolve2d(x[0, 0], w[0, 0], "valid")
    assert not np.allclose(out[0, 0], conv)
    np.testing.assert_allclose(out[0, 0], scipy.signal.convolve2d(x[0, 0], w[0, 0, ::-1, ::-1], "valid"), atol=1e-12)


@pytest.mark.parametrize("seed,N,C,F,H,W,k,s,p", [
    (0, 2, 2, 3, 5, 6, 3, 1, 0), (1, 1, 3, 2, 7, 7, 3, 2, 1), (2, 2, 1, 2, 6, 5, 2, 3, 2)])
def test_conv2d_backward(seed, N, C, F, H, W, k, s, p):
    rng = np.random.default_rng(seed)
    x, w, b = rng.normal(size=(N, C, H, W)), rng.normal(size=(F, C, k, k)), rng.normal(size=F)
    out, cache = layers.conv2d(x, w, b, s, p)
    G = rng.normal(size=out.shape)
    dx, dw, db = layers.conv2d_backward(G, cache)
    args = {"x": x, "w": w, "b": b}

    def f_of(name):
        return lambda v: float(np.sum(G * layers.conv2d(**{**args, name: v}, stride=s, padding=p)[0]))
    _check_all(f_of, args, {"x": dx, "w": dw, "b": db})


# ---------------------------------------------------------------- pooling
@pytest.mark.parametrize("seed,size,stride,H,W", [(0, 2, None, 6, 8), (1, 3, 2, 7, 9), (2, 2, 1, 5, 5)])
def test_max_pool_forward_and_backward(seed, size, stride, H, W):
    rng = np.random.default_rng(seed)
    x = rng.permutation(2 * 3 * H * W).reshape(2, 3, H, W) / 7.0  # distinct values: no ties
    out, cache = layers.max_pool2d(x, size, stride)
    s = size if stride is None else stride
    Ho, Wo = (H - size) // s + 1, (W - size) // s + 1
    ref = np.array([[[[x[n, c, s * u:s * u + size, s * v:s * v + size].max() for v in range(Wo)]
                      for u in range(Ho)] for c in range(3)] for n in range(2)])
    np.testing.assert_array_equal(out, ref)
    G = rng.normal(size=out.shape)
    dx = layers.max_pool2d_backward(G, cache)
    err = gradient_check(lambda v: float(np.sum(G * layers.max_pool2d(v, size, stride)[0])), x, dx)
    assert err < TOL


# ---------------------------------------------------------------- batch norm
@pytest.mark.parametrize("seed,shape,eps", [(0, (8, 3), 1e-5), (1, (4, 2, 3, 3), 1e-3), (2, (5, 4), 0.5)])
def test_batch_norm_statistics(seed, shape, eps):
    rng = np.random.default_rng(seed)
    x = rng.normal(2.0, 1.5, size=shape)
    C = shape[1]
    gamma, beta = rng.uniform(0.5, 2, C), rng.normal(size=C)
    out, cache = layers.batch_norm(x, gamma, beta, eps)
    axes = (0,) if len(shape) == 2 else (0, 2, 3)
    var = x.var(axis=axes)
    xhat = (out - beta.reshape((1, -1) + (1,) * (len(shape) - 2))) / gamma.reshape((1, -1) + (1,) * (len(shape) - 2))
    np.testing.assert_allclose(xhat.mean(axis=axes), 0, atol=1e-12)
    np.testing.assert_allclose(xhat.var(axis=axes), var / (var + eps), rtol=1e-12)
    np.testing.assert_allclose(out.mean(axis=axes), beta, atol=1e-12)
    np.testing.assert_allclose(cache[-1], var, rtol=1e-12)
    np.testing.assert_allclose(cache[-2], x.mean(axis=axes), rtol=1e-12)


@pytest.mark.parametrize("seed,shape,eps", [(0, (6, 3), 1e-5), (1, (3, 2, 3, 4), 1e-3), (2, (4, 5), 0.1)])
def test_batch_norm_backward(seed, shape, eps):
    rng = np.random.default_rng(seed)
    x = rng.normal(1.0, 2.0, size=shape)
    gamma, beta = rng.uniform(0.5, 2, shape[1]), rng.normal(size=shape[1])
    out, cache = layers.batch_norm(x, gamma, beta, eps)
    G = rng.normal(size=shape)
    dx, dg, db = layers.batch_norm_backward(G, cache)
    args = {"x": x, "gamma": gamma, "beta": beta}

    def f_of(name):
        return lambda v: float(np.sum(G * layers.batch_norm(**{**args, name: v}, eps=eps)[0]))
    _check_all(f_of, args, {"x": dx, "gamma": dg, "beta": db})


def test_batch_norm_inference_equals_training_with_batch_statistics():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 3, 4, 4))
    gamma, beta = rng.uniform(0.5, 2, 3), rng.normal(size=3)
    out, cache = layers.batch_norm(x, gamma, beta)
    np.testing.assert_allclose(layers.batch_norm_inference(x, gamma, beta, cache[-2], cache[-1]), out, atol=1e-12)
    one = layers.batch_norm_inference(x[:1], gamma, beta, cache[-2], cache[-1])
    np.testing.assert_allclose(one, out[:1], atol=1e-12)


# ---------------------------------------------------------------- residual block
@pytest.mark.parametrize("seed,N,D,K", [(0, 3, 4, 5), (1, 2, 6, 3)])
def test_residual_block_backward(seed, N, D, K):
    rng = np.random.default_rng(seed)
    args = {"x": rng.normal(size=(N, D)), "W1": rng.normal(size=(D, K)), "b1": rng.normal(size=K),
            "W2": rng.normal(size=(K, D)), "b2": rng.normal(size=D)}
    out, cache = layers.residual_block(**args)
    G = rng.normal(size=out.shape)
    grads = dict(zip(args, layers.residual_block_backward(G, cache)))

    def f_of(name):
        return lambda v: float(np.sum(G * layers.residual_block(**{**args, name: v})[0]))
    _check_all(f_of, args, grads)


def test_residual_block_with_zero_weights_is_identity_for_gradients():
    rng = np.random.default_rng(0)
    x, G = rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
    out, cache = layers.residual_block(x, np.zeros((3, 4)), np.zeros(4), np.zeros((4, 3)), np.zeros(3))
    np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(layers.residual_block_backward(G, cache)[0], G)


# ---------------------------------------------------------------- recurrent cells
def _rnn_args(rng, N, D, H, k):
    return {"x": rng.normal(size=(N, D)), "h_prev": rng.normal(size=(N, H)),
            "Wx": rng.normal(size=(D, k * H)) / np.sqrt(D), "Wh": rng.normal(size=(H, k * H)) / np.sqrt(H),
            "b": rng.normal(size=k * H)}


def _sig(s):
    return 1 / (1 + np.exp(-s))


@pytest.mark.parametrize("seed,N,D,H", [(0, 2, 3, 4), (1, 3, 2, 5), (2, 1, 4, 2)])
def test_rnn_cell(seed, N, D, H):
    rng = np.random.default_rng(seed)
    args = _rnn_args(rng, N, D, H, 1)
    h, cache = layers.rnn_cell(**args)
    ref = np.array([[np.tanh(sum(args["x"][n, d] * args["Wx"][d, j] for d in range(D))
                             + sum(args["h_prev"][n, m] * args["Wh"][m, j] for m in range(H)) + args["b"][j])
                     for j in range(H)] for n in range(N)])
    np.testing.assert_allclose(h, ref, atol=1e-12)
    G = rng.normal(size=h.shape)
    grads = dict(zip(args, layers.rnn_cell_backward(G, cache)))

    def f_of(name):
        return lambda v: float(np.sum(G * layers.rnn_cell(**{**args, name: v})[0]))
    _check_all(f_of, args, grads)


def _lstm_loop(x, h_prev, c_prev, Wx, Wh, b):
    """Scalar reference: unit by unit, gate order i, f, o, g."""
    N, H = h_prev.shape
    h, c = np.zeros((N, H)), np.zeros((N, H))
    for n in range(N):
        for j in range(H):
            pre = [float(x[n] @ Wx[:, q * H + j] + h_prev[n] @ Wh[:, q * H + j] + b[q * H + j]) for q in range(4)]
            i, f, o, g = _sig(pre[0]), _sig(pre[1]), _sig(pre[2]), np.tanh(pre[3])
            c[n, j] = f * c_prev[n, j] + i * g
            h[n, j] = o * np.tanh(c[n, j])
    return h, c


@pytest.mark.parametrize("seed,N,D,H", [(0, 2, 3, 4), (1, 3, 2, 2), (2, 1, 5, 3)])
def test_lstm_cell(seed, N, D, H):
    rng = np.random.default_rng(seed)
    args = _rnn_args(rng, N, D, H, 4)
    args["c_prev"] = rng.normal(size=(N, H))
    (h, c), cache = layers.lstm_cell(**args)
    h_ref, c_ref = _lstm_loop(**args)
    np.testing.assert_allclose(h, h_ref, atol=1e-12)
    np.testing.assert_allclose(c, c_ref, atol=1e-12)
    Gh, Gc = rng.normal(size=h.shape), rng.normal(size=c.shape)
    dx, dh_prev, dc_prev, dWx, dWh, db = layers.lstm_cell_backward(Gh, Gc, cache)
    grads = {"x": dx, "h_prev": dh_prev, "c_prev": dc_prev, "Wx": dWx, "Wh": dWh, "b": db}

    def f_of(name):
        def f(v):
            (h, c), _ = layers.lstm_cell(**{**args, name: v})
            return float(np.sum(Gh * h) + np.sum(Gc * c))
        return f
    _check_all(f_of, args, grads)


def _gru_loop(x, h_prev, Wx, Wh, b):
    """Scalar reference in the notes' convention h = (1 - z) h_prev + z n."""
    N, H = h_prev.shape
    h = np.zeros((N, H))
    for n in range(N):
        z = [_sig(x[n] @ Wx[:, j] + h_prev[n] @ Wh[:, j] + b[j]) for j in range(H)]
        r = [_sig(x[n] @ Wx[:, H + j] + h_prev[n] @ Wh[:, H + j] + b[H + j]) for j in range(H)]
        rh = np.array([r[m] * h_prev[n, m] for m in range(H)])
        for j in range(H):
            cand = np.tanh(x[n] @ Wx[:, 2 * H + j] + rh @ Wh[:, 2 * H + j] + b[2 * H + j])
            h[n, j] = (1 - z[j]) * h_prev[n, j] + z[j] * cand
    return h


@pytest.mark.parametrize("seed,N,D,H", [(0, 2, 3, 4), (1, 3, 2, 2), (2, 1, 5, 3)])
def test_gru_cell(seed, N, D, H):
    rng = np.random.default_rng(seed)
    args = _rnn_args(rng, N, D, H, 3)
    h, cache = layers.gru_cell(**args)
    np.testing.assert_allclose(h, _gru_loop(**args), atol=1e-12)
    G = rng.normal(size=h.shape)
    grads = dict(zip(args, layers.gru_cell_backward(G, cache)))

    def f_of(name):
        return lambda v: float(np.sum(G * layers.gru_cell(**{**args, name: v})[0]))
    _check_all(f_of, args, grads)


@pytest.mark.parametrize("seed,T", [(0, 4), (1, 6)])
def test_rnn_backprop_through_time(seed, T):
    rng = np.random.default_rng(seed)
    N, D, H = 2, 3, 4
    xs = rng.normal(size=(T, N, D))
    args = {"h0": rng.normal(size=(N, H)), "Wx": rng.normal(size=(D, H)) / 2,
            "Wh": rng.normal(size=(H, H)) / 2, "b": rng.normal(size=H)}
    G = rng.normal(size=(T, N, H))

    def loss(h0, Wx, Wh, b):
        h, total, caches = h0, 0.0, []
        for t in range(T):
            h, cache = layers.rnn_cell(xs[t], h, Wx, Wh, b)
            total += float(np.sum(G[t] * h))
            caches.append(cache)
        return total, caches

    _, caches = loss(**args)
    dh = np.zeros((N, H))
    grads = {k: np.zeros_like(v) for k, v in args.items()}
    for t in reversed(range(T)):
        _, dh, dWx, dWh, db = layers.rnn_cell_backward(dh + G[t], caches[t])
        grads["Wx"] += dWx
        grads["Wh"] += dWh
        grads["b"] += db
    grads["h0"] = dh

    def f_of(name):
        return lambda v: loss(**{**args, name: v})[0]
    _check_all(f_of, args, grads)


# ---------------------------------------------------------------- validation
def test_conv2d_validation():
    x, w, b = np.zeros((1, 2, 5, 5)), np.zeros((3, 2, 3, 3)), np.zeros(3)
    with pytest.raises(ValueError, match="x must be"):
        layers.conv2d(np.zeros((2, 5, 5)), w, b)
    with pytest.raises(ValueError, match="w must be"):
        layers.conv2d(x, np.zeros((3, 3, 3)), b)
    with pytest.raises(ValueError, match="channels"):
        layers.conv2d(x, np.zeros((3, 1, 3, 3)), b)
    with pytest.raises(ValueError, match="b must"):
        layers.conv2d(x, w, np.zeros(2))
    with pytest.raises(ValueError, match="w's kernel .* is larger than the padded input"):
        layers.conv2d(x, np.zeros((3, 2, 6, 6)), b)
    layers.conv2d(x, np.zeros((3, 2, 6, 6)), b, padding=1)  # fits once padded
    with pytest.raises(ValueError, match="stride"):
        layers.conv2d(x, w, b, stride=0)
    with pytest.raises(ValueError, match="padding"):
        layers.conv2d(x, w, b, padding=-1)
    with pytest.raises(ValueError, match="x must be finite"):
        layers.conv2d(np.full((1, 2, 5, 5), np.nan), w, b)
    _, cache = layers.conv2d(x, w, b)
    with pytest.raises(ValueError, match="dout"):
        layers.conv2d_backward(np.zeros((1, 3, 2, 2)), cache)


def test_pool_and_batch_norm_validation():
    x = np.arange(32.0).reshape(1, 2, 4, 4)
    with pytest.raises(ValueError, match="x must be"):
        layers.max_pool2d(np.zeros((4, 4)))
    with pytest.raises(ValueError, match="size"):
        layers.max_pool2d(x, 0)
    with pytest.raises(ValueError, match="stride"):
        layers.max_pool2d(x, 2, -1)
    with pytest.raises(ValueError, match="size must be at most min"):
        layers.max_pool2d(x, 5)
    _, cache = layers.max_pool2d(x)
    with pytest.raises(ValueError, match="dout"):
        layers.max_pool2d_backward(np.zeros((1, 2, 3, 3)), cache)
    with pytest.raises(ValueError, match="x must be"):
        layers.batch_norm(np.zeros(5), [1.0], [0.0])
    with pytest.raises(ValueError, match="gamma"):
        layers.batch_norm(np.zeros((4, 3)), np.ones(2), np.zeros(3))
    with pytest.raises(ValueError, match="beta"):
        layers.batch_norm(np.zeros((4, 3)), np.ones(3), np.zeros(4))
    with pytest.raises(ValueError, match="eps"):
        layers.batch_norm(np.zeros((4, 3)), np.ones(3), np.zeros(3), eps=0)
    with pytest.raises(ValueError, match="var"):
        layers.batch_norm_inference(np.zeros((4, 3)), np.ones(3), np.zeros(3), np.zeros(3), -np.ones(3))


def test_recurrent_validation():
    rng = np.random.default_rng(0)
    a = _rnn_args(rng, 2, 3, 4, 4)
    c = np.zeros((2, 4))
    with pytest.raises(ValueError, match="x must"):
        layers.lstm_cell(np.zeros(3), a["h_prev"], c, a["Wx"], a["Wh"], a["b"])
    with pytest.raises(ValueError, match="x must have 3 columns"):
        layers.lstm_cell(np.zeros((2, 5)), a["h_prev"], c, a["Wx"], a["Wh"], a["b"])
    with pytest.raises(ValueError, match="h_prev"):
        layers.lstm_cell(a["x"], np.zeros((3, 4)), c, a["Wx"], a["Wh"], a["b"])
    with pytest.raises(ValueError, match="c_prev"):
        layers.lstm_cell(a["x"], a["h_prev"], np.zeros((2, 3)), a["Wx"], a["Wh"], a["b"])
    with pytest.raises(ValueError, match="Wh"):
        layers.gru_cell(a["x"], a["h_prev"], a["Wx"][:, :12], a["Wh"], a["b"][:12])
    with pytest.raises(ValueError, match="Wx"):
        layers.rnn_cell(a["x"], a["h_prev"], a["Wx"], a["Wh"][:, :4], a["b"][:4])
    with pytest.raises(ValueError, match="b must"):
        layers.rnn_cell(a["x"], a["h_prev"], a["Wx"][:, :4], a["Wh"][:, :4], a["b"])
    h, cache = layers.rnn_cell(a["x"], a["h_prev"], a["Wx"][:, :4], a["Wh"][:, :4], a["b"][:4])
    with pytest.raises(ValueError, match="dh"):
        layers.rnn_cell_backward(np.zeros((2, 3)), cache)
    with pytest.raises(ValueError, match="W1"):
        layers.residual_block(a["x"], np.zeros((2, 4)), np.zeros(4), np.zeros((4, 3)), np.zeros(3))


def test_backward_passes_reject_a_cache_that_is_not_theirs():
    rng = np.random.default_rng(0)
    a = _rnn_args(rng, 2, 3, 4, 1)
    _, rnn_cache = layers.rnn_cell(**a)
    _, conv_cache = layers.conv2d(np.zeros((1, 2, 5, 5)), np.zeros((3, 2, 3, 3)), np.zeros(3))
    _, pool_cache = layers.max_pool2d(np.zeros((1, 2, 4, 4)))
    for backward, dout, other in [(layers.conv2d_backward, np.zeros((1, 3, 3, 3)), rnn_cache),
                                  (layers.max_pool2d_backward, np.zeros((1, 2, 2, 2)), conv_cache),
                                  (layers.batch_norm_backward, np.zeros((2, 4)), rnn_cache),
                                  (layers.residual_block_backward, np.zeros((2, 3)), pool_cache),
                                  (layers.rnn_cell_backward, np.zeros((2, 4)), conv_cache),
                                  (layers.gru_cell_backward, np.zeros((2, 4)), rnn_cache)]:
        for cache in (other, None, np.ones(3), "cache"):
            with pytest.raises(ValueError, match="cache must be the cache returned by"):
                backward(dout, cache)
    with pytest.raises(ValueError, match="cache must be the cache returned by lstm_cell"):
        layers.lstm_cell_backward(np.zeros((2, 4)), np.zeros((2, 4)), rnn_cache)


# ---------------------------------------------------------------- a whole CNN
def _cnn_by_loops(x, convs, fcs, pool_after, padding):
    """The same network with scipy.signal.correlate2d and explicit loops over every index."""
    a = x
    for (w, b), pool in zip(convs, pool_after):
        ap = np.pad(a, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
        out = np.array([[b[f] + sum(scipy.signal.correlate2d(ap[n, c], w[f, c], mode="valid")
                                    for c in range(a.shape[1])) for f in range(w.shape[0])]
                        for n in range(a.shape[0])])
        a = np.maximum(out, 0.0)
        if pool:
            N, C, Hh, Ww = a.shape
            a = np.array([[[[a[n, c, 2 * i:2 * i + 2, 2 * j:2 * j + 2].max() for j in range(Ww // 2)]
                            for i in range(Hh // 2)] for c in range(C)] for n in range(N)])
    h = a.reshape(a.shape[0], -1)
    for j, (W, b) in enumerate(fcs):
        h = h @ W + b
        if j < len(fcs) - 1:
            h = np.maximum(h, 0.0)
    return scipy.special.softmax(h, axis=1)


@pytest.mark.parametrize("padding,size,pools,seed", [(0, 12, (True, True), 0), (1, 9, (False, True), 1),
                                                     (1, 8, (True, True), 2)])
def test_cnn_forward_against_loops_and_the_size_formula(padding, size, pools, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, 2, size, size))
    convs = [(rng.standard_normal((4, 2, 3, 3)), rng.standard_normal(4)),
             (rng.standard_normal((5, 4, 3, 3)), rng.standard_normal(5))]
    side = size
    for pool in pools:
        side = (side + 2 * padding - 3) // 1 + 1
        side = side // 2 if pool else side
    fcs = [(rng.standard_normal((5 * side * side, 6)) / 3, rng.standard_normal(6)),
           (rng.standard_normal((6, 6)), rng.standard_normal(6)), (rng.standard_normal((6, 3)), rng.standard_normal(3))]
    probs, shapes = layers.cnn_forward(x, convs, fcs, list(pools), padding)
    np.testing.assert_allclose(probs, _cnn_by_loops(x, convs, fcs, pools, padding), rtol=1e-12, atol=1e-14)
    assert shapes[-2] == ("fc3", (3, 3)) and shapes[-1] == ("softmax", (3, 3))
    assert dict(shapes)["flatten"] == (3, 5 * side * side)


def test_cnn_param_count_against_the_arrays_and_vgg16():
    rng = np.random.default_rng(0)
    convs = [(rng.standard_normal((4, 3, 3, 3)), np.zeros(4)), (rng.standard_normal((6, 4, 3, 3)), np.zeros(6))]
    fcs = [(np.zeros((24, 10)), np.zeros(10)), (np.zeros((10, 5)), np.zeros(5))]
    assert layers.cnn_param_count([3, 4, 6], 3, [24, 10, 5]) == sum(p.size for pair in convs + fcs for p in pair)
    convs[1] = (rng.standard_normal((6, 4, 5, 5)), np.zeros(6))
    assert layers.cnn_param_count([3, 4, 6], [3, 5], [24, 10, 5]) == sum(p.size for pair in convs + fcs for p in pair)
    vgg = [3, 64, 64, 128, 128, 256, 256, 256, 512, 512, 512, 512, 512, 512]
    # torchvision.models.vgg16 and keras.applications.VGG16 both report 138,357,544 parameters
    assert layers.cnn_param_count(vgg, 3, [512 * 7 * 7, 4096, 4096, 1000]) == 138_357_544


def test_cnn_forward_names_the_layer_that_does_not_fit():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 1, 8, 8))
    conv = (rng.standard_normal((2, 1, 3, 3)), np.zeros(2))
    with pytest.raises(ValueError, match=r"convs\[1\]"):
        layers.cnn_forward(x, [conv, (np.ones((2, 3, 3, 3)), np.zeros(2))], [(np.ones((2, 2)), np.zeros(2))],
                           [True, True])
    with pytest.raises(ValueError, match=r"fcs\[0\]"):
        layers.cnn_forward(x, [conv], [(np.ones((5, 2)), np.zeros(2))], [True])
    with pytest.raises(ValueError, match="pool_after"):
        layers.cnn_forward(x, [conv], [(np.ones((18, 2)), np.zeros(2))], [1])
