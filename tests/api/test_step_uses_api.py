"""Dependencies an annotator marks (labels[].uses) through the draft and submit API: stored
per annotation, checked (earlier steps only), audited, shown on the review page, and at no
extra statement on the hot submit path."""

import pytest

from labeling.models import LabelHistory, Step, StepLabel

pytestmark = pytest.mark.django_db


def _labels(task, ratings, uses=None):
    uses = uses or {}
    return [
        {"step_id": s["id"], "rating": r, **({"uses": uses[i]} if i in uses else {})}
        for i, (s, r) in enumerate(zip(task["solution"]["steps"], ratings, strict=False))
    ]


def test_draft_and_submit_keep_the_marked_uses(world, client_for):
    client = client_for("annotator")
    pid = world["project"].pk
    task = client.post(f"/api/projects/{pid}/queue/next/").json()
    aid = task["annotation"]["id"]
    first = task["solution"]["steps"][0]
    assert first["uses"] == [] and first["uses_source"] == ""

    saved = client.put(
        f"/api/annotations/{aid}/draft/",
        {"version": 1, "labels": _labels(task, [1, 1, 1], {2: [1, 0, 1]})},
        format="json",
    )
    assert saved.status_code == 200, saved.content
    assert [label["uses"] for label in saved.json()["labels"]] == [None, None, [0, 1]]
    reloaded = client.post(f"/api/projects/{pid}/queue/next/").json()
    assert [label["uses"] for label in reloaded["annotation"]["labels"]] == [None, None, [0, 1]]

    forward = client.post(
        f"/api/annotations/{aid}/submit/",
        {"version": 2, "labels": _labels(task, [1, 1, 1, 1, 1], {1: [3]})},
        format="json",
    )
    assert forward.status_code == 400
    error = forward.json()["error"]
    assert error["details"]["field"] == "labels[1].uses"
    assert "forward or self reference" in error["message"]

    # The statement count with uses is pinned in test_loop_queries (its labels mark uses).
    done = client.post(
        f"/api/annotations/{aid}/submit/",
        {"version": 2, "labels": _labels(task, [1, 1, 1, -1, 1], {2: [0, 1], 4: [3]})},
        format="json",
    )
    assert done.status_code == 200, done.content
    assert [label["uses"] for label in done.json()["labels"]] == [None, None, [0, 1], None, [3]]
    stored = dict(StepLabel.objects.filter(annotation_id=aid).values_list("step__index", "uses"))
    assert stored == {0: None, 1: None, 2: [0, 1], 3: None, 4: [3]}
    # Audited: the submit's history row of step 4 records the dependency it added.
    step4 = Step.objects.get(solution=world["annotation"].solution, index=4)
    row = LabelHistory.objects.filter(step=step4, action="submit").get()
    assert row.after["uses"] == [3] and "uses" not in (row.before or {})

    reviewer = client_for("reviewer")
    detail = reviewer.get(f"/api/solutions/{world['annotation'].solution_id}/review/").json()
    cells = [step["labels"][0]["uses"] for step in detail["steps"]]
    assert cells == [None, None, [0, 1], None, [3]]
    assert all(step["uses"] == [] for step in detail["steps"])


def test_uses_must_be_a_list_of_indices(world, client_for):
    client = client_for("annotator")
    task = client.post(f"/api/projects/{world['project'].pk}/queue/next/").json()
    aid = task["annotation"]["id"]
    bad = client.put(
        f"/api/annotations/{aid}/draft/",
        {"version": 1, "labels": _labels(task, [1, 1], {1: [-1]})},
        format="json",
    )
    assert bad.status_code == 400
    out_of_range = client.put(
        f"/api/annotations/{aid}/draft/",
        {"version": 1, "labels": _labels(task, [1, 1], {1: [9]})},
        format="json",
    )
    assert out_of_range.status_code == 400
    assert "out of range" in out_of_range.json()["error"]["message"]
