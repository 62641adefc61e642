"""The problem's graph as networkx, with exact weights, and the order checks claims need.

Weights are Fractions (a JSON 0.1 is 1/10, not a float), so a path's length and a distance
compare exactly. An unweighted graph's edges weigh 1 (lengths count edges).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import networkx as nx


@dataclass(frozen=True)
class ProblemGraph:
    g: nx.Graph  # nx.DiGraph when directed; edge attribute "w" (Fraction)
    directed: bool
    weighted: bool
    task: dict[str, Any]
    # Whole-graph answers computed once per problem (the maximum matching's size).
    cache: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def nodes(self) -> set[str]:
        return set(self.g.nodes)

    def has_edge(self, u: str, v: str) -> bool:
        return self.g.has_edge(u, v)

    def weight(self, u: str, v: str) -> Fraction:
        return self.g.edges[u, v]["w"]

    def path_weight(self, path: list[str]) -> Fraction | None:
        """The path's total weight, or None when a step of it is not an edge."""
        total = Fraction(0)
        for u, v in zip(path, path[1:], strict=False):
            if not self.has_edge(u, v):
                return None
            total += self.weight(u, v)
        return total

    def distance(self, a: str, b: str) -> Fraction | None:
        """The shortest-path distance (Dijkstra, exact), None when b is unreachable."""
        try:
            return Fraction(nx.dijkstra_path_length(self.g, a, b, weight="w"))
        except nx.NetworkXNoPath:
            return None

    def reachable(self, a: str, b: str) -> bool:
        return nx.has_path(self.g, a, b)

    def successors(self, u: str) -> set[str]:
        return set(self.g.successors(u)) if self.directed else set(self.g.neighbors(u))

    def has_cycle(self) -> bool:
        if self.directed:
            return not nx.is_directed_acyclic_graph(self.g)
        return nx.number_of_selfloops(self.g) > 0 or bool(nx.cycle_basis(self.g))

    def arcs(self) -> nx.DiGraph:
        """The graph as arcs (an undirected edge is two): what Kahn's algorithm runs on."""
        return self.g if self.directed else self.g.to_directed()


def exact(value: Any) -> Fraction:
    """A JSON number (or its text) as an exact Fraction: 0.1 is 1/10."""
    if isinstance(value, Fraction):
        return value
    return Fraction(str(value))


def show(value: Fraction | None) -> str:
    if value is None:
        return "unreachable"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def build(metadata: dict[str, Any]) -> ProblemGraph | None:
    """The problem's graph from its metadata (the importers' normalized form); None without one."""
    spec, task = metadata.get("graph"), metadata.get("task")
    if not isinstance(spec, dict) or not isinstance(spec.get("edges"), list):
        return None
    directed = bool(spec.get("directed"))
    g: nx.Graph = nx.DiGraph() if directed else nx.Graph()
    g.add_nodes_from(str(n) for n in spec.get("nodes") or [])
    weighted = bool(spec.get("weighted"))
    for edge in spec["edges"]:
        if not isinstance(edge, list) or len(edge) < 2:
            return None
        w = exact(edge[2]) if weighted and len(edge) > 2 else Fraction(1)
        g.add_edge(str(edge[0]), str(edge[1]), w=w)
    return ProblemGraph(g=g, directed=directed, weighted=weighted, task=dict(task or {}))


def topo_prefix_problem(pg: ProblemGraph, order: list[str], arcs: nx.DiGraph) -> str | None:
    """Why `order` is not the start of a topological order of `arcs` (None when it is)."""
    placed: set[str] = set()
    for node in order:
        if node in placed:
            return f"{node} appears twice"
        missing = [p for p in arcs.predecessors(node) if p not in placed]
        if missing:
            return f"{node} comes before its predecessor {sorted(missing)[0]}"
        placed.add(node)
    return None


def kahn_stuck(arcs: nx.DiGraph, order: list[str]) -> list[str]:
    """Nodes outside `order` whose predecessors are all in it (Kahn could still take them)."""
    placed = set(order)
    return sorted(
        n for n in arcs.nodes if n not in placed and all(p in placed for p in arcs.predecessors(n))
    )


def _reach(pg: ProblemGraph, start: str) -> set[str]:
    if pg.directed:
        return set(nx.descendants(pg.g, start)) | {start}
    return set(nx.node_connected_component(pg.g, start))


def _ranked(pg: ProblemGraph, node: str, rank: dict[str, int]) -> list[str]:
    """The node's successors, those the order lists first in its order, then the others."""
    return sorted(pg.successors(node), key=lambda n: (rank.get(n, len(rank)), n))


def traversal_problem(pg: ProblemGraph, algo: str, start: str, order: list[str]) -> str | None:
    """Why `order` is not a DFS preorder / BFS order from `start` (None when it is one).

    An order is one exactly when the search that always takes the neighbour the order lists
    first reproduces it, visiting everything `start` reaches."""
    if not order or order[0] != start:
        return f"a traversal from {start} starts at {start}"
    if len(set(order)) != len(order):
        return "a node is visited twice"
    rank = {node: i for i, node in enumerate(order)}
    seen = {start}
    walk = [start]
    if algo == "bfs":
        queue = [start]
        while queue:
            for n in _ranked(pg, queue.pop(0), rank):
                if n not in seen:
                    seen.add(n)
                    walk.append(n)
                    queue.append(n)
    else:
        stack = [iter(_ranked(pg, start, rank))]
        while stack:
            n = next(stack[-1], None)
            if n is None:
                stack.pop()
            elif n not in seen:
                seen.add(n)
                walk.append(n)
                stack.append(iter(_ranked(pg, n, rank)))
    if walk == order:
        return None
    for i, (want, got) in enumerate(zip(walk, order, strict=False)):
        if want != got:
            if got not in _reach(pg, start):
                return f"{got} is not reachable from {start}"
            return f"after {', '.join(order[:i])} the search visits {want}, not {got}"
    if len(order) < len(walk):
        return f"the traversal misses {walk[len(order)]}"
    return f"{order[len(walk)]} is not reachable from {start}"


def max_matching_size(pg: ProblemGraph) -> int:
    """The maximum matching's size (edges as undirected, self-loops ignored): Hopcroft-Karp on
    a bipartite graph (the matching tasks'), Edmonds' blossoms otherwise. Once per graph."""
    if pg.cache.get("matching") is None:
        g = pg.g.to_undirected() if pg.directed else pg.g
        simple = nx.Graph()
        simple.add_nodes_from(g.nodes)
        simple.add_edges_from((u, v) for u, v in g.edges if u != v)
        if nx.is_bipartite(simple):
            colour = nx.bipartite.color(simple)
            top = {n for n, c in colour.items() if c == 0}
            size = len(nx.bipartite.hopcroft_karp_matching(simple, top_nodes=top)) // 2
        else:
            size = len(nx.max_weight_matching(simple, maxcardinality=True))
        pg.cache["matching"] = size
    return pg.cache["matching"]
