"""A long solution costs what a short one does, step for step (issue 28): the label page's
payload, a draft, a submit and a predictions upload make the same number of queries for 2,000
steps as for 20, the payload grows by a bounded amount a step, and an import refuses a solution
of more steps than a draft or a submit can carry. Times are measured in
bench/long_solution_bench.py (ratios), not asserted here."""

import io
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from labeling.api import bounds
from labeling.importers import ImportFileError, limits
from labeling.models import Problem, Solution, Suggestion
from labeling.services.imports import import_file
from labeling.services.imports.predictions import predictions_upload
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

SHORT, LONG = 20, 2000
TEXT = "ran tool call {k} and read its output"


def _row(name: str, steps: int) -> dict:
    return {
        "id": name,
        "problem": f"Fix the failing build ({name}).",
        "answer": "done",
        "steps": [TEXT.format(k=k) for k in range(steps)],
        "labels": [1] * steps,  # imported as suggestions: every step has one
        "generator": "agent-1",
    }


def _project(tmp_path, user, rows: list[dict], name: str):
    project = ProjectFactory(name=name, first_error_mode=False, show_suggestions=True)
    MembershipFactory(project=project, user=user, role="annotator")
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab", labels_as="suggestions")
    return project


def _costs(client: APIClient, project) -> dict:
    """Queries (and the payload's bytes) of a claim, a draft of every step and the submit."""
    with CaptureQueriesContext(connection) as claim:
        answer = client.post(f"/api/projects/{project.pk}/queue/next/")
    assert answer.status_code == 200, answer.content
    task = answer.json()
    steps = task["solution"]["steps"]
    assert all(s["suggestions"] for s in steps)
    aid = task["annotation"]["id"]
    labels = [{"step_id": s["id"], "rating": 1} for s in steps]
    with CaptureQueriesContext(connection) as draft:
        saved = client.put(
            f"/api/annotations/{aid}/draft/", {"version": 1, "labels": labels}, format="json"
        )
    assert saved.status_code == 200, saved.content
    with CaptureQueriesContext(connection) as submit:
        done = client.post(
            f"/api/annotations/{aid}/submit/", {"version": 2, "labels": labels}, format="json"
        )
    assert done.status_code == 200, done.content
    return {
        "claim": len(claim),
        "draft": len(draft),
        "submit": len(submit),
        "bytes": len(answer.content),
        "steps": len(steps),
    }


# PostgreSQL writes any number of rows in one statement (unnest); SQLite, 1,000 rows a statement.
@pytest.mark.postgres
def test_a_long_solution_costs_the_queries_of_a_short_one(tmp_path):
    user = UserFactory(username="tracer")
    client = APIClient()
    client.force_authenticate(user)
    warm = _project(tmp_path, user, [_row("w", SHORT)], "Warm")
    short = _project(tmp_path, user, [_row("s", SHORT)], "Short")
    long = _project(tmp_path, user, [_row("l", LONG)], "Long")
    _costs(client, warm)  # statements compile once a thread: the first claim pays for that
    small, big = _costs(client, short), _costs(client, long)
    assert big["steps"] == LONG and small["steps"] == SHORT
    for what in ("claim", "draft", "submit"):
        assert big[what] == small[what], (what, small, big)
    # The payload grows by the same bytes a step (its text, id, suggestion), not faster.
    per_step = (big["bytes"] - small["bytes"]) / (LONG - SHORT)
    assert per_step < len(TEXT) + 400, per_step
    assert big["bytes"] < small["bytes"] + LONG * (len(TEXT) + 400)


@pytest.mark.postgres
def test_a_predictions_upload_costs_the_queries_of_a_short_one(tmp_path):
    user = UserFactory(username="modeler")
    project = _project(tmp_path, user, [_row("s", SHORT), _row("l", LONG)], "Predicted")

    def upload(external_id: str, steps: int, version: str) -> int:
        line = {"id": external_id, "name": "m", "version": version, "labels": [-1] * steps}
        body = io.BytesIO((json.dumps(line) + "\n").encode())
        with CaptureQueriesContext(connection) as queries:
            result = predictions_upload(project=project, source=body, filename="p.jsonl")
        assert result.steps_written == steps
        return len(queries)

    upload("s", SHORT, "0")  # warm
    # A solution of more than the old 1,000-step bound takes a prediction for every step.
    assert upload("l", LONG, "1") == upload("s", SHORT, "1")
    long_solution = Solution.objects.get(external_id="l")
    assert Suggestion.objects.filter(step__solution=long_solution, agent="m@1").count() == LONG


def test_an_import_refuses_more_steps_than_a_submit_carries(tmp_path, monkeypatch):
    assert limits.STEPS_MAX == bounds.MAX_LABELS  # what is imported can be labeled
    monkeypatch.setattr(limits, "STEPS_MAX", 30)
    project = ProjectFactory()
    path = tmp_path / "traces.jsonl"
    rows = [_row("ok", 30), _row("too-long", 31)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(ImportFileError) as caught:
        import_file(project=project, path=path, fmt="steplab")
    error = caught.value
    assert (error.file, error.line, error.field) == ("traces.jsonl", 2, "steps")
    assert "31 steps" in error.message and "at most 30" in error.message
    assert not Problem.objects.filter(project=project).exists()  # all or nothing


def test_a_solution_split_by_the_project_rule_is_bounded_too(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "STEPS_MAX", 30)
    path = tmp_path / "one-string.jsonl"
    row = {"problem": "p", "answer": "a", "solution": "\n".join(f"line {k}" for k in range(31))}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ImportFileError) as caught:
        import_file(project=ProjectFactory(), path=path, fmt="steplab")
    assert (caught.value.line, caught.value.field) == (1, "steps")
