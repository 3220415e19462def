import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

from mlnotes import plotting


def test_setup_gives_opaque_figures():
    plotting.setup()
    assert matplotlib.colors.to_rgba(matplotlib.rcParams["figure.facecolor"])[3] == 1
    assert matplotlib.colors.to_rgba(matplotlib.rcParams["savefig.facecolor"])[3] == 1
    assert matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][:2] == plotting.COLORS[:2]


def test_subplots_scales_with_grid():
    fig, axes = plotting.subplots(2, 3)
    assert axes.shape == (2, 3)
    w, h = fig.get_size_inches()
    assert w == pytest.approx(12.6) and h == pytest.approx(6.8)
    plt.close(fig)
    with pytest.raises(ValueError, match="nrows"):
        plotting.subplots(0, 1)


def test_confidence_ellipse_is_on_the_mahalanobis_contour():
    fig, ax = plotting.subplots()
    mean, cov = np.array([1.0, -2.0]), np.array([[2.0, 0.6], [0.6, 0.5]])
    (line,) = plotting.confidence_ellipse(ax, mean, cov, n_std=1.5)
    pts = np.column_stack(line.get_data()) - mean
    d2 = np.einsum("ij,jk,ik->i", pts, np.linalg.inv(cov), pts)
    np.testing.assert_allclose(d2, 1.5 ** 2)
    for bad, match in [((mean, np.eye(3)), "cov"), ((mean, -np.eye(2)), "positive definite"),
                       (([0, 0, 0], cov), "mean")]:
        with pytest.raises(ValueError, match=match):
            plotting.confidence_ellipse(ax, *bad)
    plt.close(fig)


def test_decision_regions_validates_and_draws():
    fig, ax = plotting.subplots()
    X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]])
    y = np.array([-1, 1, 1])
    plotting.decision_regions(ax, lambda P: P.sum(axis=1) - 0.5, X, y)
    assert len(ax.collections) >= 3
    with pytest.raises(ValueError, match="X must have 2 columns"):
        plotting.decision_regions(ax, lambda P: P[:, 0], X[:, :1], y)
    with pytest.raises(ValueError, match="y must have shape"):
        plotting.decision_regions(ax, lambda P: P[:, 0], X, y[:2])
    plt.close(fig)


def test_bad_plot_arguments_are_named_before_matplotlib_sees_them():
    fig, ax = plotting.subplots()
    X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]])
    y = np.array([-1, 1, 1])
    score = lambda P: P.sum(axis=1) - 0.5  # noqa: E731
    for call, match in [
        (lambda: plotting.subplots(True, 1), "nrows"),
        (lambda: plotting.subplots(1, "2"), "ncols"),
        (lambda: plotting.subplots(width="wide"), "width"),
        (lambda: plotting.confidence_ellipse("ax", [0, 0], np.eye(2)), "ax must be an Axes"),
        (lambda: plotting.confidence_ellipse(ax, [0, 0], "abc"), "cov"),
        (lambda: plotting.confidence_ellipse(ax, [0, 0], np.eye(2), n_std="2"), "n_std"),
        (lambda: plotting.decision_regions(None, score, X, y), "ax"),
        (lambda: plotting.decision_regions(ax, "score", X, y), "score must be callable"),
        (lambda: plotting.decision_regions(ax, lambda P: "abc", X, y), "the value returned by score"),
        (lambda: plotting.decision_regions(ax, lambda P: P, X, y), "score must return an array of shape"),
        (lambda: plotting.decision_regions(ax, score, [[0.0, 1.0], [1.0]], y), "X must be a rectangular"),
        (lambda: plotting.decision_regions(ax, score, X, ["a", "b", "c"]), "y must be numeric"),
        (lambda: plotting.decision_regions(ax, score, X, y, resolution=1), "resolution"),
        (lambda: plotting.decision_regions(ax, score, X, y, levels="0"), "levels"),
        (lambda: plotting.decision_regions(ax, score, X, y, margin=-1.0), "margin"),
    ]:
        with pytest.raises(ValueError, match=match):
            call()
    plt.close("all")
