import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _labels(task, ratings):
    steps = task["solution"]["steps"]
    return [{"step_id": s["id"], "rating": r} for s, r in zip(steps, ratings, strict=False)]


def test_annotator_loop_over_the_api(world, client_for):
    client = client_for("annotator")
    pid = world["project"].pk
    task = client.post(f"/api/projects/{pid}/queue/next/").json()
    assert task["annotation"]["id"] == world["annotation"].pk  # own draft first
    assert [s["index"] for s in task["solution"]["steps"]] == [0, 1, 2, 3, 4]
    assert task["project"]["rating_values"] == [-1, 0, 1]
    aid = task["annotation"]["id"]

    saved = client.put(
        f"/api/annotations/{aid}/draft/",
        {"version": 1, "labels": _labels(task, [1, 0]), "time_spent_ms": 500},
        format="json",
    )
    assert saved.status_code == 200
    assert saved.json()["version"] == 2

    stale = client.put(
        f"/api/annotations/{aid}/draft/",
        {"version": 1, "labels": _labels(task, [-1])},
        format="json",
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "conflict"
    assert stale.json()["error"]["details"]["current_version"] == 2

    reloaded = client.post(f"/api/projects/{pid}/queue/next/").json()
    assert [label["rating"] for label in reloaded["annotation"]["labels"]] == [1, 0]

    incomplete = client.post(
        f"/api/annotations/{aid}/submit/",
        {"version": 2, "labels": _labels(task, [1, 0, 1])},
        format="json",
    )
    assert incomplete.status_code == 400
    assert incomplete.json()["error"]["message"] == "Step 4 has no rating."

    done = client.post(
        f"/api/annotations/{aid}/submit/",
        {"version": 2, "labels": _labels(task, [1, 0, 1, 1, 1])},
        format="json",
    )
    assert done.status_code == 200
    assert done.json()["status"] == "submitted"

    progress = client.get(f"/api/projects/{pid}/progress/").json()
    assert progress["done_today"] == 1
    assert progress["submitted_total"] == 1
    assert progress["remaining"] == 2

    following = client.post(f"/api/projects/{pid}/queue/next/").json()
    assert following["solution"]["id"] != task["solution"]["id"]


def test_empty_queue_is_204(world, client_for):
    client = client_for("spare")
    pid = world["project"].pk
    for _ in range(2):  # the annotator holds one of three solutions
        task = client.post(f"/api/projects/{pid}/queue/next/").json()
        client.post(
            f"/api/annotations/{task['annotation']['id']}/submit/",
            {"version": 1, "labels": _labels(task, [1] * 5)},
            format="json",
        )
    assert client.post(f"/api/projects/{pid}/queue/next/").status_code == 204


def test_validation_errors_use_the_one_error_format(world, client_for):
    client = client_for("annotator")
    response = client.put(
        f"/api/annotations/{world['annotation'].pk}/draft/",
        {"version": "x", "labels": []},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "validation_error"
    assert body["message"].startswith("version:")
    assert "version" in body["details"]


def test_suggestions_are_hidden_when_the_project_is_blind(world, client_for):
    from tests.factories import SuggestionFactory

    step = world["annotation"].solution.steps.first()
    SuggestionFactory(step=step, source="import", agent="processbench", value=-1)
    client = client_for("annotator")
    pid = world["project"].pk
    task = client.post(f"/api/projects/{pid}/queue/next/").json()
    assert task["solution"]["steps"][0]["suggestions"][0]["value"] == -1
    world["project"].show_suggestions = False
    world["project"].save()
    task = client.post(f"/api/projects/{pid}/queue/next/").json()
    assert task["solution"]["steps"][0]["suggestions"] == []


def test_login_logout_and_token(world, client):
    from rest_framework.test import APIClient

    api = APIClient(enforce_csrf_checks=True)
    # Sign-in is a session write too: the CSRF token from the page's cookie (login CSRF).
    body = {"username": "annotator", "password": "pw-for-tests"}
    assert api.post("/api/auth/login/", body, format="json").status_code == 403
    api.get("/login")
    csrf = {"HTTP_X_CSRFTOKEN": api.cookies["csrftoken"].value}
    bad = api.post("/api/auth/login/", {**body, "password": "nope"}, format="json", **csrf)
    assert bad.status_code == 400
    ok = api.post("/api/auth/login/", body, format="json", **csrf)
    assert ok.status_code == 200
    assert api.get("/api/auth/me/").json()["username"] == "annotator"
    # Session writes need the CSRF token.
    assert api.post(f"/api/projects/{world['project'].pk}/queue/next/").status_code == 403

    token = APIClient().post(
        "/api/auth/token/", {"username": "annotator", "password": "pw-for-tests"}, format="json"
    )
    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert scripted.post(f"/api/projects/{world['project'].pk}/queue/next/").status_code == 200


def test_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/projects/{project_id}/queue/next/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_the_annotation_records_which_suggestions_were_shown(world, client_for):
    from labeling.models import Annotation
    from tests.factories import SuggestionFactory

    step = world["annotation"].solution.steps.first()
    SuggestionFactory(step=step, source="symbolic", agent="sympy", value=-1, score=1.0)
    client = client_for("annotator")
    client.post(f"/api/projects/{world['project'].pk}/queue/next/")
    shown = Annotation.objects.get(pk=world["annotation"].pk).shown_suggestions
    assert shown == [
        {"step_id": step.id, "source": "symbolic", "agent": "sympy", "value": -1, "score": 1.0}
    ]


@pytest.mark.parametrize("show", [True, False])
def test_a_fresh_claim_records_the_suggestions_its_page_shows(show, db):
    """A new claim's annotation records what its page shows (on PostgreSQL the claim's INSERT
    writes it: labeling.services.queue.take), in the page's order of steps and suggestions."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from labeling.models import Annotation, Role
    from tests.factories import (
        MembershipFactory,
        ProjectFactory,
        SolutionFactory,
        SuggestionFactory,
    )

    project = ProjectFactory(show_suggestions=show)
    membership = MembershipFactory(project=project, role=Role.ANNOTATOR)
    solution = SolutionFactory(problem__project=project, steps=3)
    steps = list(solution.steps.order_by("index"))
    SuggestionFactory(step=steps[2], source="symbolic", agent="sympy", value=-1, score=1.0)
    SuggestionFactory(step=steps[0], source="judge", agent="z-judge", value=1, score=0.8125)
    SuggestionFactory(step=steps[0], source="judge", agent="a-judge", value=None, score=None)
    client = APIClient()
    client.force_authenticate(membership.user)
    with CaptureQueriesContext(connection) as sent:
        task = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    updates = [q for q in sent.captured_queries if "SET shown_suggestions" in q["sql"]]
    assert len(updates) == (0 if connection.vendor == "postgresql" else int(show))
    page = [
        {"step_id": step["id"], **{k: g[k] for k in ("source", "agent", "value", "score")}}
        for step in task["solution"]["steps"]
        for g in step["suggestions"]
    ]
    shown = Annotation.objects.get(pk=task["annotation"]["id"]).shown_suggestions
    assert shown == page
    expected = [(steps[0].id, "a-judge"), (steps[0].id, "z-judge"), (steps[2].id, "sympy")]
    assert [(g["step_id"], g["agent"]) for g in shown] == (expected if show else [])


def test_a_second_session_of_the_same_user_gets_their_claimed_solution(world):
    """Two API tokens (two browsers, a script beside the page) of one annotator: the second
    session's claim answers the draft the first holds, not the next solution or "all done"."""
    from labeling.models import Annotation
    from labeling.services.people.tokens import token_create

    user, pid = world["users"]["spare"], world["project"].pk
    sessions = []
    for name in ("laptop", "desktop"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user, name=name).key}")
        sessions.append(client)
    first = sessions[0].post(f"/api/projects/{pid}/queue/next/")
    assert first.status_code == 200
    again = sessions[1].post(f"/api/projects/{pid}/queue/next/")
    assert again.status_code == 200
    assert again.json()["annotation"]["id"] == first.json()["annotation"]["id"]
    assert Annotation.objects.filter(annotator=user).count() == 1
