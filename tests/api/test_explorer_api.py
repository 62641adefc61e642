"""The solutions explorer API: filters, sorts, bounds, paging, bulk actions, permissions."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from labeling.models import (
    Assignment,
    GoldLabel,
    ImportJob,
    LabelHistory,
    Resolution,
    Solution,
)
from labeling.services.queue.pool import queue_open_refresh
from labeling.services.review.resolutions import resolution_create
from tests.factories import (
    ProjectFactory,
    SolutionFactory,
    SuggestionFactory,
)
from tests.review.conftest import label, member

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def ex(db):
    """Overlap-2 project: disputed (a and b disagree), started (a only), reviewed (a
    resolution), flagged (a symbolic −1), gold, plain; plus another project's solution."""
    project = ProjectFactory(name="Explore", overlap=2)
    a, b = member(project, "a"), member(project, "b")
    admin = member(project, "boss", "admin")
    reviewer = member(project, "rev", "reviewer")
    w = {"project": project, "a": a, "b": b, "admin": admin, "reviewer": reviewer}
    w["disputed"] = SolutionFactory(problem__project=project, problem__text="Solve $x^2 = 4$")
    label(a, project, [1, 1, -1])
    label(b, project, [1, -1, -1])
    w["reviewed"] = SolutionFactory(problem__project=project, problem__text="Integrate $e^x$")
    label(b, project, [1, 1, 1])
    label(a, project, [1, 1, -1])
    w["reviewed"].refresh_from_db()
    w["started"] = SolutionFactory(problem__project=project, problem__text="Add $1 + 1$")
    label(a, project, [1, 1, 1])
    steps = list(w["reviewed"].steps.order_by("index").values_list("id", flat=True))
    resolution_create(
        solution=w["reviewed"],
        ratings={steps[0]: 1, steps[1]: -1, steps[2]: None},
        provenance="reviewer",
        resolved_by=reviewer,
    )
    job = ImportJob.objects.create(project=project, filename="f.jsonl")
    w["job"] = job
    w["flagged"] = SolutionFactory(
        problem__project=project, problem__text="Prove $\\sqrt{2}$ is irrational", import_job=job
    )
    SuggestionFactory(step=w["flagged"].steps.get(index=1), source="symbolic", value=-1)
    w["gold"] = SolutionFactory(problem__project=project, is_gold=True, answer_correct=True)
    w["plain"] = SolutionFactory(problem__project=project, answer_correct=False)
    w["elsewhere"] = SolutionFactory(problem__text="Solve $x^2 = 4$ elsewhere")
    queue_open_refresh(project=project)  # the factory's gold row skipped the services
    w["api"] = _client(admin)
    w["url"] = f"/api/projects/{project.pk}/explorer/"
    return w


def ids(ex, **params) -> list[int]:
    response = ex["api"].get(ex["url"], params)
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def test_lists_the_projects_solutions_with_their_state(ex):
    body = ex["api"].get(ex["url"]).json()
    assert body["count"] == 6 and body["count_capped"] is False
    rows = {row["id"]: row for row in body["results"]}
    assert ex["elsewhere"].pk not in rows
    assert [r["id"] for r in body["results"]] == sorted(rows)
    assert rows[ex["disputed"].pk]["label_state"] == "labeled"
    assert rows[ex["disputed"].pk]["reasons"] == ["disagreement"]
    assert rows[ex["started"].pk]["label_state"] == "in_progress"
    assert rows[ex["reviewed"].pk]["label_state"] == "reviewed"
    assert rows[ex["plain"].pk]["label_state"] == "unlabeled"
    assert rows[ex["flagged"].pk]["verdict"] == "error"
    assert rows[ex["flagged"].pk]["import_job_id"] == ex["job"].pk
    assert rows[ex["disputed"].pk]["problem_text"] == "Solve $x^2 = 4$"
    assert rows[ex["disputed"].pk]["steps_count"] == 3


def test_filters(ex):
    assert ids(ex, q="x^2") == [ex["disputed"].pk]
    assert ids(ex, q="INTEGRATE") == [ex["reviewed"].pk]
    # LIKE's wildcards are literal characters in a search.
    assert ids(ex, q="%") == [] and ids(ex, q="_") == []
    assert ids(ex, q="\\sqrt") == [ex["flagged"].pk]
    assert ids(ex, state="unlabeled") == [ex["flagged"].pk, ex["gold"].pk, ex["plain"].pk]
    assert ids(ex, state="in_progress") == [ex["started"].pk]
    assert ids(ex, state="labeled") == [ex["disputed"].pk]
    assert ids(ex, state="reviewed") == [ex["reviewed"].pk]
    assert ids(ex, disagreement="true") == [ex["disputed"].pk, ex["reviewed"].pk]
    assert ids(ex, disagreement="false") == [
        ex[k].pk for k in ("started", "flagged", "gold", "plain")
    ]
    assert ids(ex, verdict="error") == [ex["flagged"].pk]
    assert ids(ex, verdict="error", verdict_source="judge") == []
    assert ex["flagged"].pk not in ids(ex, verdict="none")
    assert ids(ex, gold="true") == [ex["gold"].pk]
    assert ids(ex, answer="wrong") == [ex["plain"].pk]
    assert ids(ex, answer="correct") == [ex["gold"].pk]
    assert ids(ex, import_job=ex["job"].pk) == [ex["flagged"].pk]
    # Gold is out of the open pool, and so is a solution whose overlap is full.
    closed = ids(ex, status="closed")
    assert ex["gold"].pk in closed and ex["disputed"].pk in closed
    assert ex["plain"].pk in ids(ex, status="open")
    assert ids(ex, q="x^2", state="reviewed") == []


def test_sorts_and_pages(ex):
    everything = ids(ex)
    assert ids(ex, sort="-created") == everything[::-1]
    by_annotations = ids(ex, sort="-annotations")
    assert by_annotations[:2] == [ex["reviewed"].pk, ex["disputed"].pk]
    assert ids(ex, sort="-agreement")[:2] == [ex["reviewed"].pk, ex["disputed"].pk]
    assert ids(ex, sort="problem") == everything  # problems were made in solution order
    first = ex["api"].get(ex["url"], {"limit": 4}).json()
    second = ex["api"].get(ex["url"], {"limit": 4, "offset": 4}).json()
    assert [r["id"] for r in first["results"] + second["results"]] == everything
    assert first["count"] == second["count"] == 6


def test_count_is_capped(ex, monkeypatch):
    from labeling.selectors import explorer as explorer_selectors

    monkeypatch.setattr(explorer_selectors, "COUNT_CAP", 4)
    # A count stops at the cap, filtered or not (an unfiltered total counted every row of the
    # project: bench/scale_bench.py)...
    body = ex["api"].get(ex["url"], {"gold": "false", "limit": 2}).json()
    assert body["count"] == 4 and body["count_capped"] is True
    assert len(body["results"]) == 2
    body = ex["api"].get(ex["url"], {"limit": 2}).json()
    assert body["count"] == 4 and body["count_capped"] is True
    # ... or at the end of the page asked for, when that is further: a page never claims
    # fewer matches than it shows.
    body = ex["api"].get(ex["url"], {"gold": "false"}).json()
    assert body["count"] == 5 and body["count_capped"] is False
    assert len(body["results"]) == 5
    body = ex["api"].get(ex["url"], {"limit": 2, "offset": 3}).json()
    assert body["count"] == 5 and body["count_capped"] is True
    body = ex["api"].get(ex["url"]).json()
    assert body["count"] == 6 and body["count_capped"] is False


@pytest.mark.parametrize(
    "params",
    [
        {"limit": 201},
        {"limit": 0},
        {"offset": -1},
        {"offset": 1_000_001},
        {"q": "x" * 201},
        {"state": "sideways"},
        {"sort": "random()"},
        {"verdict_source": "oracle"},
        {"import_job": 0},
        {"disagreement": "perhaps"},
    ],
)
def test_bounds(ex, params):
    response = ex["api"].get(ex["url"], params)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "validation_error"


def test_page_costs_the_same_queries_at_any_size(ex):
    with CaptureQueriesContext(connection) as small:
        ex["api"].get(ex["url"], {"limit": 2})
    for _ in range(5):
        SolutionFactory(problem__project=ex["project"])
    with CaptureQueriesContext(connection) as large:
        ex["api"].get(ex["url"], {"limit": 10})
    assert len(large) == len(small)


@pytest.mark.parametrize("role,status", [("annotator", 403), ("reviewer", 403), ("outsider", 404)])
def test_only_project_admins(ex, role, status):
    users = {"annotator": ex["a"], "reviewer": ex["reviewer"]}
    if role == "outsider":
        other = ProjectFactory()
        users["outsider"] = member(other, "outsider", "admin")
    client = _client(users[role])
    assert client.get(ex["url"]).status_code == status
    bulk = client.post(
        f"{ex['url']}bulk/", {"action": "mark_gold", "ids": [ex["reviewed"].pk]}, format="json"
    )
    assert bulk.status_code == status
    assert not Solution.objects.get(pk=ex["reviewed"].pk).is_gold


def bulk(ex, **body):
    response = ex["api"].post(f"{ex['url']}bulk/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_mark_gold_takes_the_resolution_labels(ex):
    targets = [ex["reviewed"].pk, ex["plain"].pk, ex["gold"].pk, ex["elsewhere"].pk]
    result = bulk(ex, action="mark_gold", ids=targets)
    assert result == {
        "action": "mark_gold",
        "matched": 3,
        "changed": 1,
        "reopened": 0,
        "skipped": {"not_reviewed": 1, "already_gold": 1},
    }
    reviewed = Solution.objects.get(pk=ex["reviewed"].pk)
    assert reviewed.is_gold and not reviewed.queue_open
    gold = dict(
        GoldLabel.objects.filter(step__solution=reviewed).values_list("step__index", "rating")
    )
    assert gold == {0: 1, 1: -1, 2: None}
    assert not Solution.objects.get(pk=ex["elsewhere"].pk).is_gold
    result = bulk(ex, action="unmark_gold", ids=[ex["reviewed"].pk, ex["plain"].pk])
    assert (result["changed"], result["skipped"]) == (1, {"not_gold": 1})
    assert not Solution.objects.get(pk=ex["reviewed"].pk).is_gold


def test_send_to_review_withdraws_the_resolution(ex):
    result = bulk(
        ex,
        action="send_to_review",
        ids=[ex["reviewed"].pk, ex["disputed"].pk, ex["plain"].pk],
    )
    assert result["changed"] == 1
    assert result["skipped"] == {"already_in_review": 1, "no_submissions": 1}
    assert not Resolution.objects.filter(solution=ex["reviewed"], is_current=True).exists()
    assert LabelHistory.objects.filter(solution=ex["reviewed"], action="withdraw").exists()
    queue = _client(ex["reviewer"]).get(f"/api/projects/{ex['project'].pk}/review/queue/")
    assert ex["reviewed"].pk in [item["id"] for item in queue.json()["results"]]


def test_requeue_releases_assigned_and_reopens_complete_solutions(ex):
    Assignment.objects.create(solution=ex["plain"], user=ex["b"])
    Assignment.objects.create(solution=ex["disputed"], user=ex["b"])
    Solution.objects.filter(pk=ex["plain"].pk).update(queue_open=False)
    result = bulk(ex, action="requeue", filter={"state": "", "sort": "created"})
    assert result["matched"] == 6
    # plain released; disputed and reviewed (complete: 2 of overlap 2) reopened for one more.
    assert (result["changed"], result["reopened"]) == (3, 2)
    assert result["skipped"] == {"gold": 1, "already_open": 2}
    assert not Assignment.objects.filter(solution=ex["plain"]).exists()
    assert Solution.objects.get(pk=ex["plain"].pk).queue_open
    assert not Assignment.objects.filter(solution=ex["disputed"]).exists()
    for key in ("disputed", "reviewed"):
        solution = Solution.objects.get(pk=ex[key].pk)
        assert (solution.extra_overlap, solution.queue_open) == (1, True)
    rows = {row["id"]: row for row in ex["api"].get(ex["url"]).json()["results"]}
    assert rows[ex["disputed"].pk]["extra_overlap"] == 1
    assert rows[ex["disputed"].pk]["label_state"] == "in_progress"
    assert rows[ex["reviewed"].pk]["label_state"] == "reviewed"  # its resolution stays
    assert rows[ex["plain"].pk]["extra_overlap"] == 0


def test_a_requeued_solution_goes_to_a_third_annotator(ex):
    """a and b labeled `disputed`; requeued, c's next task is it (most labels first), never
    a's or b's."""
    result = bulk(ex, action="requeue", ids=[ex["disputed"].pk])
    assert (result["changed"], result["reopened"], result["skipped"]) == (1, 1, {})
    claim_url = f"/api/projects/{ex['project'].pk}/queue/next/"
    for user in (ex["a"], ex["b"]):
        response = _client(user).post(claim_url)
        assert response.status_code == 200, response.content
        assert response.json()["solution"]["id"] != ex["disputed"].pk
    response = _client(member(ex["project"], "c")).post(claim_url)
    assert response.status_code == 200, response.content
    assert response.json()["solution"]["id"] == ex["disputed"].pk


def test_bulk_on_a_filter(ex):
    result = bulk(ex, action="mark_gold", filter={"q": "integrate"})
    assert (result["matched"], result["changed"]) == (1, 1)
    assert Solution.objects.get(pk=ex["reviewed"].pk).is_gold


def test_bulk_bounds(ex, monkeypatch):
    from labeling.services.projects import explorer

    url = f"{ex['url']}bulk/"
    bad = [
        {"action": "delete", "ids": [1]},
        {"action": "mark_gold"},
        {"action": "mark_gold", "ids": [0]},
        {"action": "mark_gold", "ids": list(range(1, 5002))},
        {"action": "mark_gold", "filter": {"limit": 5, "state": "nope"}},
    ]
    for body in bad:
        response = ex["api"].post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["error"]["code"] == "validation_error"
    monkeypatch.setattr(explorer, "BULK_MAX", 3)
    response = ex["api"].post(url, {"action": "requeue", "filter": {}}, format="json")
    assert response.status_code == 400
    assert "narrow the filter" in response.json()["error"]["message"]
    assert Assignment.objects.count() == 0
