import numpy as np

from mlnotes import layers

_R = np.random.default_rng(0)
_IMG, _FILT, _FB = _R.standard_normal((2, 2, 5, 5)), _R.standard_normal((3, 2, 3, 3)), _R.standard_normal(3)
_BN = _R.standard_normal((6, 3))
_G, _BETA, _MEAN, _VAR = np.ones(3), np.zeros(3), np.zeros(3), np.ones(3)
N, D, H = 2, 3, 4
_XR, _H0, _C0 = _R.standard_normal((N, D)), _R.standard_normal((N, H)), _R.standard_normal((N, H))


def _cell(k):
    return dict(Wx=_R.standard_normal((D, k * H)), Wh=_R.standard_normal((H, k * H)), b=_R.standard_normal(k * H))


_RNN, _LSTM, _GRU = _cell(1), _cell(4), _cell(3)
_RES = dict(x=_R.standard_normal((N, D)), W1=_R.standard_normal((D, 5)), b1=np.zeros(5),
            W2=_R.standard_normal((5, D)), b2=np.zeros(D))


def _conv():
    return dict(x=_IMG, w=_FILT, b=_FB, stride=1, padding=1)


SPECS = {
    "conv_output_size": (lambda: dict(n=5, k=3, stride=1, padding=1),
                         {"n": "count", "k": "count", "stride": "count", "padding": "count"}),
    "conv2d": (_conv, {"x": "array", "w": "array", "b": "array", "stride": "count", "padding": "count"}),
    "conv2d_backward": (lambda: dict(dout=np.ones((2, 3, 5, 5)), cache=layers.conv2d(**_conv())[1]),
                        {"dout": "array", "cache": "object"}),
    "max_pool2d": (lambda: dict(x=_IMG, size=2, stride=1), {"x": "array", "size": "count", "stride": "count?"}),
    "max_pool2d_backward": (lambda: dict(dout=np.ones((2, 2, 4, 4)), cache=layers.max_pool2d(_IMG, 2, 1)[1]),
                            {"dout": "array", "cache": "object"}),
    "batch_norm": (lambda: dict(x=_BN, gamma=_G, beta=_BETA, eps=1e-5),
                   {"x": "array", "gamma": "array", "beta": "array", "eps": "positive"}),
    "batch_norm_backward": (lambda: dict(dout=np.ones((6, 3)), cache=layers.batch_norm(_BN, _G, _BETA)[1]),
                            {"dout": "array", "cache": "object"}),
    "batch_norm_inference": (lambda: dict(x=_BN, gamma=_G, beta=_BETA, mean=_MEAN, var=_VAR, eps=1e-5),
                             {"x": "array", "gamma": "array", "beta": "array", "mean": "array", "var": "array",
                              "eps": "positive"}),
    "residual_block": (lambda: dict(_RES), {k: "array" for k in _RES}),
    "residual_block_backward": (lambda: dict(dout=np.ones((N, D)), cache=layers.residual_block(**_RES)[1]),
                                {"dout": "array", "cache": "object"}),
    "rnn_cell": (lambda: dict(x=_XR, h_prev=_H0, **_RNN), {k: "array" for k in ("x", "h_prev", "Wx", "Wh", "b")}),
    "rnn_cell_backward": (lambda: dict(dh=np.ones((N, H)), cache=layers.rnn_cell(_XR, _H0, **_RNN)[1]),
                          {"dh": "array", "cache": "object"}),
    "lstm_cell": (lambda: dict(x=_XR, h_prev=_H0, c_prev=_C0, **_LSTM),
                  {k: "array" for k in ("x", "h_prev", "c_prev", "Wx", "Wh", "b")}),
    "lstm_cell_backward": (lambda: dict(dh=np.ones((N, H)), dc=np.ones((N, H)),
                                        cache=layers.lstm_cell(_XR, _H0, _C0, **_LSTM)[1]),
                           {"dh": "array", "dc": "array", "cache": "object"}),
    "gru_cell": (lambda: dict(x=_XR, h_prev=_H0, **_GRU), {k: "array" for k in ("x", "h_prev", "Wx", "Wh", "b")}),
    "gru_cell_backward": (lambda: dict(dh=np.ones((N, H)), cache=layers.gru_cell(_XR, _H0, **_GRU)[1]),
                          {"dh": "array", "cache": "object"}),
}
_CNN_X = _R.standard_normal((2, 1, 10, 10))
_CNN_CONVS = [(_R.standard_normal((2, 1, 3, 3)), np.zeros(2)), (_R.standard_normal((3, 2, 3, 3)), np.zeros(3))]
_CNN_FCS = [(_R.standard_normal((3, 4)), np.zeros(4)), (_R.standard_normal((4, 2)), np.zeros(2))]


def _cnn(**change):
    return lambda: {**dict(x=_CNN_X, convs=_CNN_CONVS, fcs=_CNN_FCS, pool_after=[True, True], padding=0), **change}


SPECS["cnn_forward"] = (_cnn(), {"x": "array", "convs": "object", "fcs": "object", "pool_after": "object",
                                 "padding": "count"})
SPECS["cnn_param_count"] = (lambda: dict(channels=[3, 8, 16], kernel=3, fc_sizes=[64, 10]),
                            {"channels": "object", "kernel": "count", "fc_sizes": "object"})
EXEMPT = {}
CASES = {
    "one pool flag short": ("cnn_forward", _cnn(pool_after=[True]), "pool_after"),
    "a conv layer with the wrong input channels":
        ("cnn_forward", _cnn(convs=[_CNN_CONVS[0], (np.ones((3, 1, 3, 3)), np.zeros(3))]), "convs"),
    "the first dense layer does not fit the flattened maps":
        ("cnn_forward", _cnn(fcs=[(np.ones((5, 4)), np.zeros(4)), _CNN_FCS[1]]), "fcs"),
    "a dense bias of the wrong length": ("cnn_forward", _cnn(fcs=[_CNN_FCS[0], (np.ones((4, 2)), np.zeros(3))]), "fcs"),
    "a kernel larger than the pooled map":
        ("cnn_forward", _cnn(convs=[_CNN_CONVS[0], (np.ones((3, 2, 5, 5)), np.zeros(3))]), "convs"),
    "activations that overflow": ("cnn_forward", _cnn(x=np.abs(_CNN_X) * 1e300 + 1e300,
                                                      convs=[(np.full((2, 1, 3, 3), 1e10), np.zeros(2)), _CNN_CONVS[1]]), "x"),
    "a zero channel count": ("cnn_param_count", lambda: dict(channels=[3, 0], kernel=3, fc_sizes=[4, 2]), "channels"),
    "one kernel size per conv layer, one short": ("cnn_param_count",
                                                  lambda: dict(channels=[3, 4, 5], kernel=[3], fc_sizes=[4, 2]), "kernel"),
    "a single dense size": ("cnn_param_count", lambda: dict(channels=[3, 4], kernel=3, fc_sizes=[4]), "fc_sizes"),
}
