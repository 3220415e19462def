"""Benchmark cases: each ``mlnotes`` function against the library a reader would use instead.

Every case builds seeded data for a size ``n`` (``setup``), runs the from-scratch
implementation (``ours``) and the reference (``ref``) on the same problem, and checks that
the two answers agree (``agree``) with tolerances that reflect how each is computed: exact
linear algebra to about 1e-8, iterative solvers to their stopping rules. ``bench/run.py``
times ``ours`` and ``ref`` at the three ``sizes`` of every case.

The problems are matched as the unit tests match them (``tests/test_<module>.py``): the same
initial centres and number of iterations, the same penalty in each library's
parametrisation (the lasso's ``alpha = lam / n``), the same kernel passed as a precomputed
Gram matrix, the same stopping tolerance.
"""
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import scipy.stats
from sklearn.cluster import KMeans
from sklearn.datasets import load_digits
from sklearn.decomposition import PCA, FactorAnalysis
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import lasso_path as sk_lasso_path
from sklearn.manifold import TSNE, trustworthiness
from sklearn.mixture import GaussianMixture
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from mlnotes import (bayes, categorical, clustering, describe, embedding, kernels, latent, svm,
                     trees)

__all__ = ["Case", "CASES"]


@dataclass(frozen=True)
class Case:
    name: str                      # short, e.g. "k-means (Lloyd)"
    ours_name: str                 # e.g. "mlnotes.clustering.kmeans"
    ref_name: str                  # e.g. "sklearn.cluster.KMeans(algorithm='lloyd', n_init=1)"
    size_label: str                # what n is, e.g. "n points, d = 10, k = 5"
    sizes: tuple                   # three ints growing ~4x, e.g. (1000, 4000, 16000)
    setup: Callable[[int], Any]    # seeded data for size n (np.random.default_rng(fixed seed))
    ours: Callable[[Any], Any]     # run the mlnotes implementation on the data
    ref: Callable[[Any], Any]      # run the reference on the same data
    agree: Callable[[Any, Any], bool]  # True when the two results agree (honest tolerances)
    note: str = ""                 # algorithmic differences a reader should know (one sentence)


def _close(a, b, rtol=1e-7, atol=0.0):
    """``np.allclose`` that also insists on equal shapes (no silent broadcasting)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol))


def _quiet(fn):
    """Run ``fn()`` with scikit-learn's ConvergenceWarning silenced (fixed iteration counts)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fn()


def _float32_exact(a):
    """Round to float32 and back: scikit-learn's trees see exactly the values mlnotes sees."""
    return np.asarray(a, dtype=np.float32).astype(np.float64)


# ------------------------------------------------------------------------------ k-means
KM_K, KM_D = 5, 10


def _kmeans_setup(n):
    rng = np.random.default_rng(0)
    centres = 3.0 * rng.standard_normal((KM_K, KM_D))
    X = centres[rng.integers(0, KM_K, n)] + 2.0 * rng.standard_normal((n, KM_D))
    return {"X": X, "init": X[rng.choice(n, KM_K, replace=False)]}


def _kmeans_ref(D):
    model = KMeans(n_clusters=KM_K, init=D["init"], n_init=1, algorithm="lloyd", tol=0, max_iter=300)
    return _quiet(lambda: model.fit(D["X"]))


def _kmeans_agree(ours, ref):
    scale = np.abs(ref.cluster_centers_).max()
    return (ours.n_iter == ref.n_iter_
            and np.array_equal(ours.labels, ref.labels_)
            and _close(ours.centres, ref.cluster_centers_, rtol=0, atol=1e-9 * scale)
            and abs(ours.inertia - ref.inertia_) <= 1e-9 * ref.inertia_)


KMEANS = Case(
    name="k-means (Lloyd)",
    ours_name="mlnotes.clustering.kmeans",
    ref_name="sklearn.cluster.KMeans(algorithm='lloyd', n_init=1, tol=0)",
    size_label=f"n points, d = {KM_D}, k = {KM_K}, same initial centres",
    sizes=(4000, 16000, 64000),
    setup=_kmeans_setup,
    ours=lambda D: clustering.kmeans(D["X"], D["init"], max_iter=300),
    ref=_kmeans_ref,
    agree=_kmeans_agree,
    note="Both run Lloyd's rounds until the assignment repeats. scikit-learn's rounds are "
         "multithreaded Cython over chunks of points, with distances from one matrix product "
         "(‖x‖² − 2xᵀc + ‖c‖², norms computed once) and the objective read off the distances; "
         "ours makes one pass over the data per centre and recomputes the objective exactly "
         "twice per round, for the record of J that the chapter shows never increases. What it "
         "would take: precompute the centred data and its norms, take the distances from a "
         "matrix product and J after the update as J − Σⱼ Nⱼ‖μⱼ' − μⱼ‖² (a prototype reached "
         "2.6×), at the price of rounding-level differences in the record of J.",
)


# --------------------------------------------------------------------- Gaussian mixture
GMM_K, GMM_D, GMM_ITER = 4, 5, 20


def _gmm_setup(n):
    rng = np.random.default_rng(1)
    means = 2.5 * rng.standard_normal((GMM_K, GMM_D))
    A = rng.standard_normal((GMM_K, GMM_D, GMM_D)) / np.sqrt(GMM_D)
    covs = A @ np.swapaxes(A, 1, 2) + 0.5 * np.eye(GMM_D)
    z = rng.integers(0, GMM_K, n)
    X = means[z] + np.einsum("nij,nj->ni", np.linalg.cholesky(covs)[z], rng.standard_normal((n, GMM_D)))
    init = X[rng.choice(n, GMM_K, replace=False)]
    cov0 = np.repeat(np.cov(X.T, bias=True)[None], GMM_K, axis=0)
    return {"X": X, "means": init, "covs": cov0, "weights": rng.dirichlet(np.full(GMM_K, 5.0))}


def _gmm_ref(D):
    model = GaussianMixture(n_components=GMM_K, covariance_type="full", weights_init=D["weights"],
                            means_init=D["means"], precisions_init=np.linalg.inv(D["covs"]),
                            reg_covar=0, tol=1e-300, max_iter=GMM_ITER)
    return _quiet(lambda: model.fit(D["X"]))


def _gmm_agree(ours, ref):
    n = ours.resp.shape[0]
    scale = np.abs(ref.covariances_).max()
    # scikit-learn's lower bounds are the mean log-likelihoods before each M-step
    return (ours.n_iter == ref.n_iter_ == GMM_ITER
            and _close(ours.log_likelihood[:-1] / n, ref.lower_bounds_, rtol=0, atol=1e-8)
            and _close(ours.weights, ref.weights_, rtol=0, atol=1e-8)
            and _close(ours.means, ref.means_, rtol=0, atol=1e-7 * np.abs(ref.means_).max())
            and _close(ours.covs, ref.covariances_, rtol=0, atol=1e-7 * scale))


GMM = Case(
    name="Gaussian mixture (EM)",
    ours_name="mlnotes.clustering.gmm_em",
    ref_name=f"sklearn.mixture.GaussianMixture(reg_covar=0, tol=1e-300, max_iter={GMM_ITER})",
    size_label=f"n points, d = {GMM_D}, k = {GMM_K}, {GMM_ITER} EM steps from the same start",
    sizes=(1000, 4000, 16000),
    setup=_gmm_setup,
    ours=lambda D: clustering.gmm_em(D["X"], D["means"], D["covs"], D["weights"], max_iter=GMM_ITER),
    ref=_gmm_ref,
    agree=_gmm_agree,
    note="The same EM steps; scikit-learn works with Cholesky factors of the precisions, "
         "ours inverts the covariances and contracts the (k, n, d) differences with einsum.",
)


# ----------------------------------------------------------- PCA, PPCA, factor analysis
LAT_D, LAT_Q = 50, 5


def _latent_setup(n, seed=2):
    """Draws from a factor model with heteroscedastic noise and a non-zero mean."""
    rng = np.random.default_rng(seed)
    W = 2.0 * rng.standard_normal((LAT_D, LAT_Q))
    psi = rng.uniform(0.2, 1.5, LAT_D)
    Z = rng.standard_normal((n, LAT_Q))
    return {"X": Z @ W.T + rng.standard_normal((n, LAT_D)) * np.sqrt(psi) + rng.standard_normal(LAT_D)}


def _pca_agree(ours, ref):
    n = ref.n_samples_
    cosines = np.abs(np.sum(ours.components * ref.components_, axis=1))   # directions up to sign
    return (ours.components.shape == ref.components_.shape
            and _close(cosines, np.ones(LAT_Q), rtol=0, atol=1e-8)
            and _close(ours.explained_variance * n / (n - 1), ref.explained_variance_, rtol=1e-9)
            and _close(ours.mean, ref.mean_, rtol=0, atol=1e-12 * np.abs(ref.mean_).max()))


PCA_CASE = Case(
    name="PCA",
    ours_name="mlnotes.latent.pca",
    ref_name="sklearn.decomposition.PCA(svd_solver='covariance_eigh')",
    size_label=f"n points, d = {LAT_D}, q = {LAT_Q}",
    sizes=(5000, 20000, 80000),
    setup=_latent_setup,
    ours=lambda D: latent.pca(D["X"], LAT_Q),
    ref=lambda D: PCA(n_components=LAT_Q, svd_solver="covariance_eigh").fit(D["X"]),
    agree=_pca_agree,
    note="Both diagonalise the d × d sample covariance (the solver scikit-learn's 'auto' picks "
         "when n ≥ 10 d); scikit-learn's covariance divides by n − 1, ours by n.",
)


def _ppca_ref(D):
    model = PCA(n_components=LAT_Q, svd_solver="covariance_eigh").fit(D["X"])
    return {"n": model.n_samples_, "sigma2": model.noise_variance_, "cov": model.get_covariance(),
            "loglik": model.score(D["X"])}


def _ppca_agree(ours, ref):
    n, d = ref["n"], ours.W.shape[0]
    c = n / (n - 1)              # scikit-learn's covariance is c times the maximum-likelihood one
    # the average log-likelihood at c C falls short of the maximum by (d/2)(log c + 1/c - 1)
    shortfall = 0.5 * d * (np.log(c) + 1 / c - 1)
    return (abs(ours.sigma2 * c - ref["sigma2"]) <= 1e-9 * ref["sigma2"]
            and _close(ours.covariance * c, ref["cov"], rtol=0, atol=1e-9 * np.abs(ref["cov"]).max())
            and abs((ours.loglik - ref["loglik"]) - shortfall) <= 1e-9 * abs(ref["loglik"]))


PPCA = Case(
    name="Probabilistic PCA",
    ours_name="mlnotes.latent.ppca_ml",
    ref_name="sklearn.decomposition.PCA(svd_solver='covariance_eigh') + get_covariance() + score(X)",
    size_label=f"n points, d = {LAT_D}, q = {LAT_Q}; fit, model covariance and log-likelihood",
    sizes=(5000, 20000, 80000),
    setup=_latent_setup,
    ours=lambda D: latent.ppca_ml(D["X"], LAT_Q),
    ref=_ppca_ref,
    agree=_ppca_agree,
    note="The closed-form Tipping-Bishop fit from one eigendecomposition in both; scikit-learn's "
         "noise variance and covariance carry the factor n/(n − 1) of its divisor.",
)

FA_Q, FA_TOL, FA_MAX_ITER = 5, 1e-10, 20_000   # FA_TOL on the mean log-likelihood per point


def _fa_ref(D):
    n = D["X"].shape[0]
    # scikit-learn's tol applies to the total log-likelihood, ours to the mean: tol * n
    model = FactorAnalysis(n_components=FA_Q, tol=FA_TOL * n, max_iter=FA_MAX_ITER, svd_method="lapack")
    return {"n": n, "model": _quiet(lambda: model.fit(D["X"]))}


def _fa_agree(ours, ref):
    model = ref["model"]
    cov_ref = model.get_covariance()
    return (ours.converged and model.n_iter_ < FA_MAX_ITER
            and abs(ours.history[-1] - model.loglike_[-1] / ref["n"]) <= 1e-7
            and _close(ours.covariance, cov_ref, rtol=0, atol=1e-3 * np.abs(cov_ref).max()))


FACTOR_ANALYSIS = Case(
    name="Factor analysis (EM)",
    ours_name="mlnotes.latent.factor_analysis_em",
    ref_name="sklearn.decomposition.FactorAnalysis(svd_method='lapack')",
    size_label=f"n points, d = {LAT_D}, q = {FA_Q}, run until the mean log-likelihood gains < {FA_TOL:g}",
    sizes=(1000, 4000, 16000),
    setup=lambda n: _latent_setup(n, seed=3),
    ours=lambda D: latent.factor_analysis_em(D["X"], FA_Q, tol=FA_TOL, max_iter=FA_MAX_ITER),
    ref=_fa_ref,
    agree=_fa_agree,
    note="Different iterations to the same maximum: ours is Rubin and Thayer's EM on the d × d "
         "sample covariance (independent of n after one pass), scikit-learn's takes an SVD of the "
         "rescaled n × d data at every step; the fitted covariances W Wᵀ + Ψ are compared.",
)


# ------------------------------------------------------------------------------ lasso
LASSO_P, LASSO_LAMS, LASSO_EPS, LASSO_TOL = 100, 30, 1e-2, 1e-10


def _lasso_setup(n):
    """Correlated Gaussian features (corr 0.5^|i-j|), five non-zero coefficients, unit noise."""
    rng = np.random.default_rng(4)
    idx = np.arange(LASSO_P)
    C = 0.5 ** np.abs(np.subtract.outer(idx, idx))
    X = rng.standard_normal((n, LASSO_P)) @ np.linalg.cholesky(C).T
    beta = np.zeros(LASSO_P)
    beta[:5] = [3.0, -2.0, 1.5, 1.0, -0.5]
    y = X @ beta + rng.standard_normal(n)
    lam_max = np.max(np.abs(X.T @ y))
    return {"X": X, "y": y, "lams": lam_max * np.geomspace(1.0, LASSO_EPS, LASSO_LAMS)}


def _lasso_ref(D):
    n = D["X"].shape[0]
    # tol = 1e-10 on scikit-learn's duality gap gives the accuracy of ours with tol = 1e-10 on
    # the coordinate moves (both about 1e-10 from a solution to tol = 1e-15)
    alphas, coefs, _ = _quiet(lambda: sk_lasso_path(D["X"], D["y"], alphas=D["lams"] / n, tol=LASSO_TOL,
                                                    max_iter=100_000))
    return {"n": n, "alphas": alphas, "coefs": coefs}


def _lasso_agree(ours, ref):
    scale = 1.0 + np.abs(ref["coefs"]).max()
    return (ours.converged
            and _close(ref["alphas"] * ref["n"], ours.lams, rtol=1e-12)
            and _close(ours.coefs, ref["coefs"], rtol=0, atol=1e-8 * scale))


LASSO_PATH = Case(
    name="Lasso path (coordinate descent)",
    ours_name="mlnotes.bayes.lasso_path",
    ref_name="sklearn.linear_model.lasso_path(alphas=lams / n)",
    size_label=f"n points, p = {LASSO_P}, {LASSO_LAMS} penalties, warm starts",
    sizes=(1000, 4000, 16000),
    setup=_lasso_setup,
    ours=lambda D: bayes.lasso_path(D["X"], D["y"], lams=D["lams"], tol=LASSO_TOL),
    ref=_lasso_ref,
    agree=_lasso_agree,
    note="Both are cyclic coordinate descent with warm starts, but ours updates one coordinate "
         "per Python iteration with an O(n) residual update (the loop is over the p features, "
         "inherent to coordinate descent, not over data points), while scikit-learn runs the "
         "loop in Cython on the precomputed Gram matrix XᵀX (O(p) per update) and screens out "
         "coordinates that the duality gap proves to be zero. What it would take: keep "
         "g = Xᵀy − XᵀXβ instead of the residual, so that an update costs O(p), and after each "
         "full sweep sweep only the non-zero coordinates until they settle (a prototype "
         "reached 1.4×); the chapter's code would then no longer read as the update of its "
         "derivation.",
)


# ------------------------------------------------------------------------ kernel ridge
KR_D, KR_LAM = 5, 0.1


def _kr_setup(n):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((n, KR_D))
    y = np.sin(X[:, 0]) + X[:, 1] ** 2 / 2 + 0.3 * rng.standard_normal(n)
    return {"K": kernels.rbf_kernel(X, gamma=1.0 / KR_D), "y": y}


KERNEL_RIDGE = Case(
    name="Kernel ridge regression",
    ours_name="mlnotes.kernels.kernel_ridge",
    ref_name=f"sklearn.kernel_ridge.KernelRidge(alpha={KR_LAM}, kernel='precomputed')",
    size_label=f"n points, RBF Gram matrix precomputed, d = {KR_D}",
    sizes=(150, 600, 2400),
    setup=_kr_setup,
    ours=lambda D: kernels.kernel_ridge(D["K"], D["y"], KR_LAM),
    ref=lambda D: KernelRidge(alpha=KR_LAM, kernel="precomputed").fit(D["K"], D["y"]),
    agree=lambda ours, ref: _close(ours, ref.dual_coef_, rtol=1e-9,
                                   atol=1e-12 * np.abs(ref.dual_coef_).max()),
    note="Ours first checks that K is symmetric (twice) and positive semi-definite by a full "
         "eigendecomposition, then solves K + λI by LU; scikit-learn solves it by Cholesky and "
         "checks only that K is finite. A Cholesky-based check and solve would bring it to "
         "about 1.6×.",
)


# ------------------------------------------------------------------- Gaussian process
GP_D, GP_M, GP_SIGMA, GP_ELL, GP_TAU = 3, 500, 0.3, 0.8, 1.4


def _gp_setup(n):
    rng = np.random.default_rng(6)
    X = rng.uniform(-2, 2, (n, GP_D))
    y = np.sin(2 * X).sum(axis=1) + GP_SIGMA * rng.standard_normal(n)
    return {"X": X, "y": y, "X0": rng.uniform(-2.5, 2.5, (GP_M, GP_D))}


def _gp_ref(D):
    kernel = ConstantKernel(GP_TAU**2) * RBF(GP_ELL)
    gpr = GaussianProcessRegressor(kernel=kernel, alpha=GP_SIGMA**2, optimizer=None).fit(D["X"], D["y"])
    return gpr.predict(D["X0"], return_std=True)


def _gp_agree(ours, ref):
    (mean, var), (mean_ref, std_ref) = ours, ref
    return (_close(mean, mean_ref, rtol=0, atol=1e-9 * np.abs(mean_ref).max())
            and _close(np.sqrt(var), std_ref, rtol=0, atol=1e-9))


GP = Case(
    name="Gaussian-process posterior",
    ours_name="mlnotes.bayes.gp_posterior",
    ref_name=("sklearn.gaussian_process.GaussianProcessRegressor(optimizer=None) fit "
              "+ predict(return_std=True)"),
    size_label=f"n training points, d = {GP_D}, {GP_M} test points, fixed squared-exponential kernel",
    sizes=(150, 600, 2400),
    setup=_gp_setup,
    ours=lambda D: bayes.gp_posterior(D["X"], D["y"], D["X0"], GP_SIGMA, GP_ELL, GP_TAU),
    ref=_gp_ref,
    agree=_gp_agree,
    note="Both factor K + σ²I by Cholesky; scikit-learn's fit also evaluates the log marginal "
         "likelihood, which factors K + σ²I a second time.",
)


# ------------------------------------------------------------------------------ SVM
SVM_D, SVM_C, SVM_TOL = 5, 1.0, 1e-3


def _svm_setup(n):
    """Two overlapping Gaussian classes, RBF Gram matrix."""
    rng = np.random.default_rng(7)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    X = rng.standard_normal((n, SVM_D)) + 1.5 * y[:, None] / np.sqrt(SVM_D)
    return {"K": kernels.rbf_kernel(X, gamma=1.0 / SVM_D), "y": y}


@dataclass(frozen=True)
class _SVMOutcome:
    """A fitted dual (alpha_i y_i for every point, intercept) and the Gram matrix, for the comparison."""
    dual_coef: np.ndarray
    b: float
    converged: bool
    K: np.ndarray

    def dual_objective(self):
        return np.abs(self.dual_coef).sum() - 0.5 * self.dual_coef @ self.K @ self.dual_coef

    def decision(self):
        return self.K @ self.dual_coef + self.b


def _svm_ours(D):
    fit = svm.svm_dual(D["K"], D["y"], C=SVM_C, tol=SVM_TOL)
    return _SVMOutcome(fit.dual_coef, fit.b, fit.converged, D["K"])


def _svm_ref(D):
    model = SVC(kernel="precomputed", C=SVM_C, tol=SVM_TOL).fit(D["K"], D["y"])
    coef = np.zeros(D["y"].size)
    coef[model.support_] = model.dual_coef_[0]
    return _SVMOutcome(coef, float(model.intercept_[0]), True, D["K"])


def _svm_agree(ours, ref):
    # Both stop when the largest KKT gap m(alpha) - M(alpha) is at most tol. Near the optimum the
    # dual is quadratic, so both objectives are within about tol² (relative) of the optimal value,
    # and the decision values (hence the predictions wherever |f| > 5 tol) agree to a few tol.
    # The multipliers themselves are less well determined and are not compared.
    w_ours, w_ref = ours.dual_objective(), ref.dual_objective()
    return (ours.converged
            and abs(w_ours - w_ref) <= SVM_TOL**2 * max(abs(w_ref), 1.0)
            and np.max(np.abs(ours.decision() - ref.decision())) <= 5 * SVM_TOL)


SVM_CASE = Case(
    name="SVM dual (SMO)",
    ours_name="mlnotes.svm.svm_dual",
    ref_name=f"sklearn.svm.SVC(kernel='precomputed', C={SVM_C:g}, tol={SVM_TOL:g})",
    size_label=f"n points, RBF Gram matrix precomputed, d = {SVM_D}, overlapping classes",
    sizes=(150, 600, 2400),
    setup=_svm_setup,
    ours=_svm_ours,
    ref=_svm_ref,
    agree=_svm_agree,
    note="Both are SMO with the same second-order working-set rule and stopping rule, but ours "
         "runs one Python iteration (several O(n) numpy passes) per pair and first checks that K "
         "is positive semi-definite (a Cholesky factorisation of K + δI, O(n³), which is most of "
         "the time at the largest size), while LIBSVM trusts its input and its C++ loop shrinks "
         "the active set and caches kernel columns. What it would take: make the O(n³) check "
         "optional (a prototype without it reached 3.9×); the per-pair Python overhead remains.",
)


# ------------------------------------------------------------------------------ trees
TREE_D, TREE_LEAF, TREE_TEST = 5, 5, 2000


def _tree_setup(n, seed=8):
    """Continuous features in general position (float32-exact), 3 classes, random weights."""
    rng = np.random.default_rng(seed)
    X = _float32_exact(rng.standard_normal((n, TREE_D)))
    score = X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.standard_normal(n)
    y = (score > 1).astype(int) + (X[:, -1] > 1)
    w = rng.uniform(0.5, 1.5, n)          # continuous weights: no two splits tie exactly
    return {"X": X, "y": y, "w": w, "Xt": _float32_exact(rng.standard_normal((TREE_TEST, TREE_D)))}


@dataclass(frozen=True)
class _Predictions:
    train: np.ndarray
    test: np.ndarray


def _tree_ours(D):
    tree = trees.DecisionTree("gini", min_samples_leaf=TREE_LEAF).fit(D["X"], D["y"], D["w"])
    return _Predictions(tree.predict(D["X"]), tree.predict(D["Xt"]))


def _tree_ref(D):
    tree = DecisionTreeClassifier(min_samples_leaf=TREE_LEAF, random_state=0)
    tree.fit(D["X"], D["y"], sample_weight=D["w"])
    return _Predictions(tree.predict(D["X"]), tree.predict(D["Xt"]))


def _same_predictions(ours, ref):
    return (np.array_equal(ours.train, ref.train) and np.array_equal(ours.test, ref.test))


DECISION_TREE = Case(
    name="Decision tree (CART)",
    ours_name="mlnotes.trees.DecisionTree",
    ref_name=f"sklearn.tree.DecisionTreeClassifier(min_samples_leaf={TREE_LEAF})",
    size_label=f"n points, d = {TREE_D}, 3 classes, weighted, grown to purity; fit + predict",
    sizes=(1000, 4000, 16000),
    setup=_tree_setup,
    ours=_tree_ours,
    ref=_tree_ref,
    agree=_same_predictions,
    note="The same greedy Gini splits; ours grows the tree by a Python recursion, one call per "
         "node, each sorting the node's points on every feature with numpy, while scikit-learn's "
         "builder is Cython.",
)

ADA_ROUNDS = 50


def _ada_setup(n):
    D = _tree_setup(n, seed=9)
    D["y"] = np.where(D["y"] > 0, 1, -1)
    return D


@dataclass(frozen=True)
class _BoostOutcome:
    alpha: np.ndarray
    eps: np.ndarray
    train: np.ndarray
    test: np.ndarray


def _ada_ours(D):
    res = trees.adaboost(D["X"], D["y"], ADA_ROUNDS)
    return _BoostOutcome(2 * res.alpha, res.eps, res.predict(D["X"]), res.predict(D["Xt"]))


def _ada_ref(D):
    model = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=ADA_ROUNDS,
                               random_state=0).fit(D["X"], D["y"])
    k = len(model.estimators_)
    return _BoostOutcome(model.estimator_weights_[:k], model.estimator_errors_[:k],
                         model.predict(D["X"]), model.predict(D["Xt"]))


def _ada_agree(ours, ref):
    # scikit-learn's SAMME weight is log((1 - eps)/eps) = 2 alpha
    return (_close(ours.alpha, ref.alpha, rtol=1e-9) and _close(ours.eps, ref.eps, rtol=1e-9)
            and np.array_equal(ours.train, ref.train) and np.array_equal(ours.test, ref.test))


ADABOOST = Case(
    name="AdaBoost (stumps)",
    ours_name="mlnotes.trees.adaboost",
    ref_name=(f"sklearn.ensemble.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), "
              f"n_estimators={ADA_ROUNDS})"),
    size_label=f"n points, d = {TREE_D}, {ADA_ROUNDS} rounds; fit + predict",
    sizes=(500, 2000, 8000),
    setup=_ada_setup,
    ours=_ada_ours,
    ref=_ada_ref,
    agree=_ada_agree,
    note="The same discrete AdaBoost (SAMME with two classes) on Gini stumps; each round of ours "
         "sorts all n points on every feature with numpy.",
)


# ------------------------------------------------------------------------------ t-SNE
# 300 iterations is scikit-learn's 250 exaggerated ones plus 50. With its default exaggeration
# of 12, ours (which keeps momentum and gains across the switch) is still far from converged
# after 50 more steps at n = 100, so the problem uses the original paper's exaggeration of 4;
# below n = 80 the two runs end in different local minima too often for a fair comparison.
TSNE_ITER, TSNE_PERPLEXITY, TSNE_EXAGGERATION = 300, 10.0, 4.0


def _tsne_setup(n):
    X, _ = load_digits(return_X_y=True)
    rng = np.random.default_rng(10)
    return {"X": X[rng.choice(len(X), n, replace=False)], "seed": 10}


@dataclass(frozen=True)
class _Embedding:
    Y: np.ndarray
    X: np.ndarray
    seed: int


def _tsne_ours(D):
    res = embedding.tsne(D["X"], TSNE_PERPLEXITY, TSNE_ITER, np.random.default_rng(D["seed"]),
                         exaggeration=TSNE_EXAGGERATION)
    return _Embedding(res.Y, D["X"], D["seed"])


def _tsne_ref(D):
    model = TSNE(method="exact", perplexity=TSNE_PERPLEXITY, early_exaggeration=TSNE_EXAGGERATION,
                 init="random", max_iter=TSNE_ITER, random_state=D["seed"])
    return _Embedding(model.fit(D["X"]).embedding_, D["X"], D["seed"])


def _tsne_quality(e, P):
    return embedding.kl_divergence(P, embedding.joint_q(e.Y)[0]), trustworthiness(e.X, e.Y, n_neighbors=10)


def _tsne_agree(ours, ref, restarts=4):
    # Different random starts give different embeddings: compare their quality on the same
    # P (the KL divergence of each final embedding) and how well each keeps neighbours. One
    # start of either method can land in a worse local optimum (which one depends on the
    # machine's rounding): then both are run from `restarts` more starts and the medians of
    # the five are compared instead.
    P = embedding.joint_p(ours.X, TSNE_PERPLEXITY)
    runs = [[_tsne_quality(ours, P)], [_tsne_quality(ref, P)]]

    def close():
        (kl0, tr0), (kl1, tr1) = (np.median(np.array(r), axis=0) for r in runs)
        return abs(kl0 - kl1) <= 0.15 * max(kl0, kl1) and abs(tr0 - tr1) <= 0.03

    if ours.Y.shape != ref.Y.shape:
        return False
    if close():
        return True
    for k in range(1, restarts + 1):
        D = {"X": ours.X, "seed": ours.seed + k}
        runs[0].append(_tsne_quality(_tsne_ours(D), P))
        runs[1].append(_tsne_quality(_tsne_ref(D), P))
    return close()


TSNE_CASE = Case(
    name="t-SNE (exact)",
    ours_name="mlnotes.embedding.tsne",
    ref_name=(f"sklearn.manifold.TSNE(method='exact', early_exaggeration={TSNE_EXAGGERATION:g}, "
              f"init='random', max_iter={TSNE_ITER})"),
    size_label=(f"n digits (d = 64), perplexity {TSNE_PERPLEXITY:g}, {TSNE_ITER} iterations, "
                f"the first 250 with exaggeration {TSNE_EXAGGERATION:g}"),
    sizes=(80, 300, 1100),
    setup=_tsne_setup,
    ours=_tsne_ours,
    ref=_tsne_ref,
    agree=_tsne_agree,
    note="The same exact O(n²) gradient descent with momentum, gains and early exaggeration "
         "(scikit-learn restarts momentum and gains when the exaggeration ends, ours carries them "
         "on) from different random starts, so the embeddings are compared by their KL "
         "divergence under the same P and by trustworthiness (as medians of five starts when "
         "one start of either lands in a worse local optimum).",
)


# ------------------------------------------------------------------- categorical data
FISHER_BATCH = 50


def _fisher_setup(n):
    """A batch of 2×2 tables of total count n, near independence (p-values spread over (0, 1))."""
    rng = np.random.default_rng(11)
    rows = rng.uniform(0.3, 0.7, FISHER_BATCH)
    cols = rng.uniform(0.3, 0.7, FISHER_BATCH)
    tables = []
    for r, c in zip(rows, cols):
        p = np.outer([1 - r, r], [1 - c, c]) + rng.normal(0, 0.01, (2, 2))
        p = np.clip(p, 1e-3, None)
        tables.append(rng.multinomial(n, (p / p.sum()).ravel()).reshape(2, 2))
    return {"tables": tables}


FISHER = Case(
    name="Fisher's exact test",
    ours_name="mlnotes.categorical.fisher_exact",
    ref_name="scipy.stats.fisher_exact",
    size_label=f"total count n of each 2 × 2 table, {FISHER_BATCH} tables per call",
    sizes=(2000, 8000, 32000),
    setup=_fisher_setup,
    ours=lambda D: np.array([categorical.fisher_exact(t).pvalue for t in D["tables"]]),
    ref=lambda D: np.array([scipy.stats.fisher_exact(t).pvalue for t in D["tables"]]),
    agree=lambda ours, ref: _close(ours, ref, rtol=1e-9, atol=1e-12),
    note="scipy finds the other tail by a binary search on the hypergeometric pmf; ours "
         "evaluates the whole support of n11 at once by a recurrence and settles only genuine "
         "near-ties in exact integer arithmetic.",
)

CHI2_COLS = 100


def _chi2_setup(n):
    rng = np.random.default_rng(12)
    p_row, p_col = rng.dirichlet(np.full(n, 5.0)), rng.dirichlet(np.full(CHI2_COLS, 5.0))
    table = rng.poisson(20 * n * CHI2_COLS * np.outer(p_row, p_col)) + 1   # every margin positive
    return {"table": table}


def _chi2_agree(ours, ref):
    return (abs(ours.statistic - ref.statistic) <= 1e-10 * ref.statistic
            and abs(ours.pvalue - ref.pvalue) <= 1e-12 + 1e-9 * ref.pvalue
            and ours.dof == ref.dof
            and _close(ours.expected, ref.expected_freq, rtol=1e-12))


CHI2 = Case(
    name="Chi-square test of independence",
    ours_name="mlnotes.categorical.chi2_independence",
    ref_name="scipy.stats.chi2_contingency(correction=False)",
    size_label=f"n × {CHI2_COLS} table of counts",
    sizes=(1000, 4000, 16000),
    setup=_chi2_setup,
    ours=lambda D: categorical.chi2_independence(D["table"]),
    ref=lambda D: scipy.stats.chi2_contingency(D["table"], correction=False),
    agree=_chi2_agree,
    note="The same O(IJ) computation of the expected counts and Pearson's statistic; the p-value "
         "is the regularised upper incomplete gamma function in both.",
)


# -------------------------------------------------------------------------------- KDE
KDE_GRID, KDE_H = 400, 0.3


def _kde_setup(n):
    rng = np.random.default_rng(13)
    x = np.where(rng.random(n) < 0.3, rng.normal(-2, 0.5, n), rng.normal(1, 1.0, n))
    return {"x": x, "grid": np.linspace(-5, 5, KDE_GRID)}


KDE = Case(
    name="Kernel density estimate",
    ours_name="mlnotes.describe.kde",
    ref_name="scipy.stats.gaussian_kde(x, bw_method=h / std(x))(grid)",
    size_label=f"n sample points, Gaussian kernel h = {KDE_H}, {KDE_GRID} grid points",
    sizes=(2000, 8000, 32000),
    setup=_kde_setup,
    ours=lambda D: describe.kde(D["x"], D["grid"], KDE_H),
    ref=lambda D: scipy.stats.gaussian_kde(D["x"], bw_method=KDE_H / D["x"].std(ddof=1))(D["grid"]),
    agree=lambda ours, ref: _close(ours, ref, rtol=1e-10, atol=1e-15),
    note="Both evaluate all n × m kernel values exactly; scipy loops in compiled code, ours "
         "forms the m × n matrix of scaled differences.",
)


CASES = [KMEANS, GMM, PCA_CASE, PPCA, FACTOR_ANALYSIS, LASSO_PATH, KERNEL_RIDGE, GP, SVM_CASE,
         DECISION_TREE, ADABOOST, TSNE_CASE, FISHER, CHI2, KDE]
