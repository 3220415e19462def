"""One figure style for the whole book, plus the few plot helpers chapters share.

Call :func:`setup` once in the first code cell of a chapter. Figures get an opaque
white background, so they stay readable when the site is shown in dark mode.
"""
import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from mlnotes import _validate as check

__all__ = ["COLORS", "setup", "subplots", "confidence_ellipse", "decision_regions"]

#: Colour cycle of the book (colour-blind safe, after Okabe and Ito).
COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

_STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 110,
    "figure.facecolor": "white",
    "figure.edgecolor": "white",
    "savefig.facecolor": "white",
    "savefig.bbox": "tight",
    "axes.facecolor": "white",
    "axes.edgecolor": "#333333",
    "axes.grid": True,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "axes.prop_cycle": mpl.cycler(color=COLORS),
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.frameon": True,
    "legend.framealpha": 0.9,
    "legend.fontsize": 9,
    "lines.linewidth": 1.8,
    "font.size": 10,
    "image.cmap": "viridis",
}


def setup():
    """Apply the book's matplotlib style (opaque backgrounds, colour cycle, grid).

    Also selects PNG output for inline figures. Safe to call more than once.
    """
    mpl.rcParams.update(_STYLE)
    try:  # inside IPython: crisp PNGs with a white background
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")
    except ImportError:  # pragma: no cover - plain Python
        pass


def subplots(nrows=1, ncols=1, width=None, height=None, **kwargs):
    """``plt.subplots`` with a figure size that scales with the grid.

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes, each at least 1.
    width, height : float, optional
        Figure size in inches; by default 4.2 per column (at most 12.8) and 3.4 per row.
    **kwargs
        Passed to ``plt.subplots`` (e.g. ``sharex``, ``sharey``).

    Returns
    -------
    fig, axes
        As ``plt.subplots`` (``axes`` is a single Axes for a 1×1 grid).

    Raises
    ------
    ValueError
        If ``nrows`` or ``ncols`` is not a positive integer, or ``width`` or ``height`` is
        not a positive number.
    """
    nrows = check.count(nrows, "nrows")
    ncols = check.count(ncols, "ncols")
    width = min(4.2 * ncols, 12.8) if width is None else check.positive(width, "width")
    height = 3.4 * nrows if height is None else check.positive(height, "height")
    return plt.subplots(nrows, ncols, figsize=(width, height), layout="constrained", **kwargs)


def confidence_ellipse(ax, mean, cov, n_std=2.0, **kwargs):
    """Draw the ellipse ``{x : (x-mean)ᵀ cov⁻¹ (x-mean) = n_std²}`` on ``ax``.

    Parameters
    ----------
    ax : matplotlib Axes
    mean : array_like, shape (2,)
    cov : array_like, shape (2, 2)
        Symmetric positive definite.
    n_std : float
        Mahalanobis radius of the ellipse (positive).
    **kwargs
        Passed to ``ax.plot``.

    Returns
    -------
    list of Line2D

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, ``mean`` is not a finite vector of length 2, ``cov`` is
        not a symmetric positive definite 2×2 matrix, or ``n_std`` is not positive.
    """
    ax = check.instance_of(ax, Axes, "ax")
    mean = check.vector(mean, 2, "mean")
    cov, _ = check.spd(cov, 2, "cov")
    n_std = check.positive(n_std, "n_std")
    vals, vecs = np.linalg.eigh(cov)
    t = np.linspace(0, 2 * np.pi, 200)
    circle = np.stack([np.cos(t), np.sin(t)])
    pts = mean[:, None] + n_std * vecs @ (np.sqrt(vals)[:, None] * circle)
    return ax.plot(pts[0], pts[1], **kwargs)


def decision_regions(ax, score, X, y, resolution=200, levels=(0.0,), margin=0.5):
    """Shade the sign of ``score`` over the range of ``X`` and scatter the labelled points.

    Parameters
    ----------
    ax : matplotlib Axes
    score : callable
        Maps an ``(m, 2)`` array of points to ``m`` real scores; the boundary is the
        contour ``score = levels``.
    X : array_like, shape (n, 2)
    y : array_like, shape (n,)
        Class labels (any two values; each gets its own colour).
    resolution : int
        Grid points per axis (at least 2).
    levels : sequence of float
        Contour levels drawn as lines.
    margin : float
        Non-negative padding around the data range.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``ax`` is not an Axes, ``score`` is not callable or does not return ``m`` finite
        scores, ``X`` is not a finite array of shape (n, 2), ``y`` is not a finite numeric
        array of shape (n,) with at most as many classes as :data:`COLORS`, ``resolution``
        is not an integer >= 2, ``levels`` is not a finite sequence, or ``margin`` < 0.
    """
    ax = check.instance_of(ax, Axes, "ax")
    score = check.function(score, "score")
    X = check.matrix_with_columns(X, 2, "X")
    y = check.vector(y, X.shape[0], "y")
    if np.unique(y).size > len(COLORS):
        raise ValueError(f"y must have at most {len(COLORS)} classes, got {np.unique(y).size}")
    resolution = check.count(resolution, "resolution", low=2)
    levels = check.vector(levels, None, "levels")
    margin = check.nonnegative(margin, "margin")
    lo, hi = X.min(axis=0) - margin, X.max(axis=0) + margin
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    s = check.returned(score(np.column_stack([g0.ravel(), g1.ravel()])), "score", (g0.size,))
    s = s.reshape(g0.shape)
    ax.contourf(g0, g1, np.sign(s), levels=[-2, 0, 2], colors=[COLORS[0], COLORS[1]], alpha=0.12)
    ax.contour(g0, g1, s, levels=sorted(levels), colors="k", linewidths=1.2)
    for k, label in enumerate(np.unique(y)):
        pts = X[y == label]
        ax.scatter(pts[:, 0], pts[:, 1], s=14, color=COLORS[k], label=f"y = {label}", edgecolor="white", linewidth=0.4)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
