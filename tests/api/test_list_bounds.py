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
# operationId -> why it is still whole. Empty: every list a client can grow is paginated or
# capped; a new whole list goes in BOUNDED with what bounds it, or is paginated.
UNBOUNDED: dict[str, str] = {}


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
    assert _paginated(schema) >= PAGINATED_NOW


# The six lists that answered a bare array, unbounded, until they were paginated.
PAGINATED_NOW = {
    "auth_tokens_list",
    "projects_members_list",
    "projects_gold_list",
    "projects_assignments_list",
    "projects_problem_sources_list",
    "projects_rejections_list",
}


@pytest.mark.django_db
def test_the_six_lists_answer_bounded_pages(settings, client):
    """Each answers count/next/results, at most `limit` rows, and a limit past
    API_MAX_PAGE_SIZE is a 400 in the one error shape."""
    from labeling.models import (
        Annotation,
        AnnotationStatus,
        ApiToken,
        Assignment,
        ProjectMembership,
        ReviewAction,
    )
    from tests.factories import ProblemFactory, SolutionFactory

    settings.API_MAX_PAGE_SIZE = 5
    project = ProjectFactory()
    admin = UserFactory()
    ProjectMembership.objects.create(project=project, user=admin, role="admin")
    for i in range(3):
        ApiToken.objects.create(user=admin, name=f"t{i}", key_hash=f"hash{i}", prefix=f"p{i}")
        user = UserFactory()
        ProjectMembership.objects.create(project=project, user=user, role="annotator")
        problem = ProblemFactory(project=project, source=f"source-{i}")
        gold = SolutionFactory(project=project, problem=problem, is_gold=True)
        solution = SolutionFactory(project=project, problem=problem)
        Assignment.objects.create(solution=solution, user=user)
        Assignment.objects.create(solution=gold, user=admin)
        mine = Annotation.objects.create(
            solution=solution, annotator=admin, status=AnnotationStatus.REJECTED
        )
        ReviewAction.objects.create(
            solution=solution, annotation=mine, reviewer=user, action="reject"
        )
    client.force_login(admin)
    base = f"/api/projects/{project.pk}"
    urls = {
        "/api/auth/tokens/": 3,
        f"{base}/members/": 4,
        f"{base}/gold/": 3,
        f"{base}/assignments/": 4,
        f"{base}/problem-sources/": 3,
        f"{base}/rejections/": 3,
    }
    for url, total in urls.items():
        first = client.get(f"{url}?limit=2")
        assert first.status_code == 200, (url, first.content)
        page = first.json()
        assert page["count"] == total and len(page["results"]) == 2, url
        rest = client.get(page["next"]).json()
        assert len(rest["results"]) == total - 2 and rest["next"] is None, url
        seen = page["results"] + rest["results"]
        assert len({repr(sorted(r.items())) for r in seen}) == total, url  # no row twice
        refused = client.get(f"{url}?limit=6")
        assert refused.status_code == 400, url
        assert refused.json()["error"]["code"] == "validation_error", url


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
