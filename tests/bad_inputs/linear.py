import numpy as np

from mlnotes import linear

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((20, 2))
_D = linear.add_intercept(_X)
_y = _D @ np.array([0.5, 1.0, -2.0]) + 0.3 * _rng.standard_normal(20)
_y01 = np.array([0, 1] * 10)
_X[_y01 == 1] += 0.7                      # overlapping classes: the logistic MLE exists
_D = linear.add_intercept(_X)
_ypm = 2 * _y01 - 1
_B = (_rng.random((20, 3)) < 0.5).astype(float)
_B[:2] = [[0, 0, 0], [1, 1, 1]]
_r = np.array([-2.0, -0.3, 0.0, 0.4, 3.0])
_M = {"m": "array"}
_gda = lambda: linear.gda_fit(_X, _y01)  # noqa: E731
_nb = lambda: linear.naive_bayes_fit(_B, _y01)  # noqa: E731

SPECS = {
    "add_intercept": (lambda: dict(X=_X), {"X": "array"}),
    "least_squares": (lambda: dict(X=_D, y=_y), {"X": "array", "y": "array"}),
    "hat_matrix": (lambda: dict(X=_D), {"X": "array"}),
    "ols_covariance": (lambda: dict(X=_D, sigma=0.5), {"X": "array", "sigma": "positive"}),
    "sigmoid": (lambda: dict(z=np.array([-800.0, -1.0, 0.0, 2.0, np.inf])), {"z": "extended"}),
    "logit": (lambda: dict(p=np.array([0.0, 0.25, 0.5, 1.0])), {"p": "array"}),
    "log_likelihood": (lambda: dict(X=_D, y=_y01, beta=np.array([0.1, -0.2, 0.3])),
                       {"X": "array", "y": "array", "beta": "array"}),
    "logistic_regression": (lambda: dict(X=_D, y=_y01, method="gradient", step=0.01, tol=1e-4, max_iter=50),
                            {"X": "array", "y": "array", "method": "choice", "step": "positive?",
                             "tol": "positive", "max_iter": "count?"}),
    "perceptron": (lambda: dict(X=_D, y=_ypm, max_epochs=5), {"X": "array", "y": "array", "max_epochs": "count"}),
    "squared_loss": (lambda: dict(r=_r), {"r": "array"}),
    "absolute_loss": (lambda: dict(r=_r), {"r": "array"}),
    "huber_loss": (lambda: dict(r=_r, delta=1.0), {"r": "array", "delta": "positive"}),
    "zero_one_loss": (lambda: dict(m=_r), _M),
    "logistic_loss": (lambda: dict(m=_r), _M),
    "exponential_loss": (lambda: dict(m=_r), _M),
    "hinge_loss": (lambda: dict(m=_r), _M),
    "huber_regression": (lambda: dict(X=_D, y=_y, delta=1.0, tol=1e-8, max_iter=50),
                         {"X": "array", "y": "array", "delta": "positive", "tol": "positive",
                          "max_iter": "count"}),
    "locally_weighted_regression": (lambda: dict(X=_D, y=_y, X_query=_D[:5], tau=1.0),
                                    {"X": "array", "y": "array", "X_query": "array", "tau": "positive"}),
    "scatter_matrices": (lambda: dict(X=_X, y=_ypm), {"X": "array", "y": "array"}),
    "fisher_ratio": (lambda: dict(X=_X, y=_y01, beta=np.array([1.0, 0.5])),
                     {"X": "array", "y": "array", "beta": "array"}),
    "lda_direction": (lambda: dict(X=_X, y=_y01), {"X": "array", "y": "array"}),
    "gda_fit": (lambda: dict(X=_X, y=_y01), {"X": "array", "y": "array"}),
    "gda_coefficients": (lambda: dict(fit=_gda()), {"fit": "object"}),
    "gda_predict_proba": (lambda: dict(fit=_gda(), X=_X[:4]), {"fit": "object", "X": "array"}),
    "naive_bayes_fit": (lambda: dict(X=_B, y=_y01, alpha=1.0), {"X": "array", "y": "array", "alpha": "positive"}),
    "naive_bayes_coefficients": (lambda: dict(fit=_nb()), {"fit": "object"}),
    "naive_bayes_predict_proba": (lambda: dict(fit=_nb(), X=_B[:4]), {"fit": "object", "X": "array"}),
}
EXEMPT = {}
