"""What the labeling and review pages draw of a graph problem (domain `graph`)."""

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
