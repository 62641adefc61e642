"""The graph checker: claims found in prose and decided exactly on the problem's graph."""

import pytest

from autolabel.engines.base import CHECKS_OUT, SolutionInput
from autolabel.engines.graph import GraphEngine
from autolabel.graphcheck import build, check_step, find_claims
from autolabel.registry import ENGINES
from labeling.models import DOMAIN_SOURCES, Domain


def _graph(edges, *, directed=False, nodes=None, task=None):
    weighted = any(len(e) == 3 for e in edges)
    names = nodes or sorted({str(n) for e in edges for n in e[:2]})
    spec = {"directed": directed, "weighted": weighted, "nodes": names, "edges": edges}
    return build({"graph": spec, "task": task or {}})


# A: the weighted undirected graph of the demo's first problem (distances from A: C 2, B 3,
# D 8, E 10, F 13).
WEIGHTED = _graph(
    [
        ["A", "B", 4],
        ["A", "C", 2],
        ["B", "C", 1],
        ["B", "D", 5],
        ["C", "D", 8],
        ["C", "E", 10],
        ["D", "E", 2],
        ["D", "F", 6],
        ["E", "F", 3],
    ],
    task={"kind": "shortest_path", "source": "A", "target": "F"},
)
# A DAG with a reachable pair and an unreachable one.
DAG = _graph(
    [["A", "C"], ["B", "C"], ["C", "D"], ["B", "E"], ["D", "F"], ["E", "F"]], directed=True
)
CYCLIC = _graph([["A", "B"], ["B", "C"], ["C", "D"], ["D", "B"], ["D", "E"]], directed=True)
TWO_PARTS = _graph([["A", "B"], ["B", "C"], ["E", "F"], ["F", "G"], ["G", "E"]])
BIPARTITE = _graph([["Ann", "X"], ["Ann", "Y"], ["Bob", "X"], ["Cat", "Y"], ["Cat", "Z"]])
TREE = _graph([["0", "1"], ["0", "2"], ["1", "3"], ["2", "4"], ["4", "5"]])


def _verdict(text, pg):
    verdict = check_step(text, pg)
    return verdict.verdict, [(c.kind, c.holds) for c in verdict.claims]


@pytest.mark.parametrize(
    ("pg", "true", "false", "kind"),
    [
        (
            WEIGHTED,
            "The distance from A to F is 13.",
            "The distance from A to F is 14.",
            "distance",
        ),
        (WEIGHTED, "So dist(A, E) = 8 + 2 = 10.", "So dist(A, E) = 8 + 3 = 11.", "distance"),
        (
            WEIGHTED,
            "The shortest distance to D is 8.",
            "The shortest distance to D is 9.",
            "distance_from_source",
        ),
        (WEIGHTED, "Path A-C-B-D has length 8.", "Path A-C-B-D has length 9.", "path_weight"),
        (
            WEIGHTED,
            "The path A->C->B costs 2 + 1 = 3.",
            "The path A->C->B costs 2 + 2 = 4.",
            "path_weight",
        ),
        (
            WEIGHTED,
            "The shortest path from A to F is A-C-B-D-E-F with length 13.",
            "The shortest path from A to F is A-B-D-F.",
            "shortest_path",
        ),
        (WEIGHTED, "The edge (B, C) has weight 1.", "The edge (B,C) has weight 3.", "edge_weight"),
        (
            DAG,
            "There is an edge from B to E.",
            "There is an edge from E to B.",
            "edge_exists",
        ),
        (DAG, "F is reachable from A.", "E is reachable from A.", "reachable"),
        (DAG, "E is not reachable from A.", "There is no path from A to F.", "reachable"),
        (TWO_PARTS, "A and C are connected.", "A and E are connected.", "connected"),
        (TWO_PARTS, "The graph has 2 connected components.", "The graph is connected.", None),
        (CYCLIC, "The graph has a cycle B->C->D->B.", "The graph has a cycle B->C->E->B.", None),
        (CYCLIC, "So the graph contains a cycle.", "So the graph is acyclic.", "has_cycle"),
        (DAG, "There is no cycle.", "The graph has a cycle.", "has_cycle"),
        (DAG, "Order so far: A, B, C.", "Order so far: A, C, B.", "topo_prefix"),
        (
            DAG,
            "A topological order is A, B, C, D, E, F.",
            "A topological order is A, B, C, D, F, E.",
            "topo_full",
        ),
        (
            DAG,
            "The result of topological sorting: [A, B, C, E, D, F] contains all the nodes.",
            "The result of topological sorting: [A, B, C] does not contain all the nodes.",
            "topo_kahn",
        ),
        (BIPARTITE, "The maximum matching has size 3.", "Matching size is 2.", "matching_size"),
        (
            BIPARTITE,
            "This gives the matching {Bob-X, Ann-Y, Cat-Z}.",
            "This gives the matching {Ann-X, Bob-X}.",
            "matching",
        ),
        (
            TREE,
            "The BFS order from node 0 is [0, 1, 2, 3, 4, 5].",
            "The BFS order from node 0 is [0, 1, 3, 2, 4, 5].",
            "traversal",
        ),
        (
            TREE,
            "The DFS traversal from 0 is [0, 1, 3, 2, 4, 5].",
            "The DFS traversal from 0 is [0, 1, 2, 3, 4, 5].",
            "traversal",
        ),
        (TREE, "Node 0 has degree 2.", "The degree of 4 is 1.", "degree"),
        (DAG, "The in-degree of C is 2.", "The out-degree of C is 2.", "degree"),
        (TREE, "The neighbours of 0 are [1, 2].", "The neighbours of 0 are [1].", "neighbors"),
        (TREE, "The graph is bipartite.", "The graph is not bipartite.", "bipartite"),
    ],
)
def test_a_true_claim_checks_out_and_a_false_one_is_refuted(pg, true, false, kind):
    verdict, claims = _verdict(true, pg)
    assert verdict == "verified", (true, claims)
    assert all(holds for _, holds in claims)
    verdict, claims = _verdict(false, pg)
    assert verdict == "refuted", (false, claims)
    if kind:
        assert (kind, False) in claims


def test_a_refuted_claim_carries_the_true_value_and_why():
    verdict = check_step("The edge A->C has weight 4, so the distance from A to D is 7.", WEIGHTED)
    evidence = verdict.as_evidence()
    assert evidence["verdict"] == "refuted" and evidence["checker"] == "graph"
    failed = {c["kind"]: c for c in evidence["failed"]}
    # Undirected: A->C is the edge A-C (weight 2); dist(A, D) is 8.
    assert failed["edge_weight"]["lhs_value"] == "2" and failed["edge_weight"]["rhs"] == "4"
    assert failed["distance"]["lhs"] == "dist(A, D)"
    assert (
        failed["distance"]["lhs_value"] == "8"
        and failed["distance"]["reason"] == "the distance is 8"
    )


def test_exact_weights_no_float_error():
    pg = _graph([["a", "b", 0.1], ["b", "c", 0.2]])
    assert _verdict("The path a-b-c has length 0.3.", pg)[0] == "verified"
    assert _verdict("The distance from a to c is 0.31.", pg)[0] == "refuted"


def test_directed_edges_keep_their_direction():
    pg = _graph([["S", "A", 3], ["A", "T", 2]], directed=True)
    assert _verdict("Path S->A->T has length 5.", pg)[0] == "verified"
    verdict = check_step("Path T->A->S has length 5.", pg)
    assert verdict.verdict == "refuted"
    assert verdict.failed[0].reason == "there is no edge T->A"
    assert _verdict("The distance from T to S is infinite.", pg)[0] == "verified"


@pytest.mark.parametrize(
    "text",
    [
        "Is F reachable from A?",
        "Suppose the distance from A to F is 12; then something else follows.",
        "We need to check whether the distance from A to F is 12.",
        "Update the distance from A to D to 10 for now.",
        "The current matching size is 1.",
        "Try a DFS from A: A->B->C.",
        "Visit node C. Unvisited neighbors of node C are [D].",  # GraphSilo's BFS, a state
        "The distance from A to Q is 3.",  # Q is not a node: not a claim about this graph
        "Visit node C and remove it from the graph.",
        "Let's solve it step by step.",
    ],
)
def test_questions_hypotheses_working_values_and_unknown_nodes_are_not_claims(text):
    pg = BIPARTITE if "matching" in text else WEIGHTED
    assert check_step(text, pg).verdict == "unknown", find_claims(text, pg.nodes)


def test_claims_that_do_not_apply_to_the_kind_of_graph_say_nothing():
    # "connected" and plain "degree" are ambiguous on a directed graph; a topological order
    # is undefined on an undirected one.
    assert check_step("A and F are connected.", DAG).verdict == "unknown"
    assert check_step("Node C has degree 3.", DAG).verdict == "unknown"
    assert check_step("Order so far: A, B.", TWO_PARTS).verdict == "unknown"


def test_the_engine_labels_like_the_symbolic_one():
    metadata = {
        "graph": {
            "directed": True,
            "weighted": True,
            "nodes": ["S", "A", "B", "C", "T"],
            "edges": [
                ["S", "A", 3],
                ["S", "B", 1],
                ["B", "A", 1],
                ["A", "C", 2],
                ["B", "C", 6],
                ["C", "T", 1],
                ["A", "T", 7],
            ],
        },
        "task": {"kind": "shortest_path", "source": "S", "target": "T"},
    }
    steps = (
        "The path S->B->A has length 2, so the distance from S to A is 2.",
        "The edge A->C has weight 4, so the distance from S to C is 6.",
        "Let us continue.",
    )
    result = GraphEngine()(
        SolutionInput(problem="p", gold_answer="5", steps=steps, problem_metadata=metadata), {}
    )
    by_step = {s.step_index: s for s in result.suggestions}
    assert result.source == "graph" and result.agent.startswith("networkx/graph-")
    assert by_step[0].value is None and by_step[0].evidence["kind"] == CHECKS_OUT
    assert by_step[0].score is None
    assert by_step[1].value == -1 and by_step[1].evidence["verdict"] == "refuted"
    assert 2 not in by_step and result.withdrawn == [2]
    # A problem without a graph gets nothing; params are refused.
    empty = GraphEngine()(SolutionInput(problem="p", gold_answer="", steps=steps), {})
    assert empty.suggestions == [] and empty.withdrawn == []
    with pytest.raises(ValueError, match="unknown graph params"):
        GraphEngine()(SolutionInput(problem="p", gold_answer="", steps=steps), {"x": 1})


def test_the_engine_is_registered_for_graph_projects_only():
    assert isinstance(ENGINES["graph"], GraphEngine)
    assert DOMAIN_SOURCES[Domain.GRAPH][0] == "graph"
    # and for no other single domain (a many-domains project offers every domain's sources).
    others = [k for k, v in DOMAIN_SOURCES.items() if "graph" in v and k != Domain.GRAPH]
    assert others in ([], [Domain.MIXED])


@pytest.mark.django_db
def test_a_graph_run_on_the_demo_problems():
    from pathlib import Path

    from autolabel.services import (
        autolabel_item_process,
        autolabel_run_chunks,
        autolabel_run_create,
    )
    from labeling.models import Suggestion
    from labeling.services.imports import import_file
    from tests.factories import ProjectFactory

    project = ProjectFactory(domain="graph")
    demo = Path(__file__).resolve().parents[2] / "labeling" / "demo"
    import_file(project=project, path=demo / "graph_demo.jsonl", fmt="steplab", labels_as="none")
    import_file(
        project=project, path=demo / "graphsilo_demo.jsonl", fmt="graphsilo", labels_as="none"
    )
    run = autolabel_run_create(project=project, sources=["graph"])
    for chunk in autolabel_run_chunks(run=run):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    assert sorted(set(run.items.values_list("status", "error"))) == [("done", "")]
    assert run.items.count() == 10
    refuted = sorted(
        Suggestion.objects.filter(source="graph", value=-1).values_list(
            "step__solution__external_id", "step__index"
        )
    )
    # Every −1 is on a step the demo's own labels call wrong.
    assert refuted == [
        ("graph-components-1", 2),  # E and C are connected (they are not)
        ("graph-components-1", 3),
        ("graph-cycle-2", 3),  # no edge 4->1
        ("graph-cycle-2", 4),
        ("graph-dijkstra-2", 2),  # A->C weighs 2, not 4
        ("graph-dijkstra-2", 4),
        ("graph-matching-2", 2),  # a maximum matching has 3 edges
        ("graph-topo-1", 2),  # F before its predecessor D
        ("graph-topo-1", 3),
        ("graphsilo-style-connectivity-1", 1),  # 4 has no successor
    ]
    checks_out = Suggestion.objects.filter(source="graph", value=None)
    assert checks_out.count() == 20
    assert {s.evidence["kind"] for s in checks_out} == {CHECKS_OUT}


def test_a_traversal_without_a_start_is_read_from_the_traversal_tasks_source():
    edges = [["0", "1"], ["0", "2"], ["1", "3"], ["2", "4"], ["4", "5"]]
    task = {"kind": "traversal", "source": "0", "algorithm": "bfs"}
    pg = _graph(edges, task=task)
    # GraphSilo's BFS answer step, \\boxed{} and all.
    assert _verdict("So the BFS traversal is \\boxed{[0, 1, 2, 3, 4, 5]}", pg)[0] == "verified"
    # 2 before 1 is a BFS order too (then 2's child before 1's); 3 before 2 is not.
    assert _verdict("So the BFS traversal is \\boxed{[0, 2, 1, 4, 3, 5]}", pg)[0] == "verified"
    verdict = check_step("So the BFS traversal is \\boxed{[0, 1, 3, 2, 4, 5]}", pg)
    assert verdict.verdict == "refuted"
    assert verdict.failed[0].reason == "after 0, 1 the search visits 2, not 3"
    # Without a traversal task there is no start to check it from.
    assert check_step("So the BFS traversal is [0, 1, 2, 3, 4, 5].", TREE).verdict == "unknown"


def test_a_large_bipartite_matching_is_decided_quickly():
    import time

    # 400 workers, 400 jobs, each worker joined to three jobs: a perfect matching exists.
    edges = [[f"w{i}", f"j{(i + d) % 400}"] for i in range(400) for d in (0, 7, 31)]
    pg = _graph(edges)
    start = time.perf_counter()
    assert _verdict("The maximum matching has size 400.", pg)[0] == "verified"
    assert _verdict("So the maximum matching has size 399.", pg)[0] == "refuted"
    assert time.perf_counter() - start < 5


def test_long_lists_that_do_not_end_the_sentence_take_no_time():
    """A bare list's repetition is possessive: retrying every shorter list was exponential
    (a 60-item "order so far" that the sentence went on after ran for minutes)."""
    import time

    nodes = [str(i) for i in range(300)]
    pg = _graph([[str(i), str(i + 1)] for i in range(299)], directed=True)
    start = time.perf_counter()
    for text in (
        "Order so far: " + ", ".join(nodes) + " and then more words",
        "The DFS traversal from 0 is " + ", ".join(nodes) + " x",
        "The neighbours of 0 are " + ", ".join(nodes * 5) + " and",
    ):
        assert check_step(text, pg).verdict == "unknown"
    assert check_step("Order so far: " + ", ".join(nodes) + ".", pg).verdict == "verified"
    assert time.perf_counter() - start < 2
