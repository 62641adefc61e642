"""A new temporary password for a member who never chose their own: who may issue one, who may
not, and what stops working (labeling/services/people/temporary_passwords.py)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from labeling.models import ApiToken, TemporaryPassword
from labeling.services.people.tokens import token_create
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
GOOD = "brisk-otter-harbor-42"


def _url(world, user) -> str:
    return f"/api/projects/{world['project'].pk}/members/{user.pk}/temporary-password/"


def _newcomer(world, client_for, username: str = "alice", role: str = "annotator"):
    """An account an admin of the project made: (user, its first temporary password)."""
    made = client_for("admin").post(
        f"/api/projects/{world['project'].pk}/users/",
        {"username": username, "role": role},
        format="json",
    )
    assert made.status_code == 201, made.content
    return User.objects.get(username=username), made.json()["temporary_password"]


def _login(username: str, password: str):
    return APIClient().post("/api/auth/login/", {"username": username, "password": password})


def _refused(response, status: int) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] and error["message"]
    return error


def _listed_flag(world, client_for, role: str, user) -> bool:
    rows = client_for(role).get(f"/api/projects/{world['project'].pk}/members/?limit=200")
    (row,) = [m for m in rows.json()["results"] if m["user"]["id"] == user.pk]
    return row["temporary_password_reissue"]


def test_admin_issues_a_new_temporary_password_the_old_one_stops_working(world, client_for):
    alice, first = _newcomer(world, client_for)
    TemporaryPassword.objects.filter(user=alice).update(created_by=None)
    before = TemporaryPassword.objects.get(user=alice).created_at
    assert _listed_flag(world, client_for, "admin", alice) is True

    response = client_for("admin").post(_url(world, alice))
    assert response.status_code == 200, response.content
    body = response.json()
    second = body["temporary_password"]
    assert second != first and len(second) >= 12
    assert body["member"]["user"]["username"] == "alice"
    assert body["member"]["temporary_password"] is True

    row = TemporaryPassword.objects.get(user=alice)
    assert row.created_by == world["users"]["admin"] and row.created_at > before
    assert _login("alice", first).status_code == 400
    signed_in = _login("alice", second)
    assert signed_in.status_code == 200 and signed_in.json()["must_change_password"] is True


def test_the_accounts_sessions_and_api_tokens_are_revoked(world, client_for):
    alice, first = _newcomer(world, client_for)
    session = APIClient()
    assert session.post("/api/auth/login/", {"username": "alice", "password": first}).status_code
    assert session.get("/api/auth/me/").json()["authenticated"] is True
    key = token_create(user=alice, name="script").key  # made before (staff, a shell)
    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert scripted.get("/api/projects/").status_code == 200

    assert client_for("admin").post(_url(world, alice)).status_code == 200

    assert session.get("/api/auth/me/").json()["authenticated"] is False
    assert scripted.get("/api/projects/").status_code == 401
    assert not ApiToken.objects.filter(user=alice, revoked_at__isnull=True).exists()


def test_refused_once_the_account_chose_its_own_password(world, client_for):
    alice, first = _newcomer(world, client_for)
    client = APIClient()
    client.post("/api/auth/login/", {"username": "alice", "password": first})
    changed = client.post("/api/auth/password/", {"old_password": first, "new_password": GOOD})
    assert changed.status_code == 200
    assert _listed_flag(world, client_for, "admin", alice) is False
    error = _refused(client_for("admin").post(_url(world, alice)), 409)
    assert "Forgot password" in error["message"]
    assert _login("alice", GOOD).status_code == 200  # untouched


def test_refused_for_a_member_who_never_had_a_temporary_password(world, client_for):
    spare = world["users"]["spare"]  # made with a password of its own
    _refused(client_for("admin").post(_url(world, spare)), 409)
    assert spare.password == User.objects.get(pk=spare.pk).password


@pytest.mark.parametrize("flag", ["is_staff", "is_superuser"])
def test_refused_for_staff_and_superusers(world, client_for, flag):
    alice, first = _newcomer(world, client_for)
    User.objects.filter(pk=alice.pk).update(**{flag: True})
    assert _listed_flag(world, client_for, "admin", alice) is False
    _refused(client_for("admin").post(_url(world, alice)), 403)
    _refused(client_for("staff").post(_url(world, alice)), 403)  # not even by staff
    assert User.objects.get(pk=alice.pk).check_password(first)


def test_refused_for_a_deactivated_account(world, client_for):
    alice, first = _newcomer(world, client_for)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert _listed_flag(world, client_for, "admin", alice) is False
    _refused(client_for("admin").post(_url(world, alice)), 409)
    assert User.objects.get(pk=alice.pk).check_password(first)


def test_refused_for_yourself(world, client_for):
    admin = world["users"]["admin"]
    TemporaryPassword.objects.create(user=admin, created_by=None)
    assert _listed_flag(world, client_for, "admin", admin) is False
    error = _refused(client_for("admin").post(_url(world, admin)), 403)
    assert "yourself" in error["message"]


def test_refused_when_the_account_is_in_a_project_the_requester_does_not_administer(
    world, client_for
):
    alice, first = _newcomer(world, client_for)
    elsewhere = ProjectFactory(name="Gamma")
    MembershipFactory(project=elsewhere, user=alice, role="admin")
    assert _listed_flag(world, client_for, "admin", alice) is False
    error = _refused(client_for("admin").post(_url(world, alice)), 403)
    assert "1 project(s) where you are not an admin" in error["message"]
    assert "Gamma" not in error["message"]  # no name of a project the requester cannot see
    assert User.objects.get(pk=alice.pk).check_password(first)
    # A reviewer there is not enough either; an admin of both projects may.
    MembershipFactory(project=elsewhere, user=world["users"]["admin"], role="reviewer")
    _refused(client_for("admin").post(_url(world, alice)), 403)
    world["users"]["admin"].memberships.filter(project=elsewhere).update(role="admin")
    assert _listed_flag(world, client_for, "admin", alice) is True
    assert client_for("admin").post(_url(world, alice)).status_code == 200


def test_staff_may_whatever_other_projects_the_account_is_in(world, client_for):
    alice, first = _newcomer(world, client_for)
    MembershipFactory(project=ProjectFactory(name="Gamma"), user=alice, role="admin")
    assert _listed_flag(world, client_for, "staff", alice) is True
    response = client_for("staff").post(_url(world, alice))
    assert response.status_code == 200, response.content
    assert TemporaryPassword.objects.get(user=alice).created_by == world["users"]["staff"]


def test_only_admins_of_the_project_and_only_its_members(world, client_for):
    alice, first = _newcomer(world, client_for)
    for role in ("annotator", "reviewer"):
        _refused(client_for(role).post(_url(world, alice)), 403)
    _refused(client_for("outsider").post(_url(world, alice)), 404)
    # A user of another project, through this project's address: not a member here.
    stranger = UserFactory(username="stranger")
    TemporaryPassword.objects.create(user=stranger)
    MembershipFactory(project=world["other"], user=stranger)
    _refused(client_for("admin").post(_url(world, stranger)), 404)
    assert User.objects.get(pk=alice.pk).check_password(first)


def test_throttled_per_admin(world, client_for, settings):
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "password_issue": "2/min",
        },
    }
    alice, _ = _newcomer(world, client_for)
    try:
        for _ in range(2):
            assert client_for("admin").post(_url(world, alice)).status_code == 200
        refused = client_for("admin").post(_url(world, alice))
        error = _refused(refused, 429)
        assert error["code"] == "throttled"
        assert error["message"].startswith("Too many new passwords issued.")
        assert 1 <= int(refused["Retry-After"]) <= 60
        assert client_for("staff").post(_url(world, alice)).status_code == 200  # per admin
    finally:
        cache.clear()


def test_adding_or_changing_a_member_answers_their_temporary_password_fields(world, client_for):
    """The add and role answers are the row the members table shows: an account still on its
    temporary password keeps its badge and button (they were defaulted to false)."""
    user, _ = _newcomer(world, client_for)
    other = ProjectFactory()
    MembershipFactory(project=other, user=world["users"]["admin"], role="admin")
    admin = client_for("admin")
    added = admin.post(
        f"/api/projects/{other.pk}/members/",
        {"username": user.username, "role": "annotator"},
        format="json",
    )
    assert added.status_code == 201, added.content
    assert added.json()["temporary_password"] is True
    assert added.json()["temporary_password_reissue"] is True
    changed = admin.patch(
        f"/api/projects/{other.pk}/members/{user.pk}/", {"role": "reviewer"}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert (changed.json()["role"], changed.json()["temporary_password"]) == ("reviewer", True)
