"""Pause, resume and cancel over the API: who may, idempotent calls, 409s in the one error
shape for impossible transitions, bounds on the id; and the progress a run reports."""

import pytest
from rest_framework.test import APIClient

from autolabel.models import AutolabelRun, RunStatus
from autolabel.services import autolabel_run_create
from tests.autolabel_runs.test_run_progress import _project
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def run():
    project = _project(4)
    project.admin = UserFactory(username="runadmin")
    MembershipFactory(project=project, user=project.admin, role="admin")
    run = autolabel_run_create(project=project, sources=["symbolic"])
    run.project = project
    return run


def test_admins_pause_resume_and_cancel_idempotently(run):
    admin = _client(run.project.admin)
    url = f"/api/autolabel-runs/{run.pk}"
    for _ in range(2):
        response = admin.post(f"{url}/pause/")
        assert response.status_code == 200, response.content
        assert response.json()["status"] == "paused"
    for _ in range(2):
        assert admin.post(f"{url}/resume/").json()["status"] == "pending"
    assert admin.post(f"{url}/pause/").json()["status"] == "paused"
    for _ in range(2):
        assert admin.post(f"{url}/cancel/").json()["status"] == "cancelled"


@pytest.mark.parametrize("action", ["pause", "resume", "cancel"])
def test_impossible_transitions_are_409s_that_change_nothing(run, action):
    AutolabelRun.objects.filter(pk=run.pk).update(status=RunStatus.DONE)
    response = _client(run.project.admin).post(f"/api/autolabel-runs/{run.pk}/{action}/")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "conflict" and "done" in error["message"]
    assert AutolabelRun.objects.get(pk=run.pk).status == RunStatus.DONE


@pytest.mark.parametrize("action", ["pause", "resume", "cancel"])
def test_only_project_admins_control_a_run(run, action):
    reviewer, outsider = UserFactory(username="rev"), UserFactory(username="out")
    MembershipFactory(project=run.project, user=reviewer, role="reviewer")
    url = f"/api/autolabel-runs/{run.pk}/{action}/"
    assert _client(reviewer).post(url).status_code == 403
    assert _client(outsider).post(url).status_code == 404
    assert APIClient().post(url).status_code == 403
    assert AutolabelRun.objects.get(pk=run.pk).status == RunStatus.PENDING


@pytest.mark.parametrize("run_id", ["0", "99999999", "9" * 30])
def test_unknown_or_out_of_range_ids_are_404s_in_the_error_shape(run, run_id):
    response = _client(run.project.admin).post(f"/api/autolabel-runs/{run_id}/pause/")
    assert response.status_code == 404
    assert response.json()["error"]["code"]


def test_a_run_reports_rate_time_left_verdicts_and_failures(run):
    AutolabelRun.objects.filter(pk=run.pk).update(
        status=RunStatus.RUNNING,
        done=1,
        failed=1,
        rate=0.5,
        verdicts={"-1": 3, "doubtful": 2, "evidence": 4},
        error_groups=[{"error": "ValueError: no parse", "count": 1}],
    )
    body = _client(run.project.admin).get(f"/api/autolabel-runs/{run.pk}/").json()
    assert (body["rate"], body["eta_seconds"], body["progress"]) == (0.5, 4.0, 0.5)
    assert body["verdicts"] == {"plus": 0, "zero": 0, "minus": 3, "doubtful": 2, "evidence": 4}
    assert body["error_groups"] == [{"error": "ValueError: no parse", "count": 1}]
    AutolabelRun.objects.filter(pk=run.pk).update(prepared=False)
    body = _client(run.project.admin).get(f"/api/autolabel-runs/{run.pk}/").json()
    assert (body["eta_seconds"], body["progress"]) == (None, 0.0)  # its start still writes items
    AutolabelRun.objects.filter(pk=run.pk).update(status=RunStatus.PAUSED, prepared=True)
    body = _client(run.project.admin).get(f"/api/autolabel-runs/{run.pk}/").json()
    assert body["eta_seconds"] is None  # no time left while nothing runs
