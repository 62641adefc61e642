"""My work through HTTP: list, search, paging bounds, reopen, resubmit, Back."""

import uuid

import pytest
from rest_framework.test import APIClient

from labeling.models import Annotation, LabelHistory, Resolution, Solution, TaskLock
from labeling.services.labeling.annotations import annotation_skip
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_accept
from tests.factories import SolutionFactory
from tests.review.conftest import label, member

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _labels(annotation, rating: int) -> list[dict]:
    steps = annotation.solution.steps.order_by("index").values_list("id", flat=True)
    return [{"step_id": s, "rating": rating} for s in steps]


@pytest.fixture
def mw(db):
    """Overlap-1 project: three solutions with distinct problem texts; annotator `ann`
    submitted the first, skipped the second; `other` is a second annotator."""
    from tests.factories import ProjectFactory

    project = ProjectFactory(name="Mine", overlap=1)
    texts = ["Find $x$ if $x^2 = 4$", "Compute the area of a circle", "Prove that 7 is prime"]
    for text in texts:
        SolutionFactory(problem__project=project, problem__text=text, steps=3)
    ann, other = member(project, "ann"), member(project, "other")
    submitted = label(ann, project, [1, 1, 1])
    skipped = task_claim_next(project=project, user=ann).annotation
    annotation_skip(annotation=skipped, user=ann)
    skipped.refresh_from_db()
    return {
        "project": project,
        "ann": ann,
        "other": other,
        "submitted": submitted,
        "skipped": skipped,
        "client": _client(ann),
        "url": f"/api/projects/{project.pk}/my-work/",
    }


def test_lists_submitted_and_skipped_newest_first(mw):
    body = mw["client"].get(mw["url"]).json()
    assert body["count"] == 2
    rows = body["results"]
    assert [r["annotation_id"] for r in rows] == [mw["skipped"].pk, mw["submitted"].pk]
    assert [r["status"] for r in rows] == ["skipped", "submitted"]
    assert rows[1]["problem_text"] == "Find $x$ if $x^2 = 4$"
    assert rows[1]["reviewed"] is False
    # Another annotator sees none of it.
    assert _client(mw["other"]).get(mw["url"]).json()["count"] == 0


def test_search_and_status_filter(mw):
    client, url = mw["client"], mw["url"]
    found = client.get(url, {"q": "CIRCLE area"}).json()["results"]
    assert [r["annotation_id"] for r in found] == [mw["skipped"].pk]
    assert client.get(url, {"q": "circle prime"}).json()["count"] == 0
    only = client.get(url, {"status": "submitted"}).json()["results"]
    assert [r["annotation_id"] for r in only] == [mw["submitted"].pk]


def test_paging_and_its_bounds(mw):
    client, url = mw["client"], mw["url"]
    first = client.get(url, {"limit": 1}).json()
    assert first["count"] == 2 and len(first["results"]) == 1
    assert "offset=1" in first["next"] and first["previous"] is None
    second = client.get(url, {"limit": 1, "offset": 1}).json()
    assert second["results"][0]["annotation_id"] == mw["submitted"].pk
    assert second["next"] is None and second["previous"] is not None
    for bad in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": 10**7}, {"q": "x" * 201}):
        response = client.get(url, bad)
        assert response.status_code == 400, bad
        assert response.json()["error"]["code"] == "validation_error"


def test_reopen_submitted_returns_the_same_annotation_unchanged(mw):
    a = mw["submitted"]
    response = mw["client"].post(f"/api/annotations/{a.pk}/reopen/")
    assert response.status_code == 200
    task = response.json()
    assert task["annotation"]["id"] == a.pk
    assert task["annotation"]["status"] == "submitted"
    assert [lab["rating"] for lab in task["annotation"]["labels"]] == [1, 1, 1]
    assert task["lock_expires_at"] is None
    assert Solution.objects.get(pk=a.solution_id).submitted_count == 1


def test_resubmit_writes_a_new_version_in_the_history(mw):
    a = mw["submitted"]
    before = LabelHistory.objects.filter(annotation=a).count()
    body = {"version": a.version, "labels": _labels(a, 1), "request_id": str(uuid.uuid4())}
    body["labels"][1]["rating"] = -1
    response = mw["client"].post(f"/api/annotations/{a.pk}/resubmit/", body, format="json")
    assert response.status_code == 200, response.content
    out = response.json()
    assert out["status"] == "submitted" and out["version"] == a.version + 1
    assert [lab["rating"] for lab in out["labels"]] == [1, -1, 1]
    changed = LabelHistory.objects.filter(annotation=a).order_by("id")[before:]
    assert [(h.action, h.before["rating"], h.after["rating"]) for h in changed] == [
        ("submit", 1, -1)
    ]
    assert Solution.objects.get(pk=a.solution_id).submitted_count == 1  # counted once
    # A retry of the same write answers the same; a stale version is a Conflict.
    again = mw["client"].post(f"/api/annotations/{a.pk}/resubmit/", body, format="json")
    assert again.status_code == 200 and again.json()["version"] == a.version + 1
    body["request_id"] = str(uuid.uuid4())
    stale = mw["client"].post(f"/api/annotations/{a.pk}/resubmit/", body, format="json")
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "conflict"


def test_resubmit_checks_completeness_and_status(mw):
    a = mw["submitted"]
    labels = _labels(a, 1)
    labels[2]["rating"] = None
    body = {"version": a.version, "labels": labels}
    incomplete = mw["client"].post(f"/api/annotations/{a.pk}/resubmit/", body, format="json")
    assert incomplete.status_code == 400
    assert incomplete.json()["error"]["details"]["step_index"] == 2
    s = mw["skipped"]
    body = {"version": s.version, "labels": _labels(s, 1)}
    refused = mw["client"].post(f"/api/annotations/{s.pk}/resubmit/", body, format="json")
    assert refused.status_code == 409


def test_resubmitting_a_reviewed_item_sends_it_back_to_review(mw):
    a = mw["submitted"]
    reviewer = member(mw["project"], "rev", "reviewer")
    review_accept(annotation=a, reviewer=reviewer)
    a.refresh_from_db()
    assert mw["client"].get(mw["url"], {"status": "submitted"}).json()["results"][0]["reviewed"]
    queue = f"/api/projects/{mw['project'].pk}/review/queue/"
    rev = _client(reviewer)
    assert rev.get(queue).json()["count"] == 0  # resolved: not in the unresolved queue
    body = {"version": a.version, "labels": _labels(a, -1)}
    response = mw["client"].post(f"/api/annotations/{a.pk}/resubmit/", body, format="json")
    assert response.status_code == 200, response.content
    assert not Resolution.objects.filter(solution_id=a.solution_id, is_current=True).exists()
    assert [item["id"] for item in rev.get(queue).json()["results"]] == [a.solution_id]
    row = mw["client"].get(mw["url"], {"status": "submitted"}).json()["results"][0]
    assert row["reviewed"] is False


def test_reopen_skipped_claims_it_again_with_its_labels(mw):
    s = mw["skipped"]
    response = mw["client"].post(f"/api/annotations/{s.pk}/reopen/")
    assert response.status_code == 200, response.content
    task = response.json()
    assert task["annotation"]["id"] != s.pk and task["annotation"]["status"] == "draft"
    assert task["solution"]["id"] == s.solution_id
    assert task["lock_expires_at"] is not None
    assert TaskLock.objects.filter(solution_id=s.solution_id, user=mw["ann"]).exists()
    # The skip is no longer listed: the draft is the item now; reopening again opens it.
    ids = [r["annotation_id"] for r in mw["client"].get(mw["url"]).json()["results"]]
    assert ids == [mw["submitted"].pk]
    again = mw["client"].post(f"/api/annotations/{s.pk}/reopen/").json()
    assert again["annotation"]["id"] == task["annotation"]["id"]
    # The queue serves the reopened draft.
    assert (
        task_claim_next(project=mw["project"], user=mw["ann"]).annotation.pk
        == (task["annotation"]["id"])
    )


def test_reopen_skipped_refused_when_others_filled_it(mw):
    s = mw["skipped"]
    claim = task_claim_next(project=mw["project"], user=mw["other"])
    while claim.annotation.solution_id != s.solution_id:  # other takes the skipped solution
        annotation_skip(annotation=claim.annotation, user=mw["other"])
        claim = task_claim_next(project=mw["project"], user=mw["other"])
    response = mw["client"].post(f"/api/annotations/{s.pk}/reopen/")
    assert response.status_code == 409  # overlap 1, held by other's live lock
    assert response.json()["error"]["code"] == "conflict"
    assert not Annotation.objects.filter(
        solution_id=s.solution_id, annotator=mw["ann"], status="draft"
    ).exists()


def test_back_reopens_the_last_item(mw):
    url = f"/api/projects/{mw['project'].pk}/my-work/back/"
    back = mw["client"].post(url).json()  # the skip was last
    assert back["solution"]["id"] == mw["skipped"].solution_id
    assert back["annotation"]["status"] == "draft"
    nothing = _client(mw["other"]).post(url)
    assert nothing.status_code == 204


def test_another_users_annotation_is_404(mw):
    a = mw["submitted"]
    other = _client(mw["other"])
    assert other.post(f"/api/annotations/{a.pk}/reopen/").status_code == 404
    body = {"version": a.version, "labels": _labels(a, -1)}
    response = other.post(f"/api/annotations/{a.pk}/resubmit/", body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"]
