"""POST /api/annotations/<id>/steps/split/ and /steps/merge/: the task comes back with its new
steps; bad input is a JSON 4xx naming the field and changes nothing."""

import pytest

from labeling.models import Annotation, Project, Step

pytestmark = pytest.mark.django_db


@pytest.fixture
def allowed(world):
    Project.objects.filter(pk=world["project"].pk).update(allow_resegment=True)
    return world


def _texts(world):
    return list(
        Step.objects.filter(solution_id=world["annotation"].solution_id)
        .order_by("index")
        .values_list("text", flat=True)
    )


def _url(world, what):
    return f"/api/annotations/{world['annotation'].pk}/steps/{what}/"


def test_split_then_merge_answers_the_task_with_new_steps(allowed, client_for):
    client = client_for("annotator")
    before = _texts(allowed)
    first = allowed["annotation"].solution.steps.order_by("index").first()
    split = client.post(
        _url(allowed, "split"), {"version": 1, "step_id": first.pk, "offset": 7}, format="json"
    )
    assert split.status_code == 200, split.content
    task = split.json()
    steps = task["solution"]["steps"]
    assert [s["text"] for s in steps[:2]] == ["Step 1:", "$1 + 0 = 1$"]
    assert [s["index"] for s in steps] == list(range(len(before) + 1))
    assert task["annotation"]["version"] == 2
    assert task["project"]["allow_resegment"] is True

    merge = client.post(
        _url(allowed, "merge"), {"version": 2, "step_id": steps[0]["id"]}, format="json"
    )
    assert merge.status_code == 200, merge.content
    assert [s["text"] for s in merge.json()["solution"]["steps"]] == [
        "Step 1:\n$1 + 0 = 1$",
        *before[1:],
    ]

    # A tab that still shows the old steps: its save is refused, not mis-assigned.
    stale = client.put(
        f"/api/annotations/{allowed['annotation'].pk}/draft/",
        {"version": 2, "labels": [{"step_id": s["id"], "rating": 1} for s in steps]},
        format="json",
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "conflict"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"version": 1, "offset": 3}, "step_id"),
        ({"version": 1, "step_id": 1}, "offset"),
        ({"version": 1, "step_id": 1, "offset": 0}, "offset"),
        ({"version": 1, "step_id": 1, "offset": 10**9}, "offset"),
        ({"version": 1, "step_id": 2**70, "offset": 3}, "step_id"),
        ({"version": "x", "step_id": 1, "offset": 3}, "version"),
    ],
)
def test_split_bounds(allowed, client_for, body, field):
    response = client_for("annotator").post(_url(allowed, "split"), body, format="json")
    assert response.status_code == 400
    assert field in str(response.json()["error"])
    assert Annotation.objects.get(pk=allowed["annotation"].pk).version == 1


def test_offset_past_the_text_names_the_field_and_changes_nothing(allowed, client_for):
    before = _texts(allowed)
    first = allowed["annotation"].solution.steps.order_by("index").first()
    response = client_for("annotator").post(
        _url(allowed, "split"), {"version": 1, "step_id": first.pk, "offset": 500}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["details"]["field"] == "offset" and "not inside step 1" in error["message"]
    assert _texts(allowed) == before


def test_off_by_default(world, client_for):
    first = world["annotation"].solution.steps.order_by("index").first()
    response = client_for("annotator").post(
        _url(world, "merge"), {"version": 1, "step_id": first.pk}, format="json"
    )
    assert response.status_code == 403
    assert "does not allow" in response.json()["error"]["message"]


def test_another_annotators_work_is_a_409(allowed, client_for):
    from labeling.services.queue.claim import task_claim_next

    Project.objects.filter(pk=allowed["project"].pk).update(overlap=2)
    project = Project.objects.get(pk=allowed["project"].pk)
    theirs = task_claim_next(project=project, user=allowed["users"]["spare"]).annotation
    assert theirs.solution_id == allowed["annotation"].solution_id
    first = allowed["annotation"].solution.steps.order_by("index").first()
    response = client_for("annotator").post(
        _url(allowed, "merge"), {"version": 1, "step_id": first.pk}, format="json"
    )
    assert response.status_code == 409
    assert "Another annotation" in response.json()["error"]["message"]
