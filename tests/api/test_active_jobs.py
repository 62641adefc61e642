"""A project holds at most PROJECT_ACTIVE_JOBS unfinished jobs of each kind
(labeling/services/jobs/quota.py): a project admin (or a reviewer, for exports) could queue
auto-label runs, exports and imports without end and starve every other project's workers.
The next one is a 409 in words; a finished or cancelled one frees its place; the operator
raises a bound; staff and the server itself are not bounded; a retry with the same
idempotency key still answers the job it made."""

import io
import json

import pytest

from autolabel.models import AutolabelRun
from labeling.models import Export, ImportJob
from labeling.services.exports.snapshots import export_create

pytestmark = pytest.mark.django_db


def _import_form() -> dict:
    row = {"problem": "1+1?", "answer": "2", "steps": ["1+1 = 2"]}
    return {"file": io.BytesIO((json.dumps(row) + "\n").encode()), "format": "steplab"}


KINDS = {
    "autolabel_runs": ("autolabel-runs", lambda: {"sources": ["answer"]}, "json", AutolabelRun),
    "exports": ("exports", lambda: {"format": "trl"}, "json", Export),
    "imports": ("imports", _import_form, "multipart", ImportJob),
}


def _post(client, project, kind: str, **headers):
    path, body, fmt, _ = KINDS[kind]
    return client.post(f"/api/projects/{project.pk}/{path}/", body(), format=fmt, **headers)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_project_holds_a_bounded_number_of_unfinished_jobs(world, client_for, settings, kind):
    settings.PROJECT_ACTIVE_JOBS = {kind: 2}
    project, admin = world["project"], client_for("admin")
    model = KINDS[kind][3]
    for _ in range(2):
        assert _post(admin, project, kind).status_code == 202
    refused = _post(admin, project, kind)
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "conflict" and error["details"] == {"limit": 2}
    assert f"PROJECT_ACTIVE_JOBS['{kind}']" in error["message"]
    assert "wait for one to finish or cancel one" in error["message"]
    assert model.objects.filter(project=project).count() == 2
    # Another project is not bounded by this one's jobs; a finished job frees its place.
    model.objects.filter(pk=model.objects.filter(project=project).first().pk).update(
        status="failed"
    )
    assert _post(admin, project, kind).status_code == 202
    assert _post(admin, project, kind).status_code == 409
    # The operator raises the bound; staff are not bounded.
    settings.PROJECT_ACTIVE_JOBS = {kind: 3}
    assert _post(admin, project, kind).status_code == 202
    assert _post(client_for("staff"), project, kind).status_code == 202


def test_a_paused_run_holds_its_place(world, client_for, settings):
    settings.PROJECT_ACTIVE_JOBS = {"autolabel_runs": 1}
    project, admin = world["project"], client_for("admin")
    first = _post(admin, project, "autolabel_runs").json()["id"]
    AutolabelRun.objects.filter(pk=first).update(status="paused")
    assert _post(admin, project, "autolabel_runs").status_code == 409
    assert admin.post(f"/api/autolabel-runs/{first}/cancel/").status_code == 200
    assert _post(admin, project, "autolabel_runs").status_code == 202


def test_a_reviewers_exports_are_bounded_and_the_server_is_not(world, client_for, settings):
    settings.PROJECT_ACTIVE_JOBS = {"exports": 1}
    project, reviewer = world["project"], client_for("reviewer")
    assert _post(reviewer, project, "exports").status_code == 202
    assert _post(reviewer, project, "exports").status_code == 409
    export_create(project=project, created_by=None, format="trl")  # a management command
    assert Export.objects.filter(project=project).count() == 2


def test_a_retry_with_the_same_idempotency_key_answers_the_job_it_made(world, client_for, settings):
    settings.PROJECT_ACTIVE_JOBS = {"exports": 1}
    project, admin = world["project"], client_for("admin")
    made = _post(admin, project, "exports", HTTP_IDEMPOTENCY_KEY="k-1")
    again = _post(admin, project, "exports", HTTP_IDEMPOTENCY_KEY="k-1")
    assert made.status_code == again.status_code == 202
    assert made.json()["id"] == again.json()["id"]
