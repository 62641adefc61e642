"""A graph problem's graph and task (domain `graph`), checked and normalized; no database.

    "graph": {"directed": bool, "weighted": bool?, "nodes": [name, ...]?,
              "edges": [[u, v], ...] | [[u, v, w], ...]}
    "task":  {"kind": "shortest_path" | "connectivity" | "cycle" | "topological_order"
                      | "bipartite_matching" | "traversal", "source"?: name, "target"?: name,
              "algorithm"?: "bfs" | "dfs"}

Node names are strings or integers (kept as strings). `nodes` lists every node (isolated ones
too); without it the nodes are those the edges name. `weighted` defaults to whether the edges
carry a third element; weights are non-negative numbers. An undirected graph may list an edge
once or in both directions (the same weight); a repeated edge is an error, as is an edge or a
task endpoint naming a node `nodes` does not list. `shortest_path` and `connectivity` need
`source` and `target`; `traversal` (a BFS or DFS order, `algorithm`) needs `source`. The
checker (autolabel/graphcheck) reads the normalized form:
{"directed", "weighted", "nodes": [str], "edges": [[u, v] | [u, v, w]]}.
"""

from typing import Any

from .fields import Row, json_type

TASK_KINDS = (
    "shortest_path",
    "connectivity",
    "cycle",
    "topological_order",
    "bipartite_matching",
    "traversal",
)
NEEDS = {
    "shortest_path": ("source", "target"),
    "connectivity": ("source", "target"),
    "traversal": ("source",),
}
ALGORITHMS = ("bfs", "dfs")
MAX_NODES = 1000
MAX_EDGES = 10000


def _name(row: Row, value: Any, path: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise row.error(
            path, f"expected a node name (a string or an integer), got {json_type(value)}"
        )
    return str(value)


def _weight(row: Row, value: Any, path: str) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise row.error(path, f"expected a number (the edge's weight), got {json_type(value)}")
    if value < 0 or value in (float("inf"), float("-inf")):
        raise row.error(path, f"weights must be finite and non-negative, got {value}")
    return value


def parse_graph(row: Row, spec: dict[str, Any], at: str = "graph") -> dict[str, Any]:
    """The graph object `spec` (found at `at` in the row), checked and normalized."""
    directed = row.boolean(spec, "directed", at)
    edges_in = row.array(spec, "edges", at)
    if len(edges_in) > MAX_EDGES:
        raise row.error(f"{at}.edges", f"{len(edges_in)} edges; the limit is {MAX_EDGES}")
    listed: list[str] | None = None
    if spec.get("nodes") is not None:
        listed = [
            _name(row, v, f"{at}.nodes[{i}]") for i, v in enumerate(row.array(spec, "nodes", at))
        ]
        seen: set[str] = set()
        for i, name in enumerate(listed):
            if name in seen:
                raise row.error(f"{at}.nodes[{i}]", f"node {name!r} is listed twice")
            seen.add(name)
    weighted = row.boolean(spec, "weighted", at, optional=True)
    edges: list[list[Any]] = []
    keys: dict[tuple[str, str], int | float | None] = {}
    known = set(listed) if listed is not None else None
    order: list[str] = list(listed) if listed is not None else []
    for i, edge in enumerate(edges_in):
        path = f"{at}.edges[{i}]"
        if not isinstance(edge, list) or len(edge) not in (2, 3):
            raise row.error(path, "expected [u, v] or [u, v, weight]")
        u, v = _name(row, edge[0], f"{path}[0]"), _name(row, edge[1], f"{path}[1]")
        for j, name in ((0, u), (1, v)):
            if known is not None and name not in known:
                raise row.error(f"{path}[{j}]", f"unknown node {name!r}: not in {at}.nodes")
        if weighted is None:
            weighted = len(edge) == 3
        if weighted and len(edge) != 3:
            raise row.error(path, "the graph is weighted: expected [u, v, weight]")
        if not weighted and len(edge) == 3:
            raise row.error(path, "the graph is unweighted: expected [u, v] (no weight)")
        w = _weight(row, edge[2], f"{path}[2]") if weighted else None
        key = (u, v) if directed else (min(u, v), max(u, v))
        if key in keys:
            if directed or keys[key] != w or u == v:
                raise row.error(path, f"edge ({u}, {v}) is given twice")
            continue  # an undirected edge listed in both directions, same weight
        keys[key] = w
        edges.append([u, v, w] if weighted else [u, v])
        if known is None:
            for name in (u, v):
                if name not in order:
                    order.append(name)
    if len(order) > MAX_NODES:
        raise row.error(f"{at}.nodes", f"{len(order)} nodes; the limit is {MAX_NODES}")
    if not order:
        raise row.error(f"{at}.nodes", "the graph has no nodes")
    return {"directed": directed, "weighted": bool(weighted), "nodes": order, "edges": edges}


def parse_task(row: Row, data: dict[str, Any], nodes: list[str]) -> dict[str, Any]:
    spec = row.mapping(data, "task")
    kind = row.string(spec, "kind", "task")
    if kind not in TASK_KINDS:
        raise row.error(
            "task.kind", f"unknown task kind {kind!r}; expected one of {', '.join(TASK_KINDS)}"
        )
    task: dict[str, Any] = {"kind": kind}
    known = set(nodes)
    for key in ("source", "target"):
        value = spec.get(key)
        if value is None:
            if key in NEEDS.get(kind, ()):
                raise row.error(f"task.{key}", f"missing field (a {kind} task needs it)")
            continue
        name = _name(row, value, f"task.{key}")
        if name not in known:
            raise row.error(f"task.{key}", f"unknown node {name!r}: not in the graph")
        task[key] = name
    if spec.get("algorithm") is not None:
        algorithm = row.string(spec, "algorithm", "task")
        if kind != "traversal" or algorithm not in ALGORITHMS:
            raise row.error(
                "task.algorithm", f"expected bfs or dfs on a traversal task, got {algorithm!r}"
            )
        task["algorithm"] = algorithm
    return task


def graph_metadata(row: Row, data: dict[str, Any]) -> dict[str, Any]:
    """{"graph", "task"} for a row that carries a graph; {} for one that does not."""
    if data.get("graph") is None:
        if data.get("task") is not None:
            raise row.error("graph", "missing field (a row with a `task` needs its graph)")
        return {}
    graph = parse_graph(row, row.mapping(data, "graph"))
    if data.get("task") is None:
        raise row.error("task", "missing field (a row with a `graph` needs its task)")
    return {"graph": graph, "task": parse_task(row, data, graph["nodes"])}
