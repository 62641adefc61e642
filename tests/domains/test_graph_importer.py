"""Graph problems on import: steplab rows with `graph` and `task`, and GraphSilo rows whose
graph is read from the problem's prose. A bad row names its file, line and field and imports
nothing; the labeling and review payloads carry the graph for the drawing."""

import io
import json

import pytest
from django.core.management import call_command

from labeling.importers import ImportFileError, detect_format, open_rows
from labeling.management.commands.load_demo import GRAPH_PROJECT
from labeling.models import Problem, Project, Solution
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

GRAPH = {
    "directed": True,
    "nodes": ["S", "A", "T"],
    "edges": [["S", "A", 3], ["A", "T", 2], ["S", "T", 9]],
}
TASK = {"kind": "shortest_path", "source": "S", "target": "T"}


def _row(**over):
    row = {"problem": "Shortest path from S to T?", "steps": ["S->A->T has length 5."]}
    row.update({"graph": GRAPH, "task": TASK})
    row.update(over)
    return {k: v for k, v in row.items() if v is not None}


def _parse(rows, fmt="steplab"):
    data = "\n".join(json.dumps(r) for r in rows).encode()
    with open_rows(io.BytesIO(data), fmt=fmt, filename="graphs.jsonl") as stream:
        return list(stream)


def test_a_steplab_row_keeps_its_graph_normalized_in_the_problems_metadata():
    # A graph row has `task` and `steps`, as an embodied episode does: it is still steplab's.
    assert detect_format(_row()) == "steplab"
    [row] = _parse([_row(graph={**GRAPH, "nodes": ["S", "A", "T", 7]})])
    graph = row.problem.metadata["graph"]
    assert graph == {
        "directed": True,
        "weighted": True,
        "nodes": ["S", "A", "T", "7"],
        "edges": [["S", "A", 3], ["A", "T", 2], ["S", "T", 9]],
    }
    assert row.problem.metadata["task"] == TASK
    # Undirected: an edge listed from both ends is one edge; nodes come from the edges.
    [row] = _parse(
        [_row(graph={"directed": False, "edges": [[1, 2], [2, 1], [2, 3]]}, task={"kind": "cycle"})]
    )
    assert row.problem.metadata["graph"] == {
        "directed": False,
        "weighted": False,
        "nodes": ["1", "2", "3"],
        "edges": [["1", "2"], ["2", "3"]],
    }


def test_the_same_question_on_another_graph_is_another_problem():
    other = {**GRAPH, "edges": [["S", "A", 1], ["A", "T", 1]]}
    a, b = _parse([_row(), _row(graph=other)])
    assert a.problem.external_id != b.problem.external_id
    assert a.solutions[0].external_id != b.solutions[0].external_id
    [again] = _parse([_row()])
    assert again.problem.external_id == a.problem.external_id  # a re-import finds it


@pytest.mark.parametrize(
    ("over", "field", "message"),
    [
        (
            {"graph": {**GRAPH, "edges": [["S", "A", 3], ["A"]]}},
            "graph.edges[1]",
            "expected [u, v]",
        ),
        ({"graph": {**GRAPH, "edges": [["S", "B", 3]]}}, "graph.edges[0][1]", "unknown node 'B'"),
        (
            {"graph": {**GRAPH, "edges": [["S", "A", "3"]]}},
            "graph.edges[0][2]",
            "expected a number",
        ),
        ({"graph": {**GRAPH, "edges": [["S", "A", -1]]}}, "graph.edges[0][2]", "non-negative"),
        (
            {"graph": {**GRAPH, "edges": [["S", "A", 3], ["A", "T"]]}},
            "graph.edges[1]",
            "the graph is weighted",
        ),
        (
            {"graph": {**GRAPH, "edges": [["S", "A", 3], ["S", "A", 4]]}},
            "graph.edges[1]",
            "given twice",
        ),
        ({"graph": {**GRAPH, "nodes": ["S", "S"]}}, "graph.nodes[1]", "listed twice"),
        ({"graph": {"edges": []}}, "graph.directed", "missing field"),
        ({"graph": [1, 2]}, "graph", "expected an object"),
        ({"task": {"kind": "coloring"}}, "task.kind", "unknown task kind 'coloring'"),
        ({"task": {"kind": "shortest_path", "source": "S"}}, "task.target", "missing field"),
        ({"task": {**TASK, "target": "Z"}}, "task.target", "unknown node 'Z'"),
        ({"task": {"kind": "traversal"}}, "task.source", "missing field"),
        ({"task": {**TASK, "algorithm": "bfs"}}, "task.algorithm", "expected bfs or dfs"),
        ({"task": None}, "task", "needs its task"),
        ({"graph": None}, "graph", "needs its graph"),
    ],
)
def test_a_bad_graph_row_names_the_file_line_and_field(over, field, message):
    with pytest.raises(ImportFileError) as caught:
        _parse([_row(), _row(**over)])
    error = caught.value
    assert (error.file, error.line, error.field) == ("graphs.jsonl", 2, field)
    assert message in error.message


@pytest.mark.django_db
def test_a_bad_line_imports_nothing(tmp_path):
    project = ProjectFactory(domain="graph")
    path = tmp_path / "graphs.jsonl"
    bad = _row(graph={**GRAPH, "edges": [["S", "Q", 1]]})
    path.write_text("\n".join(json.dumps(r) for r in (_row(), bad)) + "\n")
    with pytest.raises(ImportFileError) as caught:
        import_file(project=project, path=path, fmt="auto")
    assert (
        str(caught.value)
        == "graphs.jsonl:2: graph.edges[0][1]: unknown node 'Q': not in graph.nodes"
    )
    assert not Problem.objects.filter(project=project).exists()


SILO = {
    "problem": "Given a directed graph:\nNode 0 is connected to nodes 2, 3.\nNode 1 is connected "
    "to node 0.\nNode 3 is connected to nodes 2, 5.\nNode 5 is connected to node 1.\nIs there "
    "a directed path from node 4 to node 1? Please answer with \\boxed{True} or \\boxed{False}.",
    "answer": "False",
    "solution": "Let's solve it step by step.\nThe DFS traversal start from node 4 is [4].\n"
    "Node 1 is not in the traversal, so the answer is \\boxed{False}",
    "task": "connectivity",
}


def test_a_graphsilo_row_gets_its_graph_from_the_prose():
    assert detect_format(SILO) == "graphsilo"
    [row] = _parse([SILO], fmt="auto")
    meta = row.problem.metadata
    assert meta["graph"]["directed"] is True and meta["graph"]["weighted"] is False
    assert meta["graph"]["edges"] == [
        ["0", "2"],
        ["0", "3"],
        ["1", "0"],
        ["3", "2"],
        ["3", "5"],
        ["5", "1"],
    ]
    assert "4" in meta["graph"]["nodes"]  # named only by the question
    assert meta["task"] == {"kind": "connectivity", "source": "4", "target": "1"}
    assert [s.text for s in row.solutions[0].steps][
        1
    ] == "The DFS traversal start from node 4 is [4]."
    weighted = {
        **SILO,
        "problem": "Given an undirected graph:\nNode 0 is connected to nodes 1 (weight: 7), 2 "
        "(weight: 1).\nNode 1 is connected to node 0 (weight: 7).\nNode 2 is connected to node 0 "
        "(weight: 1).\nCalculate the distance of the shortest path from node 1 to node 2.",
        "task": "shortest_path",
    }
    bfs = {
        **SILO,
        "problem": "Given an undirected graph:\nNode 3 is connected to nodes 2, 1.\nNode 2 is "
        "connected to nodes 3, 1.\nStart from node 3, output a sequence of traversal in "
        "breadth-first search (BFS) order.",
        "task": "BFS",
    }
    [row] = _parse([bfs], fmt="graphsilo")
    assert row.problem.metadata["task"] == {"kind": "traversal", "source": "3", "algorithm": "bfs"}
    [row] = _parse([weighted], fmt="graphsilo")
    assert row.problem.metadata["graph"]["edges"] == [["0", "1", 7], ["0", "2", 1]]
    assert row.problem.metadata["task"]["source"] == "1"


@pytest.mark.parametrize(
    ("over", "field", "message"),
    [
        ({"task": "page_rank"}, "task", "GraphSilo task 'page_rank'"),
        ({"problem": "Node 0 is connected to node 1."}, "problem", "Given a directed graph"),
        (
            {"problem": "Given a directed graph:\nNode 0 is connected to nodes 1, two words.\n"},
            "problem",
            "cannot read 'two words'",
        ),
        (
            {"problem": "Given a directed graph:\nNode 0 is connected to node 1.\nIs it a DAG?"},
            "problem",
            "names no 'from node a to node b'",
        ),
        ({"solution": "\n \n"}, "solution", "no steps"),
    ],
)
def test_a_bad_graphsilo_row_names_the_line_and_field(over, field, message):
    with pytest.raises(ImportFileError) as caught:
        _parse([SILO, {**SILO, **over}], fmt="graphsilo")
    assert (caught.value.line, caught.value.field) == (2, field)
    assert message in caught.value.message


@pytest.mark.django_db
def test_load_demo_makes_the_graph_project_and_the_payloads_carry_the_graph():
    from rest_framework.test import APIClient

    from labeling.models import Role
    from tests.factories import MembershipFactory, UserFactory

    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())
    project = Project.objects.get(name=GRAPH_PROJECT)
    assert project.domain == "graph" and project.solutions.count() == 10
    kinds = {p.metadata["task"]["kind"] for p in project.problems.all()}
    assert kinds == {
        "shortest_path",
        "connectivity",
        "cycle",
        "topological_order",
        "bipartite_matching",
    }
    annotator = UserFactory()
    MembershipFactory(project=project, user=annotator, role=Role.ANNOTATOR)
    client = APIClient()
    client.force_authenticate(annotator)
    task = client.post(f"/api/projects/{project.pk}/queue/next/", format="json")
    assert task.status_code in (200, 201), task.content
    problem = task.json()["problem"]
    solution = Solution.objects.get(pk=task.json()["solution"]["id"])
    assert problem["graph"]["edges"] == solution.problem.metadata["graph"]["edges"]
    assert problem["graph"]["task"] == solution.problem.metadata["task"]
    reviewer = UserFactory()
    MembershipFactory(project=project, user=reviewer, role=Role.REVIEWER)
    client.force_authenticate(reviewer)
    detail = client.get(f"/api/solutions/{solution.pk}/review/")
    assert detail.status_code == 200, detail.content
    assert detail.json()["problem"]["graph"]["nodes"] == solution.problem.metadata["graph"]["nodes"]


def test_graph_prompt_states_the_graph_in_graphsilos_words():
    from labeling.steps.graphs import graph_prompt, with_graph

    metadata = {
        "graph": {
            "directed": False,
            "weighted": True,
            "nodes": ["A", "B", "C", "Z"],
            "edges": [["A", "B", 4], ["B", "C", 1]],
        },
        "task": {"kind": "shortest_path", "source": "A", "target": "C"},
    }
    assert graph_prompt(metadata) == (
        "Given an undirected graph:\n"
        "Node A is connected to node B (weight: 4).\n"
        "Node B is connected to nodes A (weight: 4), C (weight: 1).\n"
        "Node C is connected to node B (weight: 1).\n"
        "Nodes without edges: Z.\n"
        "Task: find the shortest path from node A to node C."
    )
    bfs = {**metadata, "task": {"kind": "traversal", "source": "B", "algorithm": "bfs"}}
    assert graph_prompt(bfs).endswith("\nTask: find the BFS order of the nodes from node B.")
    assert with_graph("Q?", {**metadata, "graph_in_text": True}) == "Q?"  # GraphSilo's text has it
    assert with_graph("Q?", {}) == "Q?"


@pytest.mark.django_db
def test_an_export_of_a_graph_project_puts_the_graph_in_the_prompt(tmp_path):
    from labeling.services.exports.snapshots import export_build, export_create
    from tests.exports.conftest import read_rows

    project = ProjectFactory(domain="graph")
    rows = (
        ("rows", {**_row(), "labels": [1]}, "steplab"),
        ("silo", {**SILO, "labels": [1] * 3}, "graphsilo"),
    )
    for name, row, fmt in rows:
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps(row) + "\n")
        import_file(project=project, path=path, fmt=fmt, labels_as="annotations")
    export = export_build(
        export=export_create(
            project=project, created_by=None, format="trl", filters={"label_source": "imported"}
        )
    )
    assert export.status == "done", export.error
    prompts = sorted(row["prompt"] for row in read_rows(export))
    assert prompts[1] == (
        "Shortest path from S to T?\n\nGiven a directed graph:\n"
        "Node S is connected to nodes A (weight: 3), T (weight: 9).\n"
        "Node A is connected to node T (weight: 2).\n"
        "Task: find the shortest path from node S to node T."
    )
    assert prompts[0] == SILO["problem"]  # stated in its own text already
