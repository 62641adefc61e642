"""The review API end to end through HTTP: queue, detail, actions, comments, feedback."""

import pytest
from rest_framework.test import APIClient

from labeling.models import Resolution
from tests.factories import SuggestionFactory
from tests.review.conftest import label, member, rw  # noqa: F401 (rw: a fixture)

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def api(rw):  # noqa: F811 (the imported fixture)
    rw["rev"] = _client(rw["reviewer"])
    rw["first"] = label(rw["a"], rw["project"], [1, 1, -1, 0], unsure=(3,))
    rw["second"] = label(rw["b"], rw["project"], [1, -1, -1, 0])
    SuggestionFactory(
        step=rw["solution"].steps.get(index=1),
        source="symbolic",
        value=-1,
        evidence={"verdict": "refuted", "failed": [{"claim": "2+2=5"}]},
    )
    return rw


def test_queue_lists_the_disagreement_with_reasons_and_counts(api):
    body = api["rev"].get(f"/api/projects/{api['project'].pk}/review/queue/").json()
    assert body["count"] == 1
    item = body["results"][0]
    assert item["id"] == api["solution"].pk
    assert item["reasons"] == ["disagreement", "unsure", "auto_conflict"]
    assert item["reason"] == "disagreement"
    assert item["annotations_submitted"] == 2 and item["resolution_id"] is None
    assert body["counts"]["disagreement"] == 1 and body["counts"]["total"] == 1
    url = f"/api/projects/{api['project'].pk}/review/queue/"
    assert api["rev"].get(url, {"annotator": api["a"].pk}).json()["count"] == 1
    assert api["rev"].get(url, {"reason": "gold_failure"}).json()["count"] == 0
    bad = api["rev"].get(url, {"state": "sideways"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"


def test_queue_names_the_annotators_its_filter_takes(api):
    """Reviewers cannot list members; the queue names the submitters for its annotator filter."""
    url = f"/api/projects/{api['project'].pk}/review/queue/"
    body = api["rev"].get(url).json()
    assert body["annotators"] == [
        {"id": api["a"].pk, "username": api["a"].username},
        {"id": api["b"].pk, "username": api["b"].username},
    ]
    assert api["rev"].get(f"/api/projects/{api['project'].pk}/members/").status_code == 403
    # Still listed after a rejection (the filter matches their rework once resubmitted).
    api["rev"].post(f"/api/annotations/{api['second'].pk}/reject/", {"comment": "redo"})
    names = [a["username"] for a in api["rev"].get(url).json()["annotators"]]
    assert names == [api["a"].username, api["b"].username]


def test_detail_shows_annotations_side_by_side(api):
    body = api["rev"].get(f"/api/solutions/{api['solution'].pk}/review/").json()
    assert [a["id"] for a in body["annotations"]] == [api["first"].pk, api["second"].pk]
    assert [a["first_error_index"] for a in body["annotations"]] == [2, 1]
    assert [[c["rating"] for c in step["labels"]] for step in body["steps"]] == [
        [1, 1],
        [1, -1],
        [-1, -1],
        [0, 0],
    ]
    assert body["steps"][3]["labels"][0]["unsure"] is True
    assert body["steps"][1]["suggestions"][0]["evidence"]["verdict"] == "refuted"
    assert body["reasons"] == ["disagreement", "unsure", "auto_conflict"]
    assert body["resolution"] is None
    assert len(body["history"]) == 8  # two submissions of four labels


def test_accept_then_stale_accept_conflicts(api):
    url = f"/api/annotations/{api['first'].pk}/accept/"
    res = api["rev"].post(url, {"expected_resolution_id": None}, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["provenance"] == "reviewer"
    assert [lab["rating"] for lab in res.json()["labels"]] == [1, 1, -1, 0]
    stale = api["rev"].post(
        f"/api/annotations/{api['second'].pk}/accept/",
        {"expected_resolution_id": None},
        format="json",
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["details"]["current_resolution_id"] == res.json()["id"]
    queue = api["rev"].get(f"/api/projects/{api['project'].pk}/review/queue/").json()
    assert queue["count"] == 0  # resolved leaves the default queue
    detail = api["rev"].get(f"/api/solutions/{api['solution'].pk}/review/").json()
    assert [s["resolved_rating"] for s in detail["steps"]] == [1, 1, -1, 0]


def test_adjudicate(api):
    steps = api["steps"]
    url = f"/api/solutions/{api['solution'].pk}/adjudicate/"
    short = api["rev"].post(url, {"labels": [{"step_id": steps[0], "rating": 1}]}, format="json")
    assert short.status_code == 400
    assert short.json()["error"]["details"]["missing_step_ids"] == steps[1:]
    labels = [{"step_id": s, "rating": r} for s, r in zip(steps, [1, -1, None, None], strict=True)]
    res = api["rev"].post(url, {"labels": labels, "comment": "2 is wrong"}, format="json")
    assert res.status_code == 200
    assert res.json()["first_error_index"] == 1
    assert sorted(res.json()["annotation_ids"]) == [api["first"].pk, api["second"].pk]
    assert Resolution.objects.get().review.comment == "2 is wrong"


def test_reject_reaches_the_annotator_with_the_comment(api):
    res = api["rev"].post(
        f"/api/annotations/{api['second'].pk}/reject/",
        {"comment": "Step 2 is correct: 2x = 6 gives x = 3."},
        format="json",
    )
    assert res.status_code == 200, res.content
    rework_id = res.json()["rework_id"]
    b = _client(api["b"])
    task = b.post(f"/api/projects/{api['project'].pk}/queue/next/").json()
    assert task["annotation"]["id"] == rework_id
    assert [lab["rating"] for lab in task["annotation"]["labels"]] == [1, -1, -1, 0]
    assert task["rework"]["comment"] == "Step 2 is correct: 2x = 6 gives x = 3."
    assert task["rework"]["reviewer"] == "rev"
    feedback = b.get(f"/api/annotations/{rework_id}/feedback/").json()
    assert feedback["revises_id"] == api["second"].pk
    assert feedback["reviews"][0]["action"] == "reject"
    assert feedback["comments"][0]["body"].startswith("Step 2 is correct")
    old = b.get(f"/api/annotations/{api['second'].pk}/feedback/").json()
    assert old["status"] == "rejected" and old["rework_id"] == rework_id
    rejections = b.get(f"/api/projects/{api['project'].pk}/rejections/").json()["results"]
    assert rejections == [
        {
            "id": api["second"].pk,
            "solution_id": api["solution"].pk,
            "comment": "Step 2 is correct: 2x = 6 gives x = 3.",
            "reviewer": "rev",
            "rejected_at": rejections[0]["rejected_at"],
            "rework_id": rework_id,
            "rework_status": "draft",
        }
    ]
    # The other annotator's own task payload has no rework block.
    other = _client(api["a"]).get(f"/api/annotations/{api['first'].pk}/").json()
    assert other["rework"] is None
    # A reject without a comment is refused.
    again = api["rev"].post(f"/api/annotations/{api['first'].pk}/reject/", {}, format="json")
    assert again.status_code == 400


def test_comment_threads(api):
    a = _client(api["a"])
    url = f"/api/solutions/{api['solution'].pk}/comments/"
    step = api["steps"][1]
    assert a.post(url, {"body": "Why wrong?", "step_id": step}, format="json").status_code == 201
    assert api["rev"].post(url, {"body": "General note"}, format="json").status_code == 201
    assert [c["body"] for c in a.get(url).json()] == ["Why wrong?", "General note"]
    assert [c["body"] for c in a.get(url, {"step": step}).json()] == ["Why wrong?"]
    bad = a.post(url, {"body": "x", "step_id": 10**6}, format="json")
    assert bad.status_code == 400
    stranger = member(api["project"], "stranger")
    assert _client(stranger).get(url).status_code == 403
    # A rejection's comment reaches its annotator, not the other annotator of the solution.
    api["rev"].post(
        f"/api/annotations/{api['second'].pk}/reject/", {"comment": "for b only"}, format="json"
    )
    assert "for b only" not in [c["body"] for c in a.get(url).json()]
    assert "for b only" in [c["body"] for c in _client(api["b"]).get(url).json()]
    assert "for b only" in [c["body"] for c in api["rev"].get(url).json()]
    feedback = a.get(f"/api/annotations/{api['first'].pk}/feedback/").json()
    assert "for b only" not in [c["body"] for c in feedback["comments"]]


def test_metrics_endpoint(api):
    body = api["rev"].get(f"/api/projects/{api['project'].pk}/metrics/").json()
    pair = body["pairs"][0]
    assert (pair["a"], pair["b"], pair["steps"]) == ("a", "b", 4)
    assert pair["agreement"] == 0.75
    assert body["first_error"]["solutions"] == 1
    assert body["first_error"]["pairwise_agreement"] == 0.0
    assert {r["annotator"] for r in body["throughput"]["by_annotator"]} == {"a", "b"}


def test_project_auto_resolve_setting_through_the_api(api):
    admin = member(api["project"], "boss", "admin")
    res = _client(admin).patch(
        f"/api/projects/{api['project'].pk}/", {"auto_resolve": True}, format="json"
    )
    assert res.status_code == 200 and res.json()["auto_resolve"] is True


def test_schema_lists_the_review_endpoints(client):
    schema = client.get("/api/schema/").content
    for path in (
        b"/api/projects/{project_id}/review/queue/",
        b"/api/solutions/{solution_id}/review/",
        b"/api/annotations/{annotation_id}/accept/",
        b"/api/annotations/{annotation_id}/reject/",
        b"/api/solutions/{solution_id}/adjudicate/",
        b"/api/solutions/{solution_id}/comments/",
        b"/api/projects/{project_id}/metrics/",
        b"/api/annotations/{annotation_id}/feedback/",
    ):
        assert path in schema, path
