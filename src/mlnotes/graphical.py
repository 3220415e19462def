"""Graphical models and exact inference (chapter 37): factors and factor graphs, belief
propagation (sum-product) on trees, d-separation, moralisation, variable elimination and
triangulation, junction trees, Shafer-Shenoy and Hugin propagation.

Conventions. Variables are the integers ``0, ..., n - 1`` and take values ``0, ..., K - 1``.
A :class:`Factor` is a non-negative numpy array with one axis per variable of its scope.
A DAG is given by ``parents``, a sequence whose entry ``v`` lists the parents of ``v``.
An undirected graph is a symmetric 0/1 adjacency matrix with a zero diagonal.
"""
from typing import NamedTuple

import numpy as np

from mlnotes import _validate as check

__all__ = ["Factor", "FactorGraph", "product", "marginalise", "reduce", "Marginals", "BPResult", "Elimination", "JunctionTree",
           "JTResult", "brute_force_marginals", "sum_product", "pairwise_marginal",
           "d_separated", "markov_blanket", "moralise", "eliminate", "min_fill_order",
           "junction_tree", "running_intersection", "shafer_shenoy", "hugin"]


# ------------------------------------------------------------------------ validation
def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _int_set(x, name, n=None, allow_empty=True):
    """``x`` (a list, tuple, set or integer array of distinct indices) as a tuple of ints."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind not in "iu" or x.ndim != 1:
            raise ValueError(f"{name} must be a 1-D array of integer indices, got dtype {x.dtype}")
        x = x.tolist()
    if not isinstance(x, (list, tuple, set, frozenset)) or not all(_is_int(v) for v in x):
        raise ValueError(f"{name} must be a list, tuple or set of integer indices, got {type(x).__name__}")
    out = tuple(int(v) for v in x)
    if len(set(out)) != len(out) or any(v < 0 or (n is not None and v >= n) for v in out):
        raise ValueError(f"{name} must hold distinct indices in 0, ..., {'n - 1' if n is None else n - 1}")
    if not out and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    return out


def _index(v, n, name):
    if not _is_int(v) or not 0 <= v < n:
        raise ValueError(f"{name} must be an integer index in 0, ..., {n - 1}, got {v!r}")
    return int(v)


def _parents(parents, name="parents"):
    """``parents`` as a tuple of tuples, checked to describe a DAG on 0, ..., n - 1."""
    if isinstance(parents, (str, bytes, dict)) or not isinstance(parents, (list, tuple)) or not parents:
        raise ValueError(f"{name} must be a non-empty list whose entry v lists the parents of v")
    pa = tuple(_int_set(p, f"{name}[{v}]", len(parents)) for v, p in enumerate(parents))
    if any(v in p for v, p in enumerate(pa)):
        raise ValueError(f"{name}: a node cannot be its own parent")
    done, left = set(), set(range(len(pa)))
    while left:                                   # Kahn's algorithm: peel off sources
        ready = {v for v in left if set(pa[v]) <= done}
        if not ready:
            raise ValueError(f"{name} must describe an acyclic graph (a DAG)")
        done |= ready
        left -= ready
    return pa


def _adjacency(A, name="adjacency"):
    """``A`` as a boolean symmetric adjacency matrix with a zero diagonal."""
    A = check.square(A, name)
    if not np.all((A == 0) | (A == 1)) or np.any(np.diag(A)) or not np.array_equal(A, A.T):
        raise ValueError(f"{name} must be a symmetric 0/1 matrix with a zero diagonal")
    return A.astype(bool)


def _factor_list(factors, name="factors"):
    if not isinstance(factors, (list, tuple)) or not factors or \
            not all(isinstance(f, Factor) for f in factors):
        raise ValueError(f"{name} must be a non-empty list of Factor objects")
    cards = {}
    for f in factors:
        for v, k in zip(f.vars, f.table.shape):
            if cards.setdefault(v, k) != k:
                raise ValueError(f"{name}: variable {v} has {cards[v]} values in one factor "
                                 f"and {k} in another")
    return tuple(factors), cards


_MAX_TABLE = 2**26          # entries of the largest table built (512 MB of float64)


def _table_size(cards, scope, name):
    """``ValueError`` naming ``name`` if a table over ``scope`` would exceed ``_MAX_TABLE`` entries."""
    if np.prod([float(cards[v]) for v in scope]) > _MAX_TABLE:
        raise ValueError(f"{name} would need a table of more than 2**26 entries (over the variables "
                         f"{tuple(scope)}): the problem is too large for exact inference")


def _unit_scaled(factors, name):
    """The factors divided by their largest entries, and the sum of the logs of those entries,
    so that products of many factors neither overflow nor underflow."""
    top = np.array([f.table.max() for f in factors])
    if np.any(top <= 0):
        raise ValueError(f"{name} has normaliser Z = 0: factor {int(np.argmin(top))} is zero everywhere")
    return [Factor(f.vars, f.table / t) for f, t in zip(factors, top)], float(np.log(top).sum())


# ------------------------------------------------------------------------ factors
def _contract(pairs, out):
    """Sum-product of (table, vars) pairs onto the variables ``out`` with ``np.einsum``."""
    labels = {v: i for i, v in enumerate(dict.fromkeys([v for _, vs in pairs for v in vs] + list(out)))}
    args = []
    for table, vs in pairs:
        args += [table, [labels[v] for v in vs]]
    return np.einsum(*args, [labels[v] for v in out])


class Factor:
    """A non-negative table over discrete variables, one axis per variable.

    Parameters
    ----------
    vars : sequence of int
        The scope: distinct variable indices, one per axis of ``table``.
    table : array_like
        Non-negative finite values, ``table.ndim == len(vars)``.

    Raises
    ------
    ValueError
        If ``vars`` is not a list of distinct non-negative integers, or ``table`` is not a
        finite non-negative array with one non-empty axis per variable.
    """

    def __init__(self, vars, table):
        self.vars = _int_set(vars, "vars")
        table = check.finite(table, "table")
        if table.ndim != len(self.vars) or 0 in table.shape or np.any(table < 0):
            raise ValueError(f"table must be a non-negative array with one non-empty axis per "
                             f"variable of vars {self.vars}, got shape {table.shape}")
        self.table = table

    @property
    def cards(self):
        """Number of values of each variable in the scope, as a dict."""
        return dict(zip(self.vars, self.table.shape))

    def __repr__(self):
        return f"Factor(vars={self.vars}, shape={self.table.shape})"

    def product(self, other):
        """The product factor, on the sorted union of the two scopes (see :func:`product`).

        Parameters
        ----------
        other : Factor

        Returns
        -------
        Factor

        Raises
        ------
        ValueError
            If ``other`` is not a Factor, a shared variable has different numbers of values, or
            the product table would be too large (more than 2**26 entries).
        """
        check.instance_of(other, Factor, "other")
        _factor_list([self, other], "other")
        return product([self, other])

    def marginalise(self, vars):
        """Sum out the variables ``vars`` (see :func:`marginalise`).

        Parameters
        ----------
        vars : sequence of int
            A subset of the scope.

        Returns
        -------
        Factor

        Raises
        ------
        ValueError
            If ``vars`` is not a set of variables of the scope.
        """
        return marginalise(self, vars)

    def reduce(self, evidence):
        """Condition on observed values ``{variable: value}`` (see :func:`reduce`).

        Parameters
        ----------
        evidence : dict
            ``{variable: value}``; variables outside the scope are ignored.

        Returns
        -------
        Factor

        Raises
        ------
        ValueError
            If ``evidence`` is not a dict of integer variables and values within range.
        """
        return reduce(self, evidence)


def product(factors):
    """The product of factors, on the sorted union of their scopes (one ``np.einsum``).

    Parameters
    ----------
    factors : list of Factor
        Shared variables must have the same number of values in every factor.

    Returns
    -------
    Factor

    Raises
    ------
    ValueError
        If ``factors`` is not a non-empty list of Factor objects, a shared variable has
        different numbers of values, or the product table would exceed 2**26 entries.
    """
    factors, cards = _factor_list(factors, "factors")
    out = tuple(sorted(set().union(*(f.vars for f in factors))))
    _table_size(cards, out, "factors")
    return Factor(out, _contract([(f.table, f.vars) for f in factors], out))


def marginalise(factor, vars):
    """Sum a factor over the variables ``vars`` (a subset of its scope).

    Parameters
    ----------
    factor : Factor
    vars : sequence of int

    Returns
    -------
    Factor
        The factor on the remaining variables, in their original order.

    Raises
    ------
    ValueError
        If ``factor`` is not a Factor or ``vars`` is not a set of variables of its scope.
    """
    check.instance_of(factor, Factor, "factor")
    drop = _int_set(vars, "vars")
    if not set(drop) <= set(factor.vars):
        raise ValueError(f"vars must be a subset of the scope {factor.vars}, got {drop}")
    keep = tuple(v for v in factor.vars if v not in drop)
    return Factor(keep, factor.table.sum(axis=tuple(factor.vars.index(v) for v in drop)))


def reduce(factor, evidence):
    """Condition a factor on observed values: the slice of its table at ``evidence``.

    Parameters
    ----------
    factor : Factor
    evidence : dict
        ``{variable: value}``; variables outside the scope are ignored.

    Returns
    -------
    Factor
        The factor on the unobserved variables of the scope.

    Raises
    ------
    ValueError
        If ``factor`` is not a Factor, or ``evidence`` is not a dict of integer variables and
        values within range.
    """
    check.instance_of(factor, Factor, "factor")
    if not isinstance(evidence, dict) or not all(_is_int(v) for v in evidence):
        raise ValueError("evidence must be a dict {variable: value} with integer keys")
    for v, x in evidence.items():
        if v in factor.vars and (not _is_int(x) or not 0 <= x < factor.cards[v]):
            raise ValueError(f"evidence[{v}] must be an integer in 0, ..., {factor.cards[v] - 1}")
    index = tuple(int(evidence[v]) if v in evidence else slice(None) for v in factor.vars)
    return Factor(tuple(v for v in factor.vars if v not in evidence), factor.table[index])


class FactorGraph:
    """A factor graph: the bipartite graph between variables and the factors that use them.

    Parameters
    ----------
    factors : list of Factor
        Every variable ``0, ..., n - 1`` must be in the scope of some factor, with the same
        number of values everywhere. The distribution is ``prod_j f_j / Z``.

    Raises
    ------
    ValueError
        If ``factors`` is not a non-empty list of Factor objects, a variable has different
        numbers of values in two factors, or some variable ``0, ..., n - 1`` is in no scope.
    """

    def __init__(self, factors):
        self.factors, cards = _factor_list(factors, "factors")
        n = max(cards) + 1
        if set(cards) != set(range(n)):
            raise ValueError(f"factors must use every variable 0, ..., {n - 1}; missing "
                             f"{sorted(set(range(n)) - set(cards))}")
        self.cards = tuple(cards[v] for v in range(n))
        self.n_vars = n
        self.var_factors = tuple(tuple(j for j, f in enumerate(self.factors) if v in f.vars)
                                 for v in range(n))

    def __repr__(self):
        return f"FactorGraph(n_vars={self.n_vars}, n_factors={len(self.factors)}, cards={self.cards})"

    @property
    def is_tree(self):
        """Whether the bipartite variable-factor graph is connected and has no cycle."""
        n, m = self.n_vars, len(self.factors)
        if sum(len(f.vars) for f in self.factors) != n + m - 1:
            return False
        seen, stack = {0}, [0]                 # nodes: variables 0..n-1, factors n..n+m-1
        while stack:
            a = stack.pop()
            for b in _neighbours(self, a):
                if b not in seen:
                    seen.add(b)
                    stack.append(b)
        return len(seen) == n + m


def _neighbours(fg, a):
    n = fg.n_vars
    return [n + j for j in fg.var_factors[a]] if a < n else list(fg.factors[a - n].vars)


# ------------------------------------------------------------------------ belief propagation
class Marginals(NamedTuple):
    """Node marginals (1-D arrays), factor marginals (arrays shaped like the factor tables)
    and the log normaliser log Z."""
    nodes: list
    factors: list
    log_Z: float


class BPResult(NamedTuple):
    """As :class:`Marginals`, plus the message schedule: pairs ``(from, to)`` of nodes named
    ``("x", i)`` for variables and ``("f", j)`` for factors, upward pass first."""
    nodes: list
    factors: list
    log_Z: float
    schedule: tuple


def brute_force_marginals(fg):
    """All node and factor marginals of a factor graph from the full joint table.

    Parameters
    ----------
    fg : FactorGraph
        At most about 20 binary variables (the joint table is built with ``np.einsum``).

    Returns
    -------
    Marginals

    Raises
    ------
    ValueError
        If ``fg`` is not a FactorGraph, its joint table would be too large, or Z = 0.
    """
    check.instance_of(fg, FactorGraph, "fg")
    if np.prod(np.array(fg.cards, dtype=float)) > 2**22:
        raise ValueError("fg is too large for the full joint table (more than 2**22 entries)")
    every = tuple(range(fg.n_vars))
    scaled, offset = _unit_scaled(fg.factors, "fg")
    joint = _contract([(f.table, f.vars) for f in scaled], every)
    Z = joint.sum()
    if not Z > 0:
        raise ValueError("fg has normaliser Z = 0 (no configuration has positive weight)")
    P = joint / Z
    nodes = [_contract([(P, every)], (v,)) for v in every]
    return Marginals(nodes, [_contract([(P, every)], f.vars) for f in fg.factors], float(np.log(Z) + offset))


def _message(fg, a, b, msg):
    """The sum-product message from node ``a`` to its neighbour ``b`` (a 1-D array)."""
    n = fg.n_vars
    if a < n:                                              # variable -> factor
        out = np.ones(fg.cards[a])
        for c in _neighbours(fg, a):
            if c != b:
                out = out * msg[(c, a)]
        return out
    f = fg.factors[a - n]                                  # factor -> variable
    pairs = [(f.table, f.vars)] + [(msg[(v, a)], (v,)) for v in f.vars if v != b]
    return _contract(pairs, (b,))


def sum_product(fg, root=None):
    """Belief propagation (sum-product) on a tree factor graph: one pass to the root, one back.

    Parameters
    ----------
    fg : FactorGraph
        Its variable-factor graph must be a tree (``fg.is_tree``).
    root : int, optional
        The root variable (default 0).

    Returns
    -------
    BPResult
        Normalised node and factor marginals, log Z and the message schedule. Messages are
        normalised as they are sent; log Z adds up the logs of the upward normalisers.

    Raises
    ------
    ValueError
        If ``fg`` is not a tree FactorGraph, ``root`` is not one of its variables, or Z = 0.
    """
    check.instance_of(fg, FactorGraph, "fg")
    root = 0 if root is None else _index(root, fg.n_vars, "root")
    if not fg.is_tree:
        raise ValueError("fg must be a tree factor graph (connected, no cycles); use a junction tree")
    scaled, offset = _unit_scaled(fg.factors, "fg")
    fg = FactorGraph(scaled)                               # tables with largest entry 1
    order, parent = [root], {root: None}
    for a in order:                                        # breadth-first from the root
        for b in _neighbours(fg, a):
            if b not in parent:
                parent[b] = a
                order.append(b)
    msg, log_Z, sched = {}, offset, []
    for a in reversed(order[1:]):                          # collect: leaves to root
        m = _message(fg, a, parent[a], msg)
        if not m.sum() > 0:
            raise ValueError("fg has normaliser Z = 0 (a message vanished)")
        log_Z += np.log(m.sum())
        msg[(a, parent[a])] = m / m.sum()
        sched.append((a, parent[a]))
    for a in order:                                        # distribute: root to leaves
        for b in _neighbours(fg, a):
            if b != parent[a]:
                m = _message(fg, a, b, msg)
                msg[(a, b)] = m / m.sum()
                sched.append((a, b))
    n = fg.n_vars
    belief = [np.prod([msg[(c, v)] for c in _neighbours(fg, v)], axis=0) for v in range(n)]
    log_Z += np.log(belief[root].sum())
    fmarg = [_contract([(f.table, f.vars)] + [(msg[(v, n + j)], (v,)) for v in f.vars], f.vars)
             for j, f in enumerate(fg.factors)]
    name = lambda a: ("x", a) if a < n else ("f", a - n)   # noqa: E731
    return BPResult([b / b.sum() for b in belief], [t / t.sum() for t in fmarg], float(log_Z),
                    tuple((name(a), name(b)) for a, b in sched))


def pairwise_marginal(fg, i, j):
    """The joint marginal p(x_i, x_j) on a tree factor graph, by belief propagation.

    If a factor holds both variables, its factor marginal is summed down to them (the
    pairwise-marginal proposition); otherwise x_i is clamped to each of its values in turn
    by a unary indicator factor and p(x_i = a, x_j) = exp(log Z_a - log Z) p(x_j | x_i = a).

    Parameters
    ----------
    fg : FactorGraph
        A tree factor graph.
    i, j : int
        Two different variables.

    Returns
    -------
    ndarray of shape (K_i, K_j)

    Raises
    ------
    ValueError
        If ``fg`` is not a tree FactorGraph, ``i`` or ``j`` is not one of its variables, they
        are equal, or Z = 0.
    """
    check.instance_of(fg, FactorGraph, "fg")
    i, j = _index(i, fg.n_vars, "i"), _index(j, fg.n_vars, "j")
    if i == j:
        raise ValueError("i and j must be different variables")
    bp = sum_product(fg)
    for f, t in zip(fg.factors, bp.factors):
        if i in f.vars and j in f.vars:
            return _contract([(t, f.vars)], (i, j))
    out = np.zeros((fg.cards[i], fg.cards[j]))
    for a in np.flatnonzero(bp.nodes[i] > 0):
        clamp = Factor((i,), np.eye(fg.cards[i])[a])
        bpa = sum_product(FactorGraph(list(fg.factors) + [clamp]))
        out[a] = np.exp(bpa.log_Z - bp.log_Z) * bpa.nodes[j]
    return out


# ------------------------------------------------------------------------ DAGs
def _moral(pa, nodes):
    """Moral graph of the DAG ``pa`` restricted to ``nodes`` (closed under parents)."""
    A = np.zeros((len(pa), len(pa)), dtype=bool)
    for v in nodes:
        family = list(pa[v]) + [v]
        A[np.ix_(family, family)] = True
    np.fill_diagonal(A, False)
    return A


def moralise(parents):
    """The moral graph of a DAG: marry the parents of every node and drop the arrows.

    Parameters
    ----------
    parents : sequence of sequences of int
        ``parents[v]`` lists the parents of node ``v``.

    Returns
    -------
    ndarray of bool, shape (n, n)
        Symmetric adjacency matrix.

    Raises
    ------
    ValueError
        If ``parents`` does not describe a DAG on ``0, ..., n - 1``.
    """
    pa = _parents(parents)
    return _moral(pa, range(len(pa)))


def d_separated(parents, X, Y, Z):
    """Whether Z d-separates X from Y in a DAG, tested on the moral ancestral graph.

    X and Y are d-separated by Z exactly when they are separated by Z in the moral graph of
    the subgraph induced by the ancestors of X, Y and Z (Lauritzen's criterion).

    Parameters
    ----------
    parents : sequence of sequences of int
    X, Y, Z : sequences of int
        Disjoint node sets; X and Y non-empty, Z possibly empty.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``parents`` is not a DAG, or ``X``, ``Y``, ``Z`` are not disjoint sets of its nodes
        (``X`` and ``Y`` non-empty).
    """
    pa = _parents(parents)
    n = len(pa)
    X, Y, Z = (set(_int_set(S, nm, n, allow_empty=(nm == "Z"))) for S, nm in ((X, "X"), (Y, "Y"), (Z, "Z")))
    if X & Y or X & Z or Y & Z:
        raise ValueError("X, Y and Z must be disjoint sets of nodes")
    anc, stack = set(), list(X | Y | Z)
    while stack:
        v = stack.pop()
        if v not in anc:
            anc.add(v)
            stack += pa[v]
    A = _moral(pa, anc)
    A[list(Z), :] = A[:, list(Z)] = False                  # remove Z
    reach = np.zeros(n, dtype=bool)
    reach[list(X)] = True
    while True:
        new = reach | A[reach].any(axis=0)
        if np.array_equal(new, reach):
            return not reach[list(Y)].any()
        reach = new


def markov_blanket(parents, v):
    """The Markov blanket of node v in a DAG: parents, children and co-parents.

    Parameters
    ----------
    parents : sequence of sequences of int
    v : int

    Returns
    -------
    tuple of int, sorted

    Raises
    ------
    ValueError
        If ``parents`` is not a DAG or ``v`` is not one of its nodes.
    """
    pa = _parents(parents)
    v = _index(v, len(pa), "v")
    children = [c for c in range(len(pa)) if v in pa[c]]
    blanket = set(pa[v]) | set(children) | {p for c in children for p in pa[c]}
    return tuple(sorted(blanket - {v}))


# ------------------------------------------------------------------------ elimination
class Elimination(NamedTuple):
    """Result of variable elimination on an undirected graph: the fill-in edges ``(a, b)``
    with ``a < b``, the maximal elimination cliques (sorted tuples) and the triangulated
    adjacency matrix."""
    fill_in: tuple
    cliques: tuple
    triangulated: np.ndarray


def _permutation(order, n, name="order"):
    unordered = isinstance(order, (set, frozenset))
    order = _int_set(order, name, n)
    if unordered or len(order) != n:
        raise ValueError(f"{name} must be a permutation of 0, ..., {n - 1}")
    return order


def eliminate(adjacency, order):
    """Eliminate the nodes of an undirected graph in ``order``, recording fill-in and cliques.

    Eliminating v connects all its not yet eliminated neighbours (the new factor of
    variable elimination has them as its scope); the union of the graph and the fill-in
    edges is chordal, and its maximal cliques are the maximal elimination cliques.

    Parameters
    ----------
    adjacency : array_like, shape (n, n)
        Symmetric 0/1 matrix with a zero diagonal.
    order : sequence of int
        A permutation of 0, ..., n - 1.

    Returns
    -------
    Elimination

    Raises
    ------
    ValueError
        If ``adjacency`` is not a symmetric 0/1 matrix with a zero diagonal, or ``order`` is not a
        permutation of its nodes.
    """
    A = _adjacency(adjacency).copy()
    n = A.shape[0]
    order = _permutation(order, n)
    alive, fill, cliques = np.ones(n, dtype=bool), [], []
    for v in order:
        nb = np.flatnonzero(A[v] & alive)
        a, b = np.nonzero(np.triu(~A[np.ix_(nb, nb)], 1))
        fill += [tuple(sorted((int(nb[p]), int(nb[q])))) for p, q in zip(a, b)]
        A[nb[a], nb[b]] = A[nb[b], nb[a]] = True
        cliques.append(frozenset([v, *nb.tolist()]))
        alive[v] = False
    maximal = [c for c in cliques if not any(c < d for d in cliques)]
    return Elimination(tuple(sorted(fill)), tuple(tuple(sorted(c)) for c in maximal), A)


def min_fill_order(adjacency):
    """A greedy min-fill (minimum deficiency) elimination order.

    At each step the node whose elimination adds the fewest fill-in edges is eliminated;
    ties go to the smaller current degree, then to the smaller index.

    Parameters
    ----------
    adjacency : array_like, shape (n, n)

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError
        If ``adjacency`` is not a symmetric 0/1 matrix with a zero diagonal.
    """
    A = _adjacency(adjacency).copy()
    n = A.shape[0]
    alive, order = np.ones(n, dtype=bool), []
    for _ in range(n):
        best = None
        for v in np.flatnonzero(alive):
            nb = np.flatnonzero(A[v] & alive)
            missing = int(np.triu(~A[np.ix_(nb, nb)], 1).sum())
            if best is None or (missing, nb.size) < best[:2]:
                best = (missing, nb.size, v, nb)
        v, nb = best[2], best[3]
        A[np.ix_(nb, nb)] = True
        A[nb, nb] = False
        alive[v] = False
        order.append(int(v))
    return tuple(order)


# ------------------------------------------------------------------------ junction trees
class JunctionTree(NamedTuple):
    """Cliques (sorted tuples), tree edges ``(a, b)`` between clique indices, and the
    separator (sorted tuple of shared variables) of each edge."""
    cliques: tuple
    edges: tuple
    separators: tuple


def _cliques(cliques, name="cliques"):
    if isinstance(cliques, (str, bytes)) or not isinstance(cliques, (list, tuple)) or not cliques:
        raise ValueError(f"{name} must be a non-empty list of cliques (lists of variables)")
    return tuple(tuple(sorted(_int_set(c, f"{name}[{k}]", allow_empty=False)))
                 for k, c in enumerate(cliques))


def junction_tree(cliques):
    """A junction tree on the given cliques: a maximum-weight spanning tree of the clique
    graph, the weight of an edge being the size of the separator (Kruskal's algorithm).

    Parameters
    ----------
    cliques : sequence of sequences of int
        Usually the maximal cliques of a chordal graph (see :func:`eliminate`).

    Returns
    -------
    JunctionTree

    Raises
    ------
    ValueError
        If ``cliques`` is not a non-empty list of non-empty sets of variable indices.
    """
    C = _cliques(cliques)
    m = len(C)
    pairs = sorted(((-len(set(C[a]) & set(C[b])), a, b) for a in range(m) for b in range(a + 1, m)))
    root, edges = list(range(m)), []
    find = lambda a: a if root[a] == a else find(root[a])  # noqa: E731
    for _, a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            root[ra] = rb
            edges.append((a, b))
    seps = tuple(tuple(sorted(set(C[a]) & set(C[b]))) for a, b in edges)
    return JunctionTree(C, tuple(edges), seps)


def _spanning_tree(tree, C, name):
    """``tree`` as a tuple of edges ``(a, b)``, checked to be a spanning tree on the cliques ``C``."""
    if not isinstance(tree, (list, tuple)) or not all(
            isinstance(e, (list, tuple)) and len(e) == 2 and all(_is_int(a) for a in e) for e in tree):
        raise ValueError(f"{name} must be a list of edges (a, b) between clique indices")
    absent = [a for e in tree for a in e if not 0 <= a < len(C)]
    if absent:
        raise ValueError(f"{name} names clique {absent[0]}, which does not exist (the cliques are "
                         f"0, ..., {len(C) - 1})")
    root = list(range(len(C)))
    find = lambda a: a if root[a] == a else find(root[a])  # noqa: E731
    for a, b in tree:
        root[find(a)] = find(b)
    if len(tree) != len(C) - 1 or len({find(a) for a in range(len(C))}) != 1:
        raise ValueError(f"{name} must be a spanning tree on the {len(C)} cliques ({len(C) - 1} edges "
                         f"joining them all, no cycle or self-loop); got {len(tree)} edges that do not")
    return tuple((int(a), int(b)) for a, b in tree)


def _rip_violations(tree, C):
    """The variables whose cliques are not connected in the tree (empty: running intersection)."""
    out = []
    for v in sorted(set().union(*map(set, C))):
        holds = {k for k, c in enumerate(C) if v in c}
        if sum(1 for a, b in tree if a in holds and b in holds) != len(holds) - 1:
            out.append(v)
    return out


def running_intersection(tree, cliques):
    """Whether a tree on the cliques has the running-intersection property.

    Every variable must appear in a connected set of cliques; in a tree an induced subgraph
    with k nodes is connected exactly when it has k - 1 edges.

    Parameters
    ----------
    tree : sequence of pairs of int
        The edges ``(a, b)`` between clique indices, forming a spanning tree.
    cliques : sequence of sequences of int

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``cliques`` is not a non-empty list of non-empty index sets, or ``tree`` is not a
        spanning tree on them (an edge naming a clique that does not exist included).
    """
    C = _cliques(cliques)
    return not _rip_violations(_spanning_tree(tree, C, "tree"), C)


def _junction(jt):
    """``jt`` checked to be a junction tree: cliques, a spanning tree on them, the separators
    of its edges, and the running-intersection property."""
    check.instance_of(jt, JunctionTree, "jt", made_by="junction_tree")
    C = _cliques(jt.cliques, "jt.cliques")
    edges = _spanning_tree(jt.edges, C, "jt.edges")
    seps = tuple(tuple(sorted(set(C[a]) & set(C[b]))) for a, b in edges)
    try:
        given = tuple(tuple(sorted(s)) for s in jt.separators)
    except TypeError:
        given = None
    if given != seps:
        raise ValueError("jt.separators must list, for each edge (a, b), the variables shared by "
                         "cliques a and b")
    bad = _rip_violations(edges, C)
    if bad:
        raise ValueError(f"jt lacks the running-intersection property: the cliques that hold variable "
                         f"{bad[0]} are not connected in the tree (build jt with junction_tree from the "
                         f"cliques of a triangulated graph)")
    return JunctionTree(C, edges, seps)


class JTResult(NamedTuple):
    """Clique and separator marginals (as :class:`Factor` objects, normalised) and log Z."""
    cliques: list
    separators: list
    log_Z: float


def _potentials(jt, factors):
    """Check the inputs and multiply each factor into the first clique that holds its scope."""
    jt = _junction(jt)
    factors, cards = _factor_list(factors, "factors")
    missing = set().union(*map(set, jt.cliques)) - set(cards)
    if missing:
        raise ValueError(f"factors must give the number of values of every variable; missing {sorted(missing)}")
    for c in jt.cliques:
        _table_size(cards, c, "jt")
    factors, offset = _unit_scaled(factors, "factors")
    pairs = [[(np.ones(cards[v]), (v,)) for v in c] for c in jt.cliques]
    for k, f in enumerate(factors):
        home = [i for i, c in enumerate(jt.cliques) if set(f.vars) <= set(c)]
        if not home:
            raise ValueError(f"factors[{k}] with scope {f.vars} fits in no clique of jt")
        pairs[home[0]].append((f.table, f.vars))
    nbrs = {i: [] for i in range(len(jt.cliques))}
    for e, (a, b) in enumerate(jt.edges):
        nbrs[a].append((b, e))
        nbrs[b].append((a, e))
    order, parent = [0], {0: (None, None)}
    for a in order:
        for b, e in nbrs[a]:
            if b not in parent:
                parent[b] = (a, e)
                order.append(b)
    psi = [_contract(p, c) for p, c in zip(pairs, jt.cliques)]
    return jt, psi, nbrs, order, parent, offset


def _jt_result(jt, q, seps, log_Z):
    return JTResult([Factor(c, t / t.sum()) for c, t in zip(jt.cliques, q)],
                    [Factor(s, r / r.sum()) for s, r in zip(jt.separators, seps)], float(log_Z))


def shafer_shenoy(jt, factors):
    """Shafer-Shenoy propagation on a junction tree: clique and separator marginals.

    The message from clique i to clique j is the sum over C_i minus S_ij of the clique
    potential times the messages M_{k->i}(x_{S_ki}) from the other neighbours k.

    Parameters
    ----------
    jt : JunctionTree
    factors : list of Factor
        Each factor is assigned to one clique that contains its scope.

    Returns
    -------
    JTResult

    Raises
    ------
    ValueError
        If ``jt`` is not a junction tree (a JunctionTree whose edges form a spanning tree on
        existing cliques, with the right separators and the running-intersection property),
        if a factor's scope fits in no clique, a clique table would exceed 2**26 entries,
        or Z = 0.
    """
    jt, psi, nbrs, order, parent, log_Z = _potentials(jt, factors)
    C, S, msg = jt.cliques, jt.separators, {}

    def send(a, b, e):
        pairs = [(psi[a], C[a])] + [(msg[(k, a)], S[f]) for k, f in nbrs[a] if k != b]
        m = _contract(pairs, S[e])
        if not m.sum() > 0:
            raise ValueError("factors give normaliser Z = 0")
        msg[(a, b)] = m / m.sum()
        return np.log(m.sum())

    for a in reversed(order[1:]):
        log_Z += send(a, *parent[a])
    for a in order:
        for b, e in nbrs[a]:
            if b != parent[a][0]:
                send(a, b, e)
    q = [_contract([(psi[a], C[a])] + [(msg[(k, a)], S[f]) for k, f in nbrs[a]], C[a])
         for a in range(len(C))]
    log_Z += np.log(q[0].sum())
    seps = [msg[(a, b)] * msg[(b, a)] for a, b in jt.edges]
    return _jt_result(jt, q, seps, log_Z)


def hugin(jt, factors):
    """Hugin propagation on a junction tree: clique and separator marginals.

    Start from q_i = clique potential and r_ij = 1; the update i -> j sets
    r_ij_new = sum over C_i minus S_ij of q_i and q_j <- q_j r_ij_new / r_ij (with 0/0 = 0).
    A collect pass to the root and a distribute pass back make every q_i and r_ij the
    marginal, up to normalisation.

    Parameters
    ----------
    jt : JunctionTree
    factors : list of Factor

    Returns
    -------
    JTResult

    Raises
    ------
    ValueError
        As :func:`shafer_shenoy`.
    """
    jt, q, nbrs, order, parent, offset = _potentials(jt, factors)
    C, S = jt.cliques, jt.separators
    r = [np.ones([q[a].shape[C[a].index(v)] for v in s]) for (a, _), s in zip(jt.edges, S)]

    def update(a, b, e):
        new = _contract([(q[a], C[a])], S[e])
        ratio = np.divide(new, r[e], out=np.zeros_like(new), where=r[e] > 0)
        q[b] = _contract([(q[b], C[b]), (ratio, S[e])], C[b])
        r[e] = new
        c = q[b].sum()
        if not c > 0:
            raise ValueError("factors give normaliser Z = 0")
        q[b] /= c                       # P = (prod of all c) prod q / prod r stays true
        return np.log(c)

    log_Z = offset
    for a in reversed(order[1:]):
        log_Z += update(a, *parent[a])
    log_Z += np.log(q[0].sum())                            # the root: q_0 = p(x_C0) / prod c
    for a in order:
        for b, e in nbrs[a]:
            if b != parent[a][0]:
                update(a, b, e)
    return _jt_result(jt, q, r, log_Z)
