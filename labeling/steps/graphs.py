"""A graph problem's graph (domain `graph`) as the pages draw it and as exports write it.

The importers keep it checked and normalized in Problem.metadata (labeling/importers/graph.py):
{"graph": {directed, weighted, nodes, edges}, "task": {kind, source?, target?}}, and
`graph_in_text` when the problem's own text already states it (GraphSilo rows).
"""

from typing import Any


def problem_graph(metadata: dict | None) -> dict[str, Any] | None:
    """The problem's graph and task as the importers normalized them
    ({directed, weighted, nodes, edges, task}), or None for a problem without a graph."""
    graph = (metadata or {}).get("graph")
    if not isinstance(graph, dict) or not isinstance(graph.get("edges"), list):
        return None
    task = (metadata or {}).get("task")
    return {
        "directed": bool(graph.get("directed")),
        "weighted": bool(graph.get("weighted")),
        "nodes": [str(n) for n in graph.get("nodes") or []],
        "edges": graph["edges"],
        "task": task if isinstance(task, dict) else {},
    }


def _weighted(name: str, weight: Any) -> str:
    return f"{name} (weight: {weight})" if weight is not None else name


TASK_WORDS = {
    "shortest_path": "the shortest path from node {source} to node {target}",
    "connectivity": "whether there is a path from node {source} to node {target}",
    "cycle": "whether the graph has a cycle",
    "topological_order": "a topological order of the nodes",
    "bipartite_matching": "a maximum matching",
    "traversal": "the {algorithm} order of the nodes from node {source}",
}


def graph_prompt(metadata: dict | None) -> str:
    """The graph in words, for a model's prompt: GraphSilo's own phrasing ("Given a directed
    graph:", "Node u is connected to nodes v (weight: 3), w.", each undirected edge from both
    ends), then the task. "" without a graph, or when the problem's text already states it."""
    graph = problem_graph(metadata)
    if graph is None or (metadata or {}).get("graph_in_text"):
        return ""
    out: dict[str, list[str]] = {str(n): [] for n in graph["nodes"]}
    for edge in graph["edges"]:
        u, v = str(edge[0]), str(edge[1])
        w = edge[2] if graph["weighted"] and len(edge) > 2 else None
        out.setdefault(u, []).append(_weighted(v, w))
        if not graph["directed"] and u != v:
            out.setdefault(v, []).append(_weighted(u, w))
    kind = "directed" if graph["directed"] else "undirected"
    lines = [f"Given {'a' if graph['directed'] else 'an'} {kind} graph:"]
    for node, targets in out.items():
        if targets:
            word = "node" if len(targets) == 1 else "nodes"
            lines.append(f"Node {node} is connected to {word} {', '.join(targets)}.")
    isolated = [
        node
        for node, targets in out.items()
        if not targets and not any(node in (str(e[0]), str(e[1])) for e in graph["edges"])
    ]
    if isolated:
        lines.append(f"Nodes without edges: {', '.join(isolated)}.")
    task = graph["task"]
    words = TASK_WORDS.get(str(task.get("kind")))
    fields = {"algorithm": "traversal", **task}
    if fields.get("algorithm") in ("bfs", "dfs"):
        fields["algorithm"] = fields["algorithm"].upper()
    needs = [k for k in ("source", "target", "algorithm") if "{" + k + "}" in (words or "")]
    if words and all(k in fields for k in needs):
        lines.append(f"Task: find {words.format(**fields)}.")
    return "\n".join(lines)


def with_graph(problem_text: str, metadata: dict | None) -> str:
    """The problem's text followed by its graph in words (unchanged for other problems)."""
    prompt = graph_prompt(metadata)
    return f"{problem_text}\n\n{prompt}" if prompt else problem_text
