"""The webhooks API: project admins manage endpoints; bounds, SSRF at creation, secrets."""

import pytest
from rest_framework.test import APIClient

from labeling.models import WebhookDelivery, WebhookEndpoint
from labeling.services.webhooks.endpoints import MAX_ENDPOINTS
from labeling.services.webhooks.events import EVENTS
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

from .conftest import deliver_pending

pytestmark = pytest.mark.django_db
URL = "https://hooks.example.com/steplab"


@pytest.fixture
def world(db):
    project = ProjectFactory(name="Alpha")
    users = {}
    for role in ("admin", "reviewer", "annotator"):
        users[role] = UserFactory(username=role)
        MembershipFactory(project=project, user=users[role], role=role)
    users["outsider"] = UserFactory(username="outsider")
    return project, users


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _base(project) -> str:
    return f"/api/projects/{project.pk}/webhooks/"


def _create(client, project, **body):
    body = {"url": URL, "events": ["export.ready"], **body}
    return client.post(_base(project), body, format="json")


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


def test_admin_creates_lists_edits_and_deletes_an_endpoint(world):
    project, users = world
    client = _client(users["admin"])
    response = _create(client, project, description="CI trigger")
    assert response.status_code == 201, response.content
    body = response.json()
    secret = body["secret"]
    assert secret.startswith("whsec_") and len(secret) > 40
    endpoint = body["endpoint"]
    assert endpoint["url"] == URL and endpoint["events"] == ["export.ready"]
    assert endpoint["active"] is True and endpoint["description"] == "CI trigger"
    project.refresh_from_db()
    assert project.webhook_events == ["export.ready"]

    listed = client.get(_base(project)).json()
    assert [e["id"] for e in listed] == [endpoint["id"]]
    assert secret not in str(listed)  # shown once
    assert listed[0]["secret_hint"] == secret[:10] + "…"

    detail = f"{_base(project)}{endpoint['id']}/"
    patched = client.patch(
        detail, {"events": ["annotation.submitted", "export.ready"], "active": False}, format="json"
    )
    assert patched.status_code == 200, patched.content
    # Stored in the fixed order of the event list.
    assert patched.json()["events"] == ["export.ready", "annotation.submitted"]
    project.refresh_from_db()
    assert project.webhook_events == []  # inactive: nothing listens

    rotated = client.post(f"{detail}rotate-secret/")
    assert rotated.status_code == 200
    assert rotated.json()["secret"] != secret
    assert WebhookEndpoint.objects.get().secret == rotated.json()["secret"]

    assert client.delete(detail).status_code == 204
    assert not WebhookEndpoint.objects.exists()
    assert client.get(detail).status_code == 404


def test_the_event_list(world):
    _, users = world
    response = _client(users["annotator"]).get("/api/webhook-events/")
    assert [e["type"] for e in response.json()] == list(EVENTS)


@pytest.mark.parametrize(
    ("role", "status"), [("reviewer", 403), ("annotator", 403), ("outsider", 404)]
)
def test_only_project_admins_manage_webhooks(world, role, status):
    project, users = world
    endpoint = WebhookEndpoint.objects.create(
        project=project, url=URL, secret="whsec_x", events=["export.ready"]
    )
    client = _client(users[role])
    _error(client.get(_base(project)), status)
    _error(_create(client, project), status)
    detail = f"{_base(project)}{endpoint.pk}/"
    _error(client.patch(detail, {"active": False}, format="json"), status)
    _error(client.delete(detail), status)
    _error(client.post(f"{detail}test/"), status)
    _error(client.post(f"{detail}rotate-secret/"), status)
    _error(client.get(f"{detail}deliveries/"), status)
    assert WebhookEndpoint.objects.get().secret == "whsec_x"


def test_an_endpoint_of_another_project_is_not_found(world):
    project, users = world
    other = ProjectFactory(name="Beta")
    endpoint = WebhookEndpoint.objects.create(
        project=other, url=URL, secret="whsec_x", events=["export.ready"]
    )
    client = _client(users["admin"])
    _error(client.get(f"{_base(project)}{endpoint.pk}/"), 404)
    _error(client.delete(f"{_base(project)}{endpoint.pk}/"), 404)
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://10.0.0.8/hook", "private address"),
        ("http://127.0.0.1:8000/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://localhost:9000/hook", "localhost names this server's own network"),
        ("http://api.localhost/hook", "own network"),
        ("http://metadata.google.internal/x", "own network"),
        ("http://0x7f000001/hook", "loopback"),
        ("http://2130706433/hook", "loopback"),
        ("http://127.1/hook", "loopback"),
        ("http://[::ffff:10.0.0.1]/hook", "private address"),
        ("https://hooks.example.com:99999/x", "not a valid port"),
        ("https://hooks example.com/x", "not a valid host name"),
        ("ftp://hooks.example.com/x", "http:// or https://"),
        ("https://user:pw@hooks.example.com/x", "user name or password"),
        ("not a url", "http:// or https://"),
    ],
)
def test_urls_no_delivery_may_go_to_are_refused_at_creation(world, settings, url, says):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    project, users = world
    error = _error(_create(_client(users["admin"]), project, url=url), 400)
    assert says in error["message"] and error["details"]["field"] == "url"
    assert not WebhookEndpoint.objects.exists()


def test_private_addresses_are_allowed_when_the_setting_says_so(world, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    project, users = world
    response = _create(_client(users["admin"]), project, url="http://127.0.0.1:9/hook")
    assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "https://e.com/" + "a" * 2000}, "url"),
        ({"events": ["export.ready", "nope"]}, "events"),
        ({"events": []}, "events"),
        ({"events": ["export.ready"] * (len(EVENTS) + 1)}, "events"),
        ({"description": "d" * 501}, "description"),
        ({"active": "perhaps"}, "active"),
    ],
)
def test_bounds(world, body, field):
    project, users = world
    error = _error(_create(_client(users["admin"]), project, **body), 400)
    assert field in error["message"] or error["details"].get("field") == field
    assert not WebhookEndpoint.objects.exists()


def test_a_project_has_at_most_max_endpoints(world):
    project, users = world
    WebhookEndpoint.objects.bulk_create(
        WebhookEndpoint(project=project, url=URL, secret="whsec_x", events=["export.ready"])
        for _ in range(MAX_ENDPOINTS)
    )
    error = _error(_create(_client(users["admin"]), project), 409)
    assert str(MAX_ENDPOINTS) in error["message"]


def test_a_bad_patch_changes_nothing(world, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    project, users = world
    client = _client(users["admin"])
    endpoint = _create(client, project).json()["endpoint"]
    detail = f"{_base(project)}{endpoint['id']}/"
    _error(
        client.patch(detail, {"description": "new", "url": "http://10.1.1.1/"}, format="json"),
        400,
    )
    stored = WebhookEndpoint.objects.get()
    assert (stored.url, stored.description) == (URL, "")


def test_send_test_event_and_read_the_delivery_log(world, private_ok, receiver):
    project, users = world
    client = _client(users["admin"])
    made = _create(client, project, url=receiver.url).json()
    receiver.secret = made["secret"]
    detail = f"{_base(project)}{made['endpoint']['id']}/"
    response = client.post(f"{detail}test/")
    assert response.status_code == 202, response.content
    assert response.json()["event_type"] == "webhook.test"
    assert response.json()["status"] == "pending"
    deliver_pending()
    (payload,) = receiver.verified()
    assert payload["type"] == "webhook.test"
    assert payload["data"]["sent_by"]["username"] == "admin"
    log = client.get(f"{detail}deliveries/").json()
    assert len(log) == 1
    row = log[0]
    assert (row["event_type"], row["status"], row["status_code"], row["attempts"]) == (
        "webhook.test",
        "delivered",
        200,
        1,
    )
    assert row["duration_ms"] is not None and row["error"] == ""
    _error(client.get(f"{detail}deliveries/?limit=100000"), 400)
    assert WebhookDelivery.objects.count() == 1
