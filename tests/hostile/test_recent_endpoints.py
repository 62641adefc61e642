"""The endpoints added last, sent what a hostile client sends (in-process, no server: quick):
list parameters out of every range (limit, offset, and the page / page_size / cursor other
paginations take), ids that overflow a bigint, that do not exist or that belong to another
project, bodies of the wrong type on the run actions. Each answer is a 2xx the caller may have
or a 4xx in the one error shape; nothing of another project is touched."""

import pytest
from rest_framework.test import APIClient

from autolabel.models import AutolabelRun
from labeling.models import Export, ProjectMembership
from tests.factories import ProjectFactory
from tests.review.conftest import member
from training_runs.models import PrmModel

pytestmark = pytest.mark.django_db

HUGE = str(2**63)
NUMBERS = ["-1", "0", HUGE, "1" + "0" * 30, "1e3", "0x10", "abc", "\uff15", " 5", "5.0", "", "NaN"]
LISTS = [
    "/api/projects/{a}/prm-models/",
    "/api/projects/{a}/exports/",
    "/api/projects/{a}/autolabel-runs/",
    "/api/projects/{a}/training-runs/",
    "/api/projects/{a}/rejections/",
    "/api/projects/{a}/members/",
    "/api/auth/tokens/",
    "/api/projects/",
]
# Listed whole (bounded by the collection caps): the paging parameters are ignored.
WHOLE = ["/api/projects/{a}/invites/", "/api/projects/{a}/prm-models/{model_a}/"]
PARAMS = ["limit", "offset", "page", "page_size", "cursor"]


@pytest.fixture
def world():
    a, b = ProjectFactory(name="A"), ProjectFactory(name="B")
    admin = member(a, "admin", role="admin")
    member(b, "admin_b", role="admin")
    ProjectMembership.objects.create(project=b, user=admin, role="admin")  # admin of both
    client = APIClient()
    client.force_authenticate(admin)
    ids = {
        "a": a.pk,
        "model_b": PrmModel.objects.create(project=b, name="theirs", path="/m").pk,
        "model_a": PrmModel.objects.create(project=a, name="ours", path="/m").pk,
        "export_b": Export.objects.create(project=b, format="trl", status="done").pk,
        "run_b": AutolabelRun.objects.create(project=b, sources=["answer"]).pk,
        "run_a": AutolabelRun.objects.create(project=a, sources=["answer"]).pk,
    }
    return {"client": client, "ids": ids, "b": b}


def _error_shape(res) -> None:
    assert res.status_code < 500, (res.request, res.status_code, res.content[:300])
    if res.status_code >= 400:
        body = res.json()
        assert set(body) == {"error"}, body
        assert {"code", "message"} <= set(body["error"]), body


@pytest.mark.parametrize("path", LISTS + WHOLE)
def test_list_parameters_out_of_range_are_a_400_or_ignored(world, path):
    url = path.format(**world["ids"])
    for param in PARAMS:
        for value in NUMBERS:
            res = world["client"].get(url, {param: value})
            _error_shape(res)
            if path in WHOLE:
                continue
            if param in ("limit", "offset") and value in ("-1", HUGE, "abc", "0x10", "\uff15"):
                assert res.status_code == 400, (url, param, value, res.content[:200])
                assert res.json()["error"]["code"] == "validation_error"
    res = world["client"].get(url + "?limit=5&limit=-1&offset=1&offset=" + HUGE)
    _error_shape(res)


@pytest.mark.parametrize(
    "method,path",
    [
        ("delete", "/api/projects/{a}/prm-models/{model_b}/"),
        ("delete", "/api/projects/{a}/prm-models/" + HUGE + "/"),
        ("delete", "/api/projects/" + HUGE + "/prm-models/{model_a}/"),
        ("delete", "/api/exports/" + HUGE + "/"),
        ("delete", "/api/exports/0/"),
        ("post", "/api/autolabel-runs/" + HUGE + "/pause/"),
        ("post", "/api/autolabel-runs/" + HUGE + "/resume/"),
        ("post", "/api/autolabel-runs/" + HUGE + "/cancel/"),
        ("post", "/api/autolabel-runs/0/cancel/"),
    ],
)
def test_unknown_ids_are_a_404(world, method, path):
    res = getattr(world["client"], method)(path.format(**world["ids"]))
    _error_shape(res)
    assert res.status_code == 404, res.content[:200]


def test_another_projects_model_is_not_deleted_through_this_project(world):
    ids = world["ids"]
    res = world["client"].delete(f"/api/projects/{ids['a']}/prm-models/{ids['model_b']}/")
    assert res.status_code == 404
    assert PrmModel.objects.filter(pk=ids["model_b"]).exists()


@pytest.mark.parametrize("action", ["pause", "resume", "cancel"])
@pytest.mark.parametrize(
    "body",
    ['"pause"', "[1, 2]", "null", '{"status": "running", "project": 1}', "9" * 400, "{"],
)
def test_run_actions_take_no_body_whatever_is_sent(world, action, body):
    run = world["ids"]["run_a"]
    res = world["client"].generic(
        "POST", f"/api/autolabel-runs/{run}/{action}/", body, content_type="application/json"
    )
    _error_shape(res)
    assert AutolabelRun.objects.get(pk=run).project_id == world["ids"]["a"]


def test_run_actions_of_another_project_change_nothing(world):
    """A run and an export of a project the caller is no longer an admin of: refused, and
    they stay as they were."""
    ProjectMembership.objects.filter(project=world["b"], user__username="admin").update(
        role="annotator"
    )
    run = world["ids"]["run_b"]
    for action in ("pause", "cancel"):
        res = world["client"].post(f"/api/autolabel-runs/{run}/{action}/")
        _error_shape(res)
        assert res.status_code in (403, 404), res.content[:200]
    assert AutolabelRun.objects.get(pk=run).status == "pending"
    res = world["client"].delete(f"/api/exports/{world['ids']['export_b']}/")
    assert res.status_code in (403, 404)
    assert Export.objects.filter(pk=world["ids"]["export_b"]).exists()
