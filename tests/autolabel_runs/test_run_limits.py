"""What a project admin's run may ask of a worker (autolabel/limits.py): rollouts, tokens,
votes, seconds, megabytes, threads and tests within settings.AUTOLABEL_LIMITS, refused with a 400
naming `params.<source>.<key>` and the setting; an operator raises a cap, staff are not capped.
A model backend's own numbers are typed and bounded for everyone (a string or 10^9 threads or
retries reached the worker, where every item failed or a chunk held it for an hour)."""

import pytest
from rest_framework.test import APIClient

from autolabel.completers.config import validate_backend
from autolabel.models import AutolabelRun

pytestmark = pytest.mark.django_db

SCRIPTED = {"kind": "scripted"}
SERVER = "http://127.0.0.1:9/v1"
OPENAI = {"kind": "openai", "base_url": SERVER, "model": "m"}


@pytest.fixture
def project(pb_project, settings):
    pb_project.domain = "mixed"  # every source applies
    pb_project.save(update_fields=["domain"])
    settings.MODEL_SERVER_URLS = [SERVER]
    return pb_project


def _post(project, user, source: str, params: dict):
    client = APIClient()
    client.force_authenticate(user)
    ids = list(project.solutions.order_by("id").values_list("id", flat=True)[:1])
    return client.post(
        f"/api/projects/{project.pk}/autolabel-runs/",
        {"sources": [source], "params": {source: params}, "filter": {"solution_ids": ids}},
        format="json",
    )


def _refused(response, field: str) -> str:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["details"]["field"] == field, error
    assert not AutolabelRun.objects.exists()
    return error["message"]


COSTLY = [
    ("rollout", {"backend": SCRIPTED, "n": 100_000}, "params.rollout.n"),
    ("rollout", {"backend": SCRIPTED, "method": "binary_search", "k": 5000}, "params.rollout.k"),
    ("rollout", {"backend": SCRIPTED, "max_tokens": 1_000_000}, "params.rollout.max_tokens"),
    ("rollout", {"backend": {**OPENAI, "timeout_s": 3600}}, "params.rollout.backend.timeout_s"),
    ("rollout", {"backend": {**OPENAI, "max_retries": 20}}, "params.rollout.backend.max_retries"),
    ("judge", {"backend": OPENAI, "votes": 64}, "params.judge.votes"),
    ("judge", {"backend": OPENAI, "max_tokens": 131_072}, "params.judge.max_tokens"),
    ("judge", {"backend": {**OPENAI, "concurrency": 256}}, "params.judge.backend.concurrency"),
    ("symbolic", {"timeout_s": 600}, "params.symbolic.timeout_s"),
    ("answer", {"timeout_s": 600}, "params.answer.timeout_s"),
    ("code", {"timeout_s": 120}, "params.code.timeout_s"),
    ("code", {"memory_mb": 16_384}, "params.code.memory_mb"),
    (
        "code",
        {"tests": [{"input": "", "output": ""}] * 1000, "all_tests": True},
        "params.code.tests",
    ),
    ("code", {"tests": "assert True\n" * 1000}, "params.code.tests"),
]


@pytest.mark.parametrize(("source", "params", "field"), COSTLY)
def test_a_project_admins_costly_run_is_capped(project, source, params, field):
    message = _refused(_post(project, project.admin, source, params), field)
    assert "AUTOLABEL_LIMITS" in message and "server admin may raise it" in message


def test_a_prm_batch_too_big_is_capped(project, settings):
    settings.AUTOLABEL_LIMITS = {"batch_size": 4}
    params = {"convention": "qwen", "backend": "vllm", "url": SERVER, "model": "m"}
    _refused(
        _post(project, project.admin, "prm", {**params, "batch_size": 8}), "params.prm.batch_size"
    )


def test_the_operator_raises_a_cap_and_staff_are_not_capped(project, settings):
    admin = project.admin
    within = _post(project, admin, "rollout", {"backend": SCRIPTED, "n": 64})
    assert within.status_code == 202, within.content
    settings.AUTOLABEL_LIMITS = {"rollouts": 1000}
    raised = _post(project, admin, "rollout", {"backend": SCRIPTED, "n": 1000})
    assert raised.status_code == 202, raised.content
    admin.is_staff = True
    admin.save()
    staff = _post(project, admin, "code", {"memory_mb": 16_384, "timeout_s": 120})
    assert staff.status_code == 202, staff.content


@pytest.mark.parametrize(
    ("backend", "key"),
    [
        ({**OPENAI, "concurrency": "4"}, "concurrency"),
        ({**OPENAI, "concurrency": 10**9}, "concurrency"),
        ({**OPENAI, "max_retries": 10**9}, "max_retries"),
        ({**OPENAI, "max_retries": -1}, "max_retries"),
        ({**OPENAI, "timeout_s": 1e300}, "timeout_s"),
        ({**OPENAI, "timeout_s": 0}, "timeout_s"),
        ({**OPENAI, "timeout_s": True}, "timeout_s"),
        ({"kind": "transformers", "path": "/m", "batch_size": 2.5}, "batch_size"),
        ({"kind": "transformers", "path": "/m", "batch_size": 10**6}, "batch_size"),
    ],
)
def test_a_backends_numbers_are_bounded_for_everyone(project, backend, key):
    with pytest.raises(ValueError, match=key):
        validate_backend(backend)
    admin = project.admin
    admin.is_staff = True  # staff too: no server means these
    admin.save()
    _refused(_post(project, admin, "judge", {"backend": backend}), "params.judge.backend")


def test_assert_style_tests_within_the_cap_are_taken(project):
    """parse_tests answers a string of assert-style tests with the string itself: the creation
    check took that for an error and refused every such run, echoing the whole code."""
    response = _post(project, project.admin, "code", {"tests": "assert 1 + 1 == 2\n" * 3})
    assert response.status_code == 202, response.content
    AutolabelRun.objects.all().delete()
    bad = _post(project, project.admin, "code", {"tests": 5})
    assert _refused(bad, "params.code").startswith("params.code: tests: unrecognised tests")


def test_a_runs_own_tests_over_the_item_budget_are_refused_for_staff_too(project):
    """The worker holds every run's items to the per-item sandbox budget (staff's included:
    labeling/rules/code_tests.py), so a run whose own tests it would skip is refused now."""
    admin = project.admin
    admin.is_staff = True
    admin.save()
    many = _post(project, admin, "code", {"tests": "assert True\n" * 201})
    assert "201 tests; at most 200" in _refused(many, "params.code.tests")
    big = _post(project, admin, "code", {"tests": [{"input": "x" * 4_000_001}]})
    assert "bytes of tests; at most 4000000" in _refused(big, "params.code.tests")
