# ruff: noqa: F811 (the fixtures imported below are used as arguments)
"""The Hub through the API: push an export and import a split, each a job a real worker runs."""

import time

import pytest
from rest_framework.test import APIClient

from labeling.models import Export, HubPush, ImportJob, Solution
from labeling.services.exports.snapshots import export_build, export_create
from tests.exports.test_api import client_for, world  # noqa: F401
from tests.exports.test_hub import hub  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def _done_export(world) -> Export:
    export = export_create(
        project=world["project"],
        created_by=None,
        format="trl",
        filters={"label_source": "human"},
        split_policy={"mode": "none"},
    )
    return export_build(export=export)


def _poll(client: APIClient, url: str, *, until=("done", "failed")) -> dict:
    start = time.monotonic()
    seen = []
    while time.monotonic() < start + 180:
        body = client.get(url).json()
        seen.append((round(time.monotonic() - start, 1), body["status"]))
        if body["status"] in until:
            return body
        time.sleep(0.2)
    raise AssertionError(f"{url} still {body['status']}: {seen[:3]} ... {seen[-3:]}")


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 403), ("annotator", 403), ("outsider", 404), ("reviewer", 403)],
)
def test_only_project_admins_push(world, role, status):
    export = _done_export(world)
    answer = client_for(world, role).post(
        f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": "team/a"}, format="json"
    )
    assert answer.status_code == status
    assert not HubPush.objects.exists()


@pytest.mark.parametrize("repo_id", ["nope", "a/b/c", "../x", "a" * 200])
def test_a_bad_repo_id_is_a_400_naming_the_field(world, repo_id):
    export = _done_export(world)
    answer = client_for(world, "admin").post(
        f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": repo_id}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] in ("validation_error", "hub_error")
    assert not HubPush.objects.exists()


def test_an_export_not_done_is_a_409(world):
    export = export_create(project=world["project"], created_by=None, format="trl")
    answer = client_for(world, "admin").post(
        f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": "team/a"}, format="json"
    )
    assert answer.status_code == 409


def test_push_and_import_through_the_api(world, hub, exports_worker, settings):
    settings.HUB_SERVER_TOKEN_REPOS = ["team/"]  # the server's token, for a project admin
    export = _done_export(world)
    admin = client_for(world, "admin")
    answer = admin.post(
        f"/api/exports/{export.pk}/hub-pushes/", {"repo_id": "team/alpha"}, format="json"
    )
    assert answer.status_code == 202, answer.content
    push = _poll(admin, f"/api/hub-pushes/{answer.json()['id']}/")
    assert push["status"] == "done", push["error"]
    assert push["tag"] == f"export-{export.pk}" and push["private"] is True
    assert push["splits"] == {"train": export.row_count}
    listed = admin.get(f"/api/exports/{export.pk}/hub-pushes/").json()
    assert [p["id"] for p in listed] == [push["id"]]

    project = world["project"]
    answer = admin.post(
        f"/api/projects/{project.pk}/imports/",
        {"hub_repo": "team/alpha", "hub_split": "train", "format": "trl"},
        format="json",
    )
    assert answer.status_code == 202, answer.content
    job = _poll(admin, f"/api/imports/{answer.json()['id']}/")
    assert job["status"] == "done", job["error"]
    assert job["hub"]["repo_id"] == "team/alpha" and job["hub"]["rows"] == export.row_count
    assert job["filename"] == "hf://datasets/team/alpha (default/train)"
    assert ImportJob.objects.get(pk=job["id"]).file


def test_import_takes_a_file_or_a_hub_repo_not_both_nor_neither(world):
    admin = client_for(world, "admin")
    url = f"/api/projects/{world['project'].pk}/imports/"
    assert admin.post(url, {}, format="json").status_code == 400
    bad = admin.post(url, {"hub_repo": "x/y", "hub_split": "../../etc"}, format="json")
    assert bad.status_code == 400
    assert "hub_split" in bad.json()["error"]["details"]
    assert not ImportJob.objects.exists()
    assert Solution.objects.count() == 3
