import matplotlib.pyplot as plt
import numpy as np


def _ax():
    plt.close("all")              # each call draws on a fresh figure; none are left open
    return plt.figure().add_subplot()


_X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.2, 0.9]])
_y = np.array([-1, 1, 1, -1])

SPECS = {
    "subplots": (lambda: (plt.close("all"), dict(nrows=1, ncols=2, width=4.0, height=2.0))[1],
                 {"nrows": "count", "ncols": "count", "width": "positive?", "height": "positive?"}),
    "confidence_ellipse": (lambda: dict(ax=_ax(), mean=np.array([1.0, -2.0]),
                                        cov=np.array([[2.0, 0.6], [0.6, 0.5]]), n_std=1.5),
                           {"ax": "object", "mean": "array", "cov": "array", "n_std": "positive"}),
    "decision_regions": (lambda: dict(ax=_ax(), score=lambda P: P.sum(axis=1) - 1.0, X=_X, y=_y,
                                      resolution=20, levels=(0.0,), margin=0.5),
                         {"ax": "object", "score": "callable", "X": "array", "y": "array",
                          "resolution": "count", "levels": "array", "margin": "nonnegative"}),
}
EXEMPT = {"setup": "takes no arguments: it only applies the book's matplotlib style"}
