import numpy as np
import pytest

from mlnotes import _validate as check


def test_accepted_values_come_back_converted():
    assert check.finite([1, 2], "x").dtype == float
    assert check.matrix([[1, 2]]).shape == (1, 2)
    assert check.vector([1, 2, 3], 3, "v").shape == (3,)
    assert check.vector([1.0], None, "v").shape == (1,)
    assert check.square([[1, 2], [2, 1]], "K", symmetric=True).shape == (2, 2)
    assert check.number(np.float32(2.5), "a") == 2.5
    assert check.positive(3, "s") == 3.0 and isinstance(check.positive(3, "s"), float)
    assert check.nonnegative(0, "s") == 0.0
    assert check.count(np.int64(4), "k") == 4
    assert check.choice("a", ("a", "b"), "m") == "a"
    np.testing.assert_allclose(check.probabilities([[0.5, 0.5], [1, 0]]), [[0.5, 0.5], [1, 0]])
    assert check.labels([0, 1, 1], 3, (0, 1)).dtype.kind == "i"
    rng = np.random.default_rng(0)
    assert check.generator(rng) is rng


@pytest.mark.parametrize("call, match", [
    (lambda: check.finite([1, np.nan], "x"), "x must be finite"),
    (lambda: check.matrix([1, 2]), "X must be a non-empty 2-D"),
    (lambda: check.matrix(np.zeros((0, 2)), "Z"), "Z must be a non-empty 2-D"),
    (lambda: check.matrix([[1, np.inf]]), "X must be finite"),
    (lambda: check.vector([1, 2], 3, "v"), r"v must have shape \(3,\)"),
    (lambda: check.vector([[1, 2]], None, "v"), "v must have shape"),
    (lambda: check.square(np.ones((2, 3)), "K"), "K must be a non-empty square"),
    (lambda: check.square([[1, 2], [0, 1]], "K", symmetric=True), "K must be symmetric"),
    (lambda: check.number(True, "a"), "a must be a finite real"),
    (lambda: check.number("1", "a"), "a must be a finite real"),
    (lambda: check.number(np.inf, "a"), "a must be a finite real"),
    (lambda: check.positive(0, "s"), "s must be a positive"),
    (lambda: check.positive(-1.0, "s"), "s must be a positive"),
    (lambda: check.positive(np.nan, "s"), "s must be a positive"),
    (lambda: check.nonnegative(-0.1, "s"), "s must be non-negative"),
    (lambda: check.count(2.0, "k"), "k must be an integer >= 1"),
    (lambda: check.count(0, "k"), "k must be an integer >= 1"),
    (lambda: check.count(True, "k"), "k must be an integer"),
    (lambda: check.count(1, "k", low=2), "k must be an integer >= 2"),
    (lambda: check.choice("c", ("a", "b"), "m"), "m must be one of 'a', 'b'"),
    (lambda: check.probabilities([0.5, 0.6]), "p must sum to 1"),
    (lambda: check.probabilities([1.5, -0.5], "q"), "q must be non-negative"),
    (lambda: check.probabilities(1.0), "non-empty array"),
    (lambda: check.labels([0, 2], 2, (0, 1)), "y must contain only the labels 0, 1"),
    (lambda: check.labels([0, 1], 3, (0, 1)), r"y must have shape \(3,\)"),
    (lambda: check.generator(0), "rng must be a numpy.random.Generator"),
])
def test_bad_values_raise_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ----------------------------------------------------------- the checks added for issue #16
class _Model:
    coef_ = None


def test_new_checks_accept_good_values():
    assert check.as_float([1, 2], "x").dtype == float
    assert check.flag(np.bool_(True), "f") is True and check.flag(False, "f") is False
    assert check.seed(np.int64(3)) == 3
    rng = np.random.default_rng(0)
    assert check.seed(rng) is rng
    assert check.function(len, "f") is len
    np.testing.assert_array_equal(check.returned([1.0, 2.0], "f", shape=(2,)), [1.0, 2.0])
    model = _Model()
    model.coef_ = np.ones(2)
    assert check.fitted(model, "coef_") is model
    assert check.choice(True, (True, False), "b") is True
    assert check.choice(np.int64(2), (1, 2), "k") == 2
    assert check.choice(None, (None, "auto"), "m") is None


@pytest.mark.parametrize("call, match", [
    (lambda: check.as_float("abc", "x"), "x must be numeric"),
    (lambda: check.as_float([[1, 2], [3]], "T"), "T must be a rectangular array"),
    (lambda: check.as_float(object(), "x"), "x must be numeric"),
    (lambda: check.as_float(None, "x"), "x must be numeric"),
    (lambda: check.matrix("ab"), "X must be numeric"),
    (lambda: check.vector([1, "a"], None, "v"), "v must be numeric"),
    (lambda: check.flag("no", "correction"), "correction must be True or False"),
    (lambda: check.flag(1, "f"), "f must be True or False"),
    (lambda: check.seed("7"), "seed must be a non-negative integer"),
    (lambda: check.seed(True), "seed must be"),
    (lambda: check.seed(-1), "seed must be"),
    (lambda: check.seed(1.0), "seed must be"),
    (lambda: check.function(3, "grad_log_p"), "grad_log_p must be callable"),
    (lambda: check.returned("x", "score"), "returned by score"),
    (lambda: check.returned([np.nan], "f"), "returned by f must be finite"),
    (lambda: check.returned([1.0, 2.0], "f", shape=(3,)), r"f must return an array of shape \(3,\)"),
    (lambda: check.fitted(_Model(), "coef_"), "_Model is not fitted yet"),
    (lambda: check.choice("no", (True, False), "flag"), "flag must be one of"),
    (lambda: check.choice(1, (True, False), "flag"), "flag must be one of"),
    (lambda: check.choice(True, (1, 2), "k"), "k must be one of"),
    (lambda: check.choice(np.array([1, 2]), (1, 2), "k"), "k must be one of"),
    (lambda: check.labels("ab", 2, (0, 1)), "y must be an array of labels"),
    (lambda: check.labels([[0, 1], [1]], 2, (0, 1)), "y must be a rectangular array"),
])
def test_new_checks_reject_bad_values_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_point_and_grid_checks_of_part_xiv():
    X, single = check.points([1.0, 2.0], 2, "x")
    assert X.shape == (1, 2) and single
    X, single = check.points(np.zeros((3, 2)), None, "x")
    assert X.shape == (3, 2) and not single
    assert check.norm_order(np.inf) == np.inf and check.norm_order(3) == 3.0
    assert check.nonempty([[1.0]], "x", ndim=2).shape == (1, 1)
    np.testing.assert_array_equal(check.increasing_grid([0, 1, 3]), [0.0, 1.0, 3.0])


@pytest.mark.parametrize("call, match", [
    (lambda: check.points(np.zeros((2, 3)), 2, "x"), r"x must have shape \(2,\) or \(m, 2\)"),
    (lambda: check.points(np.zeros((0, 2)), None, "x"), r"x must have shape"),
    (lambda: check.points([1.0, np.nan], 2, "x"), "x must be finite"),
    (lambda: check.norm_order(0.5), "ord must be a number >= 1"),
    (lambda: check.norm_order(True, "p"), "p must be a number >= 1"),
    (lambda: check.norm_order(np.nan), "ord must be a number >= 1"),
    (lambda: check.nonempty([], "x"), "x must be a non-empty array"),
    (lambda: check.nonempty([1.0], "x", ndim=2), "x must be a non-empty 2-D array"),
    (lambda: check.increasing_grid([0, 1, 1]), "grid must be a strictly increasing"),
    (lambda: check.increasing_grid([0, 1], "ts"), "ts must be a strictly increasing 1-D array of at least 3"),
])
def test_point_and_grid_checks_reject_bad_values_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_point_sets_of_a_kernel():
    X, Y = check.point_sets([[1.0, 2.0]], None)
    assert Y is X
    with pytest.raises(ValueError, match="Y must"):
        check.point_sets(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="A must be"):
        check.point_sets([1.0], None, names=("A", "B"))


def test_psd_accepts_singular_and_rejects_indefinite_by_name():
    np.testing.assert_array_equal(check.psd(np.zeros((2, 2)), 2, "Q"), np.zeros((2, 2)))
    check.psd([[1.0, 1.0], [1.0, 1.0]], None, "Q")                  # rank one
    with pytest.raises(ValueError, match="Q must be positive semi-definite"):
        check.psd([[1.0, 0.0], [0.0, -1e-3]], 2, "Q")
    with pytest.raises(ValueError, match="V0 must be symmetric"):
        check.psd([[1.0, 0.5], [0.0, 1.0]], 2, "V0")
    with pytest.raises(ValueError, match=r"V0 must have shape \(3, 3\)"):
        check.psd(np.eye(2), 3, "V0")


def test_sample_size():
    assert check.sample_size(3.2, "eps") == 4 and check.sample_size(0.1, "eps") == 1
    for need in (np.inf, np.nan, 1e30):
        with pytest.raises(ValueError, match="eps is too small"):
            check.sample_size(need, "eps")


def test_finite_result_names_the_arguments_to_rescale():
    assert check.finite_result(2.5, "x") == 2.5
    np.testing.assert_array_equal(check.finite_result(np.ones(3), "x"), np.ones(3))
    for bad in (np.inf, np.nan, np.array([1.0, -np.inf])):
        with pytest.raises(ValueError, match="overflowed: rescale x and y"):
            check.finite_result(bad, "x and y")


def test_psd_handles_entries_near_the_float_limit():
    big = 1e308 * np.array([[1.0, 0.5], [0.5, 1.0]])
    np.testing.assert_array_equal(check.psd(big, 2, "S"), big)
    with pytest.raises(ValueError, match="S must be positive semi-definite"):
        check.psd(1e308 * np.array([[1.0, 1.5], [1.5, 1.0]]), 2, "S")


def test_all_lists_every_check():
    import inspect
    defined = {n for n, f in vars(check).items() if inspect.isfunction(f) and f.__module__ == check.__name__
               and not n.startswith("_")}
    assert defined == set(check.__all__)
