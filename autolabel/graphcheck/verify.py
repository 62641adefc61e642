"""Each claim decided exactly on the problem's graph: holds, fails (with the true value), or
cannot be decided here (None: the claim does not apply to this kind of graph)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import networkx as nx

from .claims import Claim
from .graph import (
    ProblemGraph,
    exact,
    kahn_stuck,
    max_matching_size,
    show,
    topo_prefix_problem,
    traversal_problem,
)


@dataclass
class ClaimResult:
    """Shaped like the symbolic checker's, so the page shows both alike: `lhs` is what the
    claim is about, `rhs` what it says, `lhs_value` the truth, `reason` why it fails."""

    text: str
    kind: str
    lhs: str
    rhs: str
    lhs_value: str
    rhs_value: str
    holds: bool | None
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _result(
    claim: Claim, lhs: str, said: str, truth: str, holds: bool | None, reason: str = ""
) -> ClaimResult:
    return ClaimResult(
        claim.text, claim.kind, lhs, said, truth, said, holds, "" if holds else reason
    )


def _arrow(pg: ProblemGraph) -> str:
    return "->" if pg.directed else "-"


def _path_text(pg: ProblemGraph, path: list[str]) -> str:
    return _arrow(pg).join(path)


def _missing_edge(pg: ProblemGraph, path: list[str]) -> str:
    for u, v in zip(path, path[1:], strict=False):
        if not pg.has_edge(u, v):
            return f"there is no edge {u}{_arrow(pg)}{v}"
    return ""


def _distance(pg: ProblemGraph, c: Claim, a: str, b: str) -> ClaimResult:
    truth = pg.distance(a, b)
    said = exact(c.args["num"]) if c.args.get("num") else None  # None: "infinite"
    lhs = f"dist({a}, {b})"
    return _result(c, lhs, show(said), show(truth), truth == said, f"the distance is {show(truth)}")


def _path_weight(pg: ProblemGraph, c: Claim) -> ClaimResult:
    path = c.args["path"]
    total = pg.path_weight(path)
    lhs = f"length of {_path_text(pg, path)}"
    said = exact(c.args["num"])
    if total is None:
        return _result(c, lhs, show(said), "", False, _missing_edge(pg, path))
    return _result(
        c, lhs, show(said), show(total), total == said, f"the path's length is {show(total)}"
    )


def _shortest_path(pg: ProblemGraph, c: Claim) -> ClaimResult:
    a, b, path = c.args["a"], c.args["b"], c.args["path"]
    lhs = f"shortest path {a} to {b}"
    said = _path_text(pg, path)
    if path[0] != a or path[-1] != b:
        return _result(c, lhs, said, "", False, f"the path does not run from {a} to {b}")
    total = pg.path_weight(path)
    if total is None:
        return _result(c, lhs, said, "", False, _missing_edge(pg, path))
    best = pg.distance(a, b)
    if total != best:
        return _result(
            c,
            lhs,
            said,
            f"length {show(best)}",
            False,
            f"{said} has length {show(total)}; the shortest has {show(best)}",
        )
    if c.args.get("num") and exact(c.args["num"]) != total:
        return _result(
            c, lhs, c.args["num"], show(total), False, f"the path's length is {show(total)}"
        )
    return _result(c, lhs, said, said, True)


def _cycle(pg: ProblemGraph, c: Claim) -> ClaimResult:
    path = list(c.args["path"])
    if path[0] != path[-1]:
        path.append(path[0])
    said = _path_text(pg, path)
    inner = path[:-1]
    if len(set(inner)) != len(inner):
        return _result(c, "cycle", said, "", False, "the cycle repeats a node")
    if (
        not pg.directed
        and len(inner) < 3
        and not (len(inner) == 1 and pg.has_edge(inner[0], inner[0]))
    ):
        return _result(c, "cycle", said, "", False, "an undirected cycle needs three nodes")
    missing = _missing_edge(pg, path)
    return _result(c, "cycle", said, "" if missing else said, not missing, missing)


def _topo(pg: ProblemGraph, c: Claim) -> ClaimResult | None:
    order = c.args["order"]
    said = ", ".join(order) or "(empty)"
    if c.kind == "topo_kahn":
        arcs = pg.arcs()
        why = topo_prefix_problem(pg, order, arcs)
        stuck = kahn_stuck(arcs, order)
        if why is None and stuck:
            why = f"{stuck[0]} has no predecessor left and is missing"
        return _result(
            c,
            "topological sort's result",
            said,
            "" if why else said,
            why is None,
            why or "",
        )
    if not pg.directed:
        return None
    why = topo_prefix_problem(pg, order, pg.g)
    if why is None and c.kind == "topo_full" and len(order) != pg.g.number_of_nodes():
        why = f"the order has {len(order)} of the {pg.g.number_of_nodes()} nodes"
    lhs = "topological order" + (" so far" if c.kind == "topo_prefix" else "")
    return _result(c, lhs, said, "" if why else said, why is None, why or "")


def _degree(pg: ProblemGraph, c: Claim) -> ClaimResult | None:
    a, which = c.args["a"], c.args["which"]
    if pg.directed and not which:
        return None  # "degree" of a directed graph: in, out or both?
    g = pg.g
    value = g.in_degree(a) if which == "in" else g.out_degree(a) if which == "out" else g.degree(a)
    lhs = f"{which + '-' if which else ''}degree of {a}"
    said = exact(c.args["num"])
    return _result(c, lhs, show(said), str(value), said == value, f"it is {value}")


def _neighbors(pg: ProblemGraph, c: Claim) -> ClaimResult | None:
    a, which = c.args["a"], c.args["which"]
    if pg.directed and not which:
        return None
    truth = set(pg.g.predecessors(a)) if which == "in" else pg.successors(a)
    said = c.args["order"]
    holds = set(said) == truth and len(said) == len(truth)
    lhs = f"{which + '-' if which else ''}neighbours of {a}"
    return _result(
        c,
        lhs,
        ", ".join(said),
        ", ".join(sorted(truth)),
        holds,
        f"they are {', '.join(sorted(truth)) or 'none'}",
    )


def _matching(pg: ProblemGraph, c: Claim) -> ClaimResult:
    pairs = c.args["pairs"]
    said = ", ".join("-".join(p) for p in pairs)
    used: set[str] = set()
    for u, v in pairs:
        if not (pg.has_edge(u, v) or pg.has_edge(v, u)):
            return _result(c, "matching", said, "", False, f"there is no edge {u}-{v}")
        if u in used or v in used or u == v:
            return _result(
                c,
                "matching",
                said,
                "",
                False,
                f"{u if u in used else v} is matched twice",
            )
        used |= {u, v}
    if c.args["maximum"] and len(pairs) != (best := max_matching_size(pg)):
        return _result(
            c,
            "maximum matching",
            said,
            f"size {best}",
            False,
            f"a maximum matching has {best} edges",
        )
    return _result(c, "matching", said, said, True)


def check_claim(pg: ProblemGraph, c: Claim) -> ClaimResult | None:
    kind, args = c.kind, c.args
    a, b = args.get("a"), args.get("b")
    if kind == "distance":
        return _distance(pg, c, a, b)
    if kind == "distance_from_source":
        source = pg.task.get("source")
        return _distance(pg, c, source, b) if source in pg.nodes else None
    if kind == "shortest_path":
        return _shortest_path(pg, c)
    if kind == "path_weight":
        return _path_weight(pg, c)
    if kind == "edge_weight":
        said = exact(args["num"])
        lhs = f"weight of {a}{_arrow(pg)}{b}"
        if not pg.has_edge(a, b):
            return _result(
                c, lhs, show(said), "no edge", False, f"there is no edge {a}{_arrow(pg)}{b}"
            )
        w = pg.weight(a, b)
        return _result(c, lhs, show(said), show(w), w == said, f"its weight is {show(w)}")
    if kind == "edge_exists":
        truth = pg.has_edge(a, b)
        lhs = f"edge {a}{_arrow(pg)}{b}"
        return _result(
            c,
            lhs,
            _yes(not args["neg"]),
            _yes(truth),
            truth != args["neg"],
            f"there is {'an' if truth else 'no'} edge",
        )
    if kind in ("reachable", "connected"):
        if kind == "connected" and pg.directed:
            return None  # weakly or strongly? say nothing
        truth = pg.reachable(a, b)
        lhs = f"{b} reachable from {a}" if kind == "reachable" else f"{a} and {b} connected"
        return _result(
            c,
            lhs,
            _yes(not args["neg"]),
            _yes(truth),
            truth != args["neg"],
            f"the answer is {_yes(truth)}",
        )
    if kind == "cycle_path":
        return _cycle(pg, c)
    if kind == "has_cycle":
        truth = pg.has_cycle()
        return _result(
            c,
            "the graph has a cycle",
            _yes(not args["neg"]),
            _yes(truth),
            truth != args["neg"],
            f"the answer is {_yes(truth)}",
        )
    if kind in ("topo_kahn", "topo_prefix", "topo_full"):
        return _topo(pg, c)
    if kind == "traversal":
        if a is None:  # no start named: the task's source
            a = pg.task.get("source")
            if a not in pg.nodes or pg.task.get("kind") != "traversal":
                return None
        why = traversal_problem(pg, args["algo"], a, args["order"])
        said = ", ".join(args["order"])
        lhs = f"{args['algo'].upper()} from {a}"
        return _result(c, lhs, said, "" if why else said, why is None, why or "")
    if kind == "matching":
        return _matching(pg, c)
    if kind == "matching_size":
        best, said = max_matching_size(pg), exact(args["num"])
        return _result(
            c, "maximum matching size", show(said), str(best), said == best, f"it is {best}"
        )
    if kind == "degree":
        return _degree(pg, c)
    if kind == "neighbors":
        return _neighbors(pg, c)
    if kind in ("components", "graph_connected", "bipartite"):
        if pg.directed:
            return None
        if kind == "components":
            count, said = nx.number_connected_components(pg.g), exact(args["num"])
            return _result(
                c,
                "connected components",
                show(said),
                str(count),
                said == count,
                f"there are {count}",
            )
        truth = nx.is_connected(pg.g) if kind == "graph_connected" else nx.is_bipartite(pg.g)
        lhs = "the graph is " + ("connected" if kind == "graph_connected" else "bipartite")
        return _result(
            c,
            lhs,
            _yes(not args["neg"]),
            _yes(truth),
            truth != args["neg"],
            f"the answer is {_yes(truth)}",
        )
    return None
