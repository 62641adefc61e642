"""A long agent trace (10,000 steps) is imported, claimed, drafted and submitted whole."""

import json
import time

import pytest
from rest_framework.test import APIClient

from labeling.api import bounds
from labeling.models import LabelHistory, Solution, StepLabel
from labeling.services.imports import import_file
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

STEPS = 10_000


@pytest.fixture
def long_trace(tmp_path):
    project = ProjectFactory(name="Traces", first_error_mode=False)
    user = UserFactory(username="tracer")
    MembershipFactory(project=project, user=user, role="annotator")
    path = tmp_path / "trace.jsonl"
    row = {
        "problem": "Fix the failing build.",
        "answer": "done",
        "steps": [f"step {k}: ran tool call {k}" for k in range(STEPS)],
        "generator": "agent-1",
        "source": "synthetic",
    }
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab", labels_as="none")
    client = APIClient()
    client.force_authenticate(user)
    return project, client


def test_a_10000_step_solution_is_labeled_whole(long_trace):
    project, client = long_trace
    (solution,) = Solution.objects.filter(problem__project=project)
    assert solution.steps.count() == STEPS

    task = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    steps = task["solution"]["steps"]
    assert len(steps) == STEPS and steps[-1]["index"] == STEPS - 1
    aid = task["annotation"]["id"]

    started = time.monotonic()
    half = [{"step_id": s["id"], "rating": 0} for s in steps[: STEPS // 2]]
    draft = client.put(
        f"/api/annotations/{aid}/draft/", {"version": 1, "labels": half}, format="json"
    )
    assert draft.status_code == 200, draft.json()
    assert len(draft.json()["labels"]) == STEPS // 2
    # The whole solution in one draft: it replaces the half, nothing is lost.
    whole = [{"step_id": s["id"], "rating": (1, 0)[i % 2]} for i, s in enumerate(steps)]
    draft = client.put(
        f"/api/annotations/{aid}/draft/", {"version": 2, "labels": whole}, format="json"
    )
    assert draft.status_code == 200, draft.json()
    assert StepLabel.objects.filter(annotation_id=aid).count() == STEPS

    final = [{"step_id": s["id"], "rating": 1} for s in steps]
    done = client.post(
        f"/api/annotations/{aid}/submit/", {"version": 3, "labels": final}, format="json"
    )
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "submitted"
    stored = dict(StepLabel.objects.filter(annotation_id=aid).values_list("step_id", "rating"))
    assert stored == {s["id"]: 1 for s in steps}
    # History: the half drafted, the other half added, every step's final change.
    assert LabelHistory.objects.filter(annotation_id=aid).count() <= 3 * STEPS
    assert time.monotonic() - started < 60  # bulk paths, not a query per label


def test_more_labels_than_the_bound_are_refused(long_trace):
    project, client = long_trace
    task = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    step_id = task["solution"]["steps"][0]["id"]
    labels = [{"step_id": step_id, "rating": 1}] * (bounds.MAX_LABELS + 1)
    answer = client.put(
        f"/api/annotations/{task['annotation']['id']}/draft/",
        {"version": 1, "labels": labels},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "validation_error"
    assert "labels" in json.dumps(answer.json()["error"]["details"])
