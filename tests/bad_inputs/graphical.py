import numpy as np

from mlnotes import graphical as g

_PA = [[], [0], [0], [1, 2]]
_A = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]])


def _factors():
    return [g.Factor((0, 1), np.ones((2, 3))), g.Factor((1, 2), np.ones((3, 2)))]


def _fg():
    return g.FactorGraph(_factors())


def _jt():
    return g.junction_tree([[0, 1], [1, 2]])


SPECS = {
    "Factor.product": (lambda: dict(other=g.Factor((1,), np.ones(3))), {"other": "object"},
                       lambda: _factors()[0]),
    "Factor.marginalise": (lambda: dict(vars=[1]), {"vars": "object"}, lambda: _factors()[0]),
    "Factor.reduce": (lambda: dict(evidence={1: 2}), {"evidence": "object"}, lambda: _factors()[0]),
    "product": (lambda: dict(factors=_factors()), {"factors": "object"}),
    "marginalise": (lambda: dict(factor=_factors()[0], vars=[0]), {"factor": "object", "vars": "object"}),
    "reduce": (lambda: dict(factor=_factors()[0], evidence={0: 1}), {"factor": "object", "evidence": "object"}),
    "brute_force_marginals": (lambda: dict(fg=_fg()), {"fg": "object"}),
    "sum_product": (lambda: dict(fg=_fg(), root=1), {"fg": "object", "root": "index?"}),
    "pairwise_marginal": (lambda: dict(fg=_fg(), i=0, j=2), {"fg": "object", "i": "index", "j": "index"}),
    "d_separated": (lambda: dict(parents=_PA, X=[1], Y=[2], Z=[0]),
                    {"parents": "object", "X": "object", "Y": "object", "Z": "object"}),
    "markov_blanket": (lambda: dict(parents=_PA, v=1), {"parents": "object", "v": "index"}),
    "moralise": (lambda: dict(parents=_PA), {"parents": "object"}),
    "eliminate": (lambda: dict(adjacency=_A, order=[0, 1, 2, 3]), {"adjacency": "array", "order": "object"}),
    "min_fill_order": (lambda: dict(adjacency=_A), {"adjacency": "array"}),
    "junction_tree": (lambda: dict(cliques=[[0, 1], [1, 2]]), {"cliques": "object"}),
    "running_intersection": (lambda: dict(tree=[(0, 1)], cliques=[[0, 1], [1, 2]]),
                             {"tree": "object", "cliques": "object"}),
    "shafer_shenoy": (lambda: dict(jt=_jt(), factors=_factors()), {"jt": "object", "factors": "object"}),
    "hugin": (lambda: dict(jt=_jt(), factors=_factors()), {"jt": "object", "factors": "object"}),
}
EXEMPT = {}


def _chain():
    return [g.Factor((0, 1), np.ones((2, 3))), g.Factor((1, 2), np.ones((3, 2))), g.Factor((2, 3), np.ones((2, 2)))]


_C3 = ((0, 1), (1, 2), (2, 3))
_CYCLE = g.JunctionTree(_C3, ((0, 1), (1, 2), (0, 2)), ((1,), (2,), ()))
_FOREST = g.JunctionTree(_C3, ((0, 1),), ((1,),))
_ABSENT = g.JunctionTree(_C3, ((0, 1), (1, 7)), ((1,), ()))
_NO_RIP = g.JunctionTree(((0, 1), (2, 3), (1, 2)), ((0, 1), (1, 2)), ((), (2,)))
_BAD_SEP = g.JunctionTree(_C3, ((0, 1), (1, 2)), ((0,), (2,)))

CASES = {
    "shafer_shenoy: jt whose edges form a cycle": (
        "shafer_shenoy", lambda: dict(jt=_CYCLE, factors=_chain()), "jt"),
    "hugin: jt whose edges form a cycle": ("hugin", lambda: dict(jt=_CYCLE, factors=_chain()), "jt"),
    "shafer_shenoy: jt whose edges do not join all cliques": (
        "shafer_shenoy", lambda: dict(jt=_FOREST, factors=_chain()), "jt"),
    "hugin: jt whose edges do not join all cliques": (
        "hugin", lambda: dict(jt=_FOREST, factors=_chain()), "jt"),
    "shafer_shenoy: jt edge to a clique that does not exist": (
        "shafer_shenoy", lambda: dict(jt=_ABSENT, factors=_chain()), "jt"),
    "hugin: jt edge to a clique that does not exist": (
        "hugin", lambda: dict(jt=_ABSENT, factors=_chain()), "jt"),
    "shafer_shenoy: jt without running intersection": (
        "shafer_shenoy", lambda: dict(jt=_NO_RIP, factors=_chain()), "jt"),
    "hugin: jt without running intersection": ("hugin", lambda: dict(jt=_NO_RIP, factors=_chain()), "jt"),
    "shafer_shenoy: jt with wrong separators": (
        "shafer_shenoy", lambda: dict(jt=_BAD_SEP, factors=_chain()), "jt"),
    "hugin: jt with wrong separators": ("hugin", lambda: dict(jt=_BAD_SEP, factors=_chain()), "jt"),
    "shafer_shenoy: a factor whose scope fits in no clique": (
        "shafer_shenoy", lambda: dict(jt=_jt(), factors=_factors() + [g.Factor((0, 2), np.ones((2, 2)))]), "factors"),
    "hugin: a factor whose scope fits in no clique": (
        "hugin", lambda: dict(jt=_jt(), factors=_factors() + [g.Factor((0, 2), np.ones((2, 2)))]), "factors"),
    "running_intersection: an edge to a clique that does not exist": (
        "running_intersection", lambda: dict(tree=[(0, 3)], cliques=[[0, 1], [1, 2]]), "tree"),
    "running_intersection: a self-loop instead of a tree": (
        "running_intersection", lambda: dict(tree=[(0, 0)], cliques=[[0, 1], [1, 2]]), "tree"),
    "product: a table of more than 2**26 entries": (
        "product", lambda: dict(factors=[g.Factor((i,), np.ones(50)) for i in range(8)]), "factors"),
    "brute_force_marginals: a factor that is zero everywhere (Z = 0)": (
        "brute_force_marginals", lambda: dict(fg=g.FactorGraph([g.Factor((0, 1), np.zeros((2, 2)))])), "fg"),
}
