"""A write whose response was lost, retried with the same request_id, is not a false conflict.

The client makes one request_id per logical write (draft save, submit, skip) and sends it again
on every retry of that write. The server stores the id of the write it last applied; a retry of
it applies nothing and gets what the lost success answered. Another id with a stale version is
still a real 409; no id at all behaves as before.
"""

import threading
import time
import uuid

import pytest
from django.db import connection, connections, transaction

from labeling.models import Annotation, AnnotationStatus, LabelHistory, Solution, StepLabel
from labeling.services.labeling.annotations import annotation_save_draft

pytestmark = pytest.mark.django_db


def _labels(task, ratings):
    steps = task["solution"]["steps"]
    return [{"step_id": s["id"], "rating": r} for s, r in zip(steps, ratings, strict=False)]


def _snapshot(annotation_id: int) -> dict:
    """Everything a write changes: the row, its labels, the audit trail, the solution counter."""
    annotation = Annotation.objects.get(pk=annotation_id)
    return {
        "version": annotation.version,
        "status": annotation.status,
        "updated_at": annotation.updated_at,
        "time_spent_ms": annotation.time_spent_ms,
        "labels": list(
            StepLabel.objects.filter(annotation_id=annotation_id)
            .order_by("step__index")
            .values_list("step_id", "rating", "unsure", "comment")
        ),
        "history": LabelHistory.objects.filter(annotation_id=annotation_id).count(),
        "submitted_count": Solution.objects.get(pk=annotation.solution_id).submitted_count,
    }


@pytest.fixture
def started(world, client_for):
    client = client_for("annotator")
    task = client.post(f"/api/projects/{world['project'].pk}/queue/next/").json()
    return client, task, task["annotation"]["id"]


def test_a_retried_draft_save_is_answered_as_the_success_it_was(started):
    client, task, aid = started
    rid = str(uuid.uuid4())
    body = {"version": 1, "labels": _labels(task, [1, 0]), "time_spent_ms": 500, "request_id": rid}

    first = client.put(f"/api/annotations/{aid}/draft/", body, format="json")
    assert first.status_code == 200
    assert first.json()["version"] == 2
    before = _snapshot(aid)
    assert before["history"] == 2  # one row per label created

    # The response was lost: the client sends the same write again, with the old version.
    retry = client.put(
        f"/api/annotations/{aid}/draft/", {**body, "time_spent_ms": 900}, format="json"
    )
    assert retry.status_code == 200
    assert retry.json() == first.json()  # the same answer: the annotation as it is
    assert _snapshot(aid) == before  # nothing applied twice (not even the newer timer)

    other = client.put(
        f"/api/annotations/{aid}/draft/",
        {**body, "labels": _labels(task, [-1]), "request_id": str(uuid.uuid4())},
        format="json",
    )
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "conflict"
    assert "another tab or window" in other.json()["error"]["message"]
    assert other.json()["error"]["details"]["current_version"] == 2
    assert _snapshot(aid) == before

    # Only the last applied write is replayed: after a newer save, the old one's retry is a
    # real conflict (another tab may have changed what it wrote).
    newer = {"version": 2, "labels": _labels(task, [0]), "request_id": str(uuid.uuid4())}
    assert client.put(f"/api/annotations/{aid}/draft/", newer, format="json").status_code == 200
    late = client.put(f"/api/annotations/{aid}/draft/", body, format="json")
    assert late.status_code == 409
    assert late.json()["error"]["details"]["current_version"] == 3
    assert _snapshot(aid)["labels"][0][1] == 0


def test_without_a_request_id_a_retry_is_still_a_conflict(started):
    client, task, aid = started
    body = {"version": 1, "labels": _labels(task, [1])}
    assert client.put(f"/api/annotations/{aid}/draft/", body, format="json").status_code == 200
    assert client.put(f"/api/annotations/{aid}/draft/", body, format="json").status_code == 409
    # An id-less write also replaces the remembered id: an older id is no longer "the last".
    assert Annotation.objects.get(pk=aid).last_request_id is None


def test_a_retried_submit_is_counted_once(started):
    client, task, aid = started
    draft_id = str(uuid.uuid4())
    saved = {"version": 1, "labels": _labels(task, [1]), "request_id": draft_id}
    assert client.put(f"/api/annotations/{aid}/draft/", saved, format="json").status_code == 200
    # This client reuses the draft save's id for the submit: a different kind of write is never
    # a replay of it, so the submit is applied (and its retries are replays of the submit).
    body = {"version": 2, "labels": _labels(task, [1, 1, 0, 1, 1]), "request_id": draft_id}

    first = client.post(f"/api/annotations/{aid}/submit/", body, format="json")
    assert first.status_code == 200
    assert first.json()["status"] == "submitted"
    assert first.json()["version"] == 3
    before = _snapshot(aid)
    assert before["submitted_count"] == 1
    assert before["history"] == 5

    retry = client.post(f"/api/annotations/{aid}/submit/", body, format="json")
    assert retry.status_code == 200
    assert retry.json() == first.json()
    assert _snapshot(aid) == before  # submitted_count still 1, no duplicate history rows

    other = client.post(
        f"/api/annotations/{aid}/submit/", {**body, "request_id": str(uuid.uuid4())}, format="json"
    )
    assert other.status_code == 409
    assert other.json()["error"]["message"] == "This annotation is already submitted."
    assert _snapshot(aid) == before

    # The annotator moves on to another solution, and this one is not served again.
    following = client.post(f"/api/projects/{task['project']['id']}/queue/next/").json()
    assert following["solution"]["id"] != task["solution"]["id"]


def test_a_retried_skip_is_answered_204(started):
    client, _task, aid = started
    rid = str(uuid.uuid4())
    skipped = client.post(f"/api/annotations/{aid}/skip/", {"request_id": rid}, format="json")
    assert skipped.status_code == 204
    before = _snapshot(aid)
    assert before["status"] == AnnotationStatus.DISCARDED

    retry = client.post(f"/api/annotations/{aid}/skip/", {"request_id": rid}, format="json")
    assert retry.status_code == 204
    assert _snapshot(aid) == before

    other = client.post(
        f"/api/annotations/{aid}/skip/", {"request_id": str(uuid.uuid4())}, format="json"
    )
    assert other.status_code == 409
    assert client.post(f"/api/annotations/{aid}/skip/").status_code == 409  # no id: as before


@pytest.mark.parametrize(
    ("method", "path", "extra"),
    [
        ("put", "draft", {"version": 1, "labels": []}),
        ("post", "submit", {"version": 1, "labels": []}),
        ("post", "skip", {}),
    ],
)
def test_a_malformed_request_id_is_refused_naming_the_field(started, method, path, extra):
    client, _task, aid = started
    response = getattr(client, method)(
        f"/api/annotations/{aid}/{path}/", {**extra, "request_id": "retry-1"}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["message"].startswith("request_id:")
    assert "request_id" in error["details"]
    assert Annotation.objects.get(pk=aid).version == 1


def test_another_annotators_request_id_replays_nothing(world, started, client_for):
    client, task, aid = started
    rid = str(uuid.uuid4())
    body = {"version": 1, "labels": _labels(task, [1]), "request_id": rid}
    assert client.put(f"/api/annotations/{aid}/draft/", body, format="json").status_code == 200
    spare = client_for("spare")
    assert spare.put(f"/api/annotations/{aid}/draft/", body, format="json").status_code == 404


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_retry_that_arrives_while_the_original_commits_waits_and_is_replayed(world):
    """The retry blocks on the row lock until the original commits, then sees its id."""
    assert connection.vendor == "postgresql"
    annotation = world["annotation"]
    user = world["users"]["annotator"]
    step_id = annotation.solution.steps.order_by("index").values_list("id", flat=True)[0]
    rid = uuid.uuid4()
    labels = [{"step_id": step_id, "rating": 1}]
    applied = threading.Event()
    results: dict[str, object] = {}

    def original() -> None:
        try:
            with transaction.atomic():
                annotation_save_draft(
                    annotation=Annotation.objects.get(pk=annotation.pk),
                    user=user,
                    version=1,
                    labels=labels,
                    request_id=rid,
                )
                applied.set()
                time.sleep(0.5)  # still uncommitted while the retry arrives
        finally:
            connections.close_all()

    def retry() -> None:
        try:
            applied.wait(10)
            results["retry"] = annotation_save_draft(
                annotation=Annotation.objects.get(pk=annotation.pk),
                user=user,
                version=1,
                labels=labels,
                request_id=rid,
            ).version
        except Exception as exc:  # noqa: BLE001 - asserted below
            results["retry"] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=original), threading.Thread(target=retry)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results["retry"] == 2, results
    assert Annotation.objects.get(pk=annotation.pk).version == 2
    assert LabelHistory.objects.filter(annotation_id=annotation.pk).count() == 1


# A fixed UUID: test ids must be the same in every pytest-xdist worker's collection.
@pytest.mark.parametrize("key", ["3f1c9a2e-7b4d-4e8a-9c61-0d2f5b8e7a14", "submit-7f3a:attempt-1"])
def test_a_submit_retried_with_the_same_idempotency_key_header_is_applied_once(started, key):
    """The header does what `request_id` does (the labeling page sends it on submit); a key
    that is not a UUID works too."""
    client, task, aid = started
    steps = task["solution"]["steps"]
    body = {"version": 1, "labels": _labels(task, [1] * len(steps)), "next": True}
    url = f"/api/annotations/{aid}/submit/"

    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 200, first.content
    applied = _snapshot(aid)
    assert applied["status"] == AnnotationStatus.SUBMITTED and applied["submitted_count"] == 1
    retry = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert retry.status_code == 200, retry.content
    assert retry.json()["id"] == aid and retry.json()["version"] == first.json()["version"]
    assert (
        retry.json()["next_task"]["annotation"]["id"]
        == first.json()["next_task"]["annotation"]["id"]
    )
    assert _snapshot(aid) == applied  # not applied twice
    # Without the key, the same stale write is the real conflict it is.
    assert client.post(url, body, format="json").status_code == 409
    other = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key + "x")
    assert other.status_code == 409


def test_an_idempotency_key_header_and_a_different_request_id_are_refused(started):
    client, task, aid = started
    body = {"version": 1, "labels": _labels(task, [1]), "request_id": str(uuid.uuid4())}
    response = client.put(
        f"/api/annotations/{aid}/draft/", body, format="json", HTTP_IDEMPOTENCY_KEY="other"
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "request_id"
    bad = client.post(f"/api/annotations/{aid}/skip/", {}, format="json", HTTP_IDEMPOTENCY_KEY="é")
    assert bad.status_code == 400
    assert Annotation.objects.get(pk=aid).version == 1  # neither was applied
