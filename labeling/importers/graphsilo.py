"""GraphSilo rows (GraphPRM, Peng et al. 2025): a graph problem in prose, one solution a line.

    {"problem": "Given a directed graph:\\nNode 21 is connected to nodes 9, 4.\\n...\\n
                 Is there a directed path from node 10 to node 18? ...",
     "answer": "False", "solution": "Let's solve it step by step. ...\\nThe DFS ...",
     "task": "connectivity" | "cycle" | "shortest_path" | "BFS" | "DFS", "id"?, "labels"?}

The graph is read from the problem's prose: "Given a directed graph:" (or "an undirected
graph"), then one line per node, "Node u is connected to nodes v, w." or, weighted,
"Node u is connected to nodes v (weight: 3), w (weight: 1)."; an undirected graph lists each
edge from both ends. The question gives the task's endpoints ("from node a to node b",
"between node a and node b"; "Start from node a" for a BFS or DFS order). The solution is
split into steps at its lines. The problem keeps its text; its metadata gets the same
{"graph", "task"} a steplab row carries (labeling/importers/graph.py), so the graph checker
and the drawing read both alike.
"""

import re
from typing import Any

from .fields import Row
from .graph import parse_graph, parse_task
from .ids import content_id
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

TASKS = {
    "connectivity": "connectivity",
    "cycle": "cycle",
    "shortest_path": "shortest_path",
    "BFS": "traversal",
    "DFS": "traversal",
}
_HEAD = re.compile(r"^Given an? (directed|undirected) graph:\s*$", re.I)
_NODE_LINE = re.compile(r"^Node (\w+) is connected to nodes? (.+?)\.?\s*$")
_TARGET = re.compile(r"^(\w+)(?: \(weight: (\d+(?:\.\d+)?)\))?$")
_ENDPOINTS = re.compile(r"\b(?:from|between) node (\w+) (?:to|and) node (\w+)", re.I)
_START = re.compile(r"\bStart from node (\w+)", re.I)


def _graph(row: Row, text: str) -> tuple[dict[str, Any], str]:
    """The graph spec read from the problem's lines, and the question that follows them."""
    lines = text.splitlines()
    head = next((i for i, line in enumerate(lines) if _HEAD.match(line.strip())), None)
    if head is None:
        raise row.error(
            "problem", "expected a line 'Given a directed graph:' or 'Given an undirected graph:'"
        )
    directed = _HEAD.match(lines[head].strip()).group(1).lower() == "directed"  # type: ignore[union-attr]
    edges: list[list[Any]] = []
    i = head + 1
    while i < len(lines) and (match := _NODE_LINE.match(lines[i].strip())):
        for item in match.group(2).split(","):
            target = _TARGET.match(item.strip())
            if target is None:
                raise row.error(
                    "problem",
                    f"line {i + 1} of the problem: cannot read {item.strip()!r} as a node",
                )
            weight = target.group(2)
            edge: list[Any] = [match.group(1), target.group(1)]
            if weight is not None:
                edge.append(float(weight) if "." in weight else int(weight))
            edges.append(edge)
        i += 1
    if not edges:
        raise row.error("problem", "no 'Node u is connected to ...' line after the graph's head")
    return {"directed": directed, "edges": edges}, "\n".join(lines[i:])


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    text = row.string(data, "problem")
    kind = row.string(data, "task")
    if kind not in TASKS:
        raise row.error(
            "task",
            f"GraphSilo task {kind!r} is not one steplab checks; expected {', '.join(TASKS)}",
        )
    spec, question = _graph(row, text)
    weights = {len(edge) for edge in spec["edges"]}
    if len(weights) > 1:
        raise row.error("problem", "some edges have a weight and others do not")
    graph = parse_graph(row, spec, "problem")
    task: dict[str, Any] = {"kind": TASKS[kind]}
    if TASKS[kind] in ("connectivity", "shortest_path"):
        match = _ENDPOINTS.search(question)
        if match is None:
            raise row.error(
                "problem", "the question names no 'from node a to node b' (or 'between')"
            )
        for name in match.groups():
            if name not in graph["nodes"]:
                graph["nodes"].append(name)  # a node no edge touches
        task.update(source=match.group(1), target=match.group(2))
    if TASKS[kind] == "traversal":
        match = _START.search(question)
        if match is None:
            raise row.error("problem", "the question names no 'Start from node a'")
        if match.group(1) not in graph["nodes"]:
            graph["nodes"].append(match.group(1))
        task.update(source=match.group(1), algorithm=kind.lower())
    task = parse_task(row, {"task": task}, graph["nodes"])
    texts = [line.strip() for line in row.string(data, "solution").splitlines() if line.strip()]
    if not texts:
        raise row.error("solution", "the solution has no steps")
    labels = data.get("labels") or []
    if not isinstance(labels, list) or len(labels) > len(texts):
        raise row.error("labels", f"expected a list of at most {len(texts)} labels")
    values = [row.rating(v, f"labels[{i}]") for i, v in enumerate(labels)]
    values += [None] * (len(texts) - len(values))
    metadata = {"graph": graph, "task": task}
    pid = content_id("problem", text, metadata)
    metadata["graph_in_text"] = True  # exports need not state it again (labeling/steps/graphs.py)
    sid = data.get("id")
    solution = ParsedSolution(
        external_id=str(sid)
        if isinstance(sid, str | int) and sid != ""
        else content_id("solution", pid, texts),
        steps=[ParsedStep(t, v) for t, v in zip(texts, values, strict=True)],
        source="graphsilo",
        label_agent="graphsilo",
        label_annotator="graphsilo",
        finish_reason="solution",
    )
    problem = ParsedProblem(
        text=text,
        external_id=pid,
        answer=row.string(data, "answer", optional=True),
        source="graphsilo",
        metadata=metadata,
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
