"""The export API: roles, validation, the 202 → poll → download flow through a real worker."""

import hashlib
import time

import pytest
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from labeling.models import Export
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.jobs import outbox
from labeling.services.people.tokens import token_create
from tests.exports.conftest import annotate
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

ROLES = ["anonymous", "annotator", "outsider", "reviewer", "admin"]


@pytest.fixture
def world(db):
    project = ProjectFactory(name="Alpha")
    other = ProjectFactory(name="Beta")
    users = {name: UserFactory(username=name) for name in ROLES[1:]}
    for role in ("annotator", "reviewer", "admin"):
        MembershipFactory(project=project, user=users[role], role=role)
    MembershipFactory(project=other, user=users["outsider"], role="admin")
    for i in range(3):
        solution = SolutionFactory(problem__project=project, steps=3, external_id=f"s{i}")
        annotate(solution, users["annotator"], [1, 1, -1])
    return {"project": project, "users": users}


def client_for(world, role: str) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(world["users"][role])
    return client


def _done_export(world) -> Export:
    export = export_create(project=world["project"], created_by=None, format="trl")
    return export_build(export=export)


CREATE = {"format": "trl", "filters": {"label_source": "human"}}


def _call(name: str, client: APIClient, pid: int, eid: int):
    if name == "create":
        return client.post(f"/api/projects/{pid}/exports/", CREATE, "json")
    if name == "list":
        return client.get(f"/api/projects/{pid}/exports/")
    if name == "delete":
        return client.delete(f"/api/exports/{eid}/")
    suffix = {"detail": "", "download": "download/", "card": "card/"}[name]
    return client.get(f"/api/exports/{eid}/{suffix}")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("create", [403, 403, 404, 202, 202]),
        ("list", [403, 403, 404, 200, 200]),
        ("detail", [403, 403, 404, 200, 200]),
        ("download", [403, 403, 404, 200, 200]),
        ("card", [403, 403, 404, 200, 200]),
        ("delete", [403, 403, 404, 403, 204]),
    ],
)
def test_permissions(world, name, expected, django_capture_on_commit_callbacks, monkeypatch):
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)
    pid = world["project"].pk
    for role, status in zip(ROLES, expected, strict=True):
        export = _done_export(world)
        with django_capture_on_commit_callbacks(execute=True):
            response = _call(name, client_for(world, role), pid, export.pk)
        assert response.status_code == status, (name, role, getattr(response, "content", b""))


@pytest.mark.django_db
def test_validation_errors_have_the_one_error_shape(world):
    client = client_for(world, "reviewer")
    url = f"/api/projects/{world['project'].pk}/exports/"
    response = client.post(url, {"format": "trl", "filters": {"label_source": "gut"}}, "json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "label_source" in error["message"]
    response = client.post(
        url, {"format": "trl", "filters": {"label_source": "auto_any", "min_score": 2}}, "json"
    )
    assert response.status_code == 400 and "min_score" in response.json()["error"]["message"]
    response = client.post(url, {"format": "trl", "filters": {"min_score": 0.5}}, "json")
    assert response.status_code == 400  # annotations carry no machine score
    assert response.json()["error"]["message"].startswith("filters.min_score only applies")
    response = client.post(url, {"format": "csv"}, "json")
    assert response.status_code == 400 and response.json()["error"]["message"].startswith("format")
    response = client.post(url, {"format": "trl", "label_policy": {"neutal": "x"}}, "json")
    assert response.status_code == 400 and "neutal" in response.json()["error"]["message"]
    response = client.post(url, {"format": "trl", "split_policy": {"train": 0.5}}, "json")
    assert response.status_code == 202  # validation and test share the rest equally
    assert response.json()["split_policy"]["test"] == 0.25
    response = client.post(
        url,
        {"format": "trl", "split_policy": {"train": 0.5, "validation": 0.1, "test": 0.1}},
        "json",
    )
    assert response.status_code == 400 and "add up to 1" in response.json()["error"]["message"]
    assert Export.objects.count() == 1


@pytest.mark.django_db
def test_download_before_done_is_a_conflict_and_patch_is_not_offered(world):
    export = export_create(project=world["project"], created_by=None, format="trl")
    client = client_for(world, "admin")
    response = client.get(f"/api/exports/{export.pk}/download/")
    assert response.status_code == 409 and response.json()["error"]["code"] == "conflict"
    assert client.get(f"/api/exports/{export.pk}/card/").status_code == 409
    detail = client.get(f"/api/exports/{export.pk}/").json()
    assert detail["status"] == "pending" and detail["download_url"] is None
    assert client.patch(f"/api/exports/{export.pk}/", {"format": "prm800k"}).status_code == 405


@pytest.mark.django_db
def test_openapi_documents_the_export_endpoints(world):
    schema = client_for(world, "admin").get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/projects/{project_id}/exports/"])
    assert {"get", "delete"} <= set(paths["/api/exports/{export_id}/"])
    download = paths["/api/exports/{export_id}/download/"]["get"]["responses"]["200"]
    assert download["content"]["application/octet-stream"]["schema"]["format"] == "binary"
    body = schema["components"]["schemas"]["ExportInputRequest"]["properties"]
    assert {"format", "file_type", "filters", "label_policy", "split_policy"} <= set(body)


def _wait(client, export_id: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/exports/{export_id}/").json()
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"export {export_id} did not finish: {body}")


def test_create_poll_download_with_a_token_through_a_worker(world, exports_worker):
    reviewer = world["users"]["reviewer"]
    token = token_create(user=reviewer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post(
        f"/api/projects/{world['project'].pk}/exports/",
        {"format": "trl", "file_type": "jsonl.gz", "filters": {"label_source": "human"}},
        format="json",
    )
    assert response.status_code == 202, response.content
    created = response.json()
    assert created["status"] == "pending" and created["created_by"]["username"] == "reviewer"
    body = _wait(client, created["id"])
    assert body["status"] == "done", body
    assert body["row_count"] == 3 and body["progress"]["fraction"] == 1.0
    assert body["progress"]["solutions_done"] == body["progress"]["solutions_total"] == 3
    download = client.get(body["download_url"])
    assert download.status_code == 200
    data = b"".join(download.streaming_content)
    assert hashlib.sha256(data).hexdigest() == body["sha256"] == download["X-Checksum-SHA256"]
    assert download["Content-Type"] == "application/gzip"
    assert f'filename="{body["file_name"]}"' in download["Content-Disposition"]
    card = client.get(body["card_url"])
    assert card.status_code == 200 and body["sha256"] in card.content.decode()
    listed = client.get(f"/api/projects/{world['project'].pk}/exports/").json()
    assert [e["id"] for e in listed["results"]] == [created["id"]]
    admin = client_for(world, "admin")
    name = Export.objects.get(pk=created["id"]).file.name
    assert admin.delete(f"/api/exports/{created['id']}/").status_code == 204
    assert not default_storage.exists(name)


@pytest.mark.django_db
def test_default_source_is_final_and_counts_are_in_the_response(world):
    """A reviewer's resolution reaches the default export; the counts by origin are in the
    export's stats (and card), and the preview says the same before the export."""
    from labeling.services.review.actions import review_adjudicate

    project = world["project"]
    reviewed = project.solutions.get(external_id="s0")
    steps = list(reviewed.steps.order_by("index"))
    review_adjudicate(
        solution=reviewed,
        reviewer=world["users"]["reviewer"],
        labels=[{"step_id": s.pk, "rating": -1} for s in steps],
    )
    SolutionFactory(problem__project=project, steps=2, external_id="unlabeled")
    client = client_for(world, "reviewer")
    preview = client.post(f"/api/projects/{project.pk}/exports/preview/", {}, "json")
    assert preview.status_code == 200
    body = preview.json()
    expected = {
        "solutions": {
            "review": 1,
            "agreement": 0,
            "single": 2,
            "machine": 0,
            "tie": 0,
            "no_label": 1,
        },
        "steps": {"review": 3, "agreement": 0, "single": 6, "machine": 0, "tie": 0, "no_label": 0},
    }
    assert body == {
        "label_source": "final",
        "solutions_labeled": 3,
        "solutions_unlabeled": 1,
        "solutions_read": 3,
        "partial": False,
        "final_labels": expected,
    }
    response = client.post(f"/api/projects/{project.pk}/exports/", {"format": "trl"}, "json")
    assert response.status_code == 202
    assert response.json()["filters"]["label_source"] == "final"
    export = export_build(export=Export.objects.get(pk=response.json()["id"]))
    detail = client.get(f"/api/exports/{export.pk}/").json()
    assert detail["stats"]["final_labels"] == expected
    assert (
        "| review: a reviewer's resolution | 1 | 3 |"
        in client.get(f"/api/exports/{export.pk}/card/").content.decode()
    )


@pytest.mark.django_db
def test_preview_roles_validation_and_other_sources(world):
    project = world["project"]
    url = f"/api/projects/{project.pk}/exports/preview/"
    codes = {role: client_for(world, role).post(url, {}, "json").status_code for role in ROLES}
    assert codes == {
        "anonymous": 403,
        "annotator": 403,
        "outsider": 404,
        "reviewer": 200,
        "admin": 200,
    }
    client = client_for(world, "reviewer")
    bad = client.post(url, {"filters": {"machine_labels": "maybe"}}, "json")
    assert bad.status_code == 400 and "error" in bad.json()
    bad = client.post(url, {"filters": {"label_source": "human", "machine_labels": True}}, "json")
    assert bad.status_code == 400
    assert bad.json()["error"]["details"]["field"] == "filters.machine_labels"
    human = client.post(url, {"filters": {"label_source": "human"}}, "json").json()
    assert human["final_labels"] is None and human["solutions_labeled"] == 3


def test_a_done_export_whose_file_is_gone_answers_410(world):
    """The file removed from the disk (or never written: a row marked done by hand) is a 410 in
    the JSON error shape, not a 500 from the storage."""
    from django.core.files.storage import default_storage

    export = _done_export(world)
    client = client_for(world, "admin")
    assert client.get(f"/api/exports/{export.pk}/download/").status_code == 200
    default_storage.delete(export.file.name)
    gone = client.get(f"/api/exports/{export.pk}/download/")
    assert gone.status_code == 410, gone.content
    assert gone.json()["error"]["code"] == "gone"
    assert "build the export again" in gone.json()["error"]["message"]
    Export.objects.filter(pk=export.pk).update(file="")
    assert client.get(f"/api/exports/{export.pk}/download/").status_code == 410
