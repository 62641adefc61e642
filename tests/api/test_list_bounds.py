"""Every list the API serves is paginated or bounded: a client must not be able to grow a list
that some GET then returns whole. The test walks the schema the code serves (every operation
of every URL) and finds each GET whose 200 answer is a bare array; each must be in BOUNDED,
which names what bounds it, or in UNBOUNDED, the lists still to paginate (each listed with why
it is not done yet, so that the next one added is a failure, not a habit)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from labeling.models import Invite
from tests.factories import ProjectFactory, UserFactory

# operationId -> what bounds the list it returns whole.
BOUNDED = {
    "autolabel_engines_list": "the server's engines: code and the operator's installed plug-ins",
    "machine_sources_list": "the server's suggestion sources: code and installed plug-ins",
    "webhook_events_list": "the event names (code)",
    "projects_webhooks_list": "labeling/services/webhooks/endpoints.py MAX_ENDPOINTS (20)",
    "projects_webhooks_deliveries_list": "its `limit` ≤ DELIVERY_LOG_MAX",
    "exports_hub_pushes_list": "the latest 100 (labeling/api/hub.py)",
    "users_list": "labeling/selectors/people.py USER_SEARCH_LIMIT",
    "projects_invites_list": "COLLECTION_CAPS['invites'] pending invites (collection_caps.py)",
    "solutions_comments_list": "COLLECTION_CAPS['comments'] a solution, and one a review action",
}
# operationId -> why it is still whole. Left for the next change, each a paginated list with
# its page in the frontend and the client.
UNBOUNDED = {
    "auth_tokens_list": "a password login mints a token per call: a cap would break scripts "
    "that log in on every run; needs pagination",
    "projects_members_list": "one row per member; the members page reads it whole",
    "projects_gold_list": "one row per gold solution, with every answer's accuracy",
    "projects_assignments_list": "one row per annotator with assignments",
    "projects_problem_sources_list": "one row per distinct problem source",
    "projects_rejections_list": "the user's own rejected annotations",
}


def _schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _whole_lists(schema: dict) -> dict[str, str]:
    """operationId -> path of every GET whose 200 answer is a bare JSON array."""
    found = {}
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if not get:
            continue
        content = get.get("responses", {}).get("200", {}).get("content", {})
        for body in content.values():
            if _resolve(schema, body.get("schema", {})).get("type") == "array":
                found[get["operationId"]] = path
    return found


def _paginated(schema: dict) -> set[str]:
    return {
        operations["get"]["operationId"]
        for operations in schema["paths"].values()
        if "get" in operations
        for body in operations["get"].get("responses", {}).get("200", {}).get("content", {})
        .values()
        if "results" in _resolve(schema, body.get("schema", {})).get("properties", {})
    }  # fmt: skip


def test_every_list_is_paginated_or_bounded():
    schema = _schema()
    whole = _whole_lists(schema)
    unexplained = sorted(set(whole) - set(BOUNDED) - set(UNBOUNDED))
    assert not unexplained, (
        "GET endpoints that return a whole list with no bound: paginate them "
        f"(labeling.api.pagination) or bound what they list: {[whole[o] for o in unexplained]}"
    )
    # An entry for a list that is paginated (or gone) now is stale: drop it.
    assert sorted((set(BOUNDED) | set(UNBOUNDED)) - set(whole)) == []
    assert "projects_prm_models_list" in _paginated(schema)


@pytest.mark.django_db
def test_pending_invites_are_capped(settings, client):
    project = ProjectFactory()
    admin = UserFactory(is_staff=True)
    client.force_login(admin)
    settings.COLLECTION_CAPS = {"invites": 2}
    url = f"/api/projects/{project.pk}/invites/"
    # An expired, a used and a withdrawn invite are not pending: they do not count.
    now = timezone.now()
    for extra in ({"expires_at": now - timedelta(days=1)}, {"used_at": now}, {"revoked_at": now}):
        Invite.objects.create(
            project=project, role="annotator", token_hash=f"h{len(extra)}{list(extra)[0]}",
            created_by=admin, **{"expires_at": now + timedelta(days=1), **extra},
        )  # fmt: skip
    for _ in range(2):
        assert (
            client.post(url, {"role": "annotator"}, content_type="application/json").status_code
            == 201
        )
    refused = client.post(url, {"role": "annotator"}, content_type="application/json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "conflict"
    assert error["message"].startswith("This project already has 2 pending invites, the most")
    assert "COLLECTION_CAPS['invites']" in error["message"]
    assert len(client.get(url).json()) == 2


@pytest.mark.django_db
def test_a_solutions_comments_are_capped(settings, client):
    from tests.factories import SolutionFactory

    solution = SolutionFactory()
    client.force_login(UserFactory(is_staff=True))
    settings.COLLECTION_CAPS = {"comments": 2}
    url = f"/api/solutions/{solution.pk}/comments/"
    for text in ("one", "two"):
        assert client.post(url, {"body": text}, content_type="application/json").status_code == 201
    refused = client.post(url, {"body": "three"}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["error"]["message"].startswith("This solution already has 2 comments")
    assert [c["body"] for c in client.get(url).json()] == ["one", "two"]
