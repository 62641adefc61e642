"""People: accounts made by admins (temporary passwords), invite links, members, passwords."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from labeling.models import Invite, Project, ProjectMembership, TemporaryPassword
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
GOOD = "brisk-otter-harbor-42"


def _signed_in(username: str, password: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/auth/login/", {"username": username, "password": password})
    assert response.status_code == 200, response.content
    return client


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


# --- creating a user with a temporary password ------------------------------------------------


def _create(client, world, username="alice", role="annotator", email="alice@example.org"):
    return client.post(
        f"/api/projects/{world['project'].pk}/users/",
        {"username": username, "email": email, "role": role},
        format="json",
    )


def test_admin_creates_a_user_with_a_temporary_password(world, client_for):
    response = _create(client_for("admin"), world)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["member"]["user"]["username"] == "alice" and body["member"]["role"] == "annotator"
    assert body["member"]["temporary_password"] is True
    assert body["member"]["temporary_password_reissue"] is True  # the Members tab's button
    password = body["temporary_password"]
    assert len(password) >= 12
    alice = User.objects.get(username="alice")
    assert alice.email == "alice@example.org" and alice.check_password(password)
    assert TemporaryPassword.objects.filter(user=alice).exists()
    assert ProjectMembership.objects.get(user=alice).project == world["project"]


def test_temporary_password_must_be_changed_before_any_write(world, client_for):
    password = _create(client_for("admin"), world).json()["temporary_password"]
    client = _signed_in("alice", password)
    me = client.get("/api/auth/me/").json()
    assert me["authenticated"] and me["must_change_password"]
    # Reads work; writes are refused with a clear code.
    assert client.get("/api/projects/").status_code == 200
    refused = client.post(f"/api/projects/{world['project'].pk}/queue/next/")
    assert _error(refused, 403)["code"] == "password_change_required"
    assert _error(client.post("/api/auth/tokens/", {"name": "x"}), 403)["code"] == (
        "password_change_required"
    )
    # Nor may a script get a token with it.
    token = APIClient().post("/api/auth/token/", {"username": "alice", "password": password})
    assert "temporary password" in _error(token, 403)["message"]
    # Django's validators apply to the new one.
    weak = client.post(
        "/api/auth/password/", {"old_password": password, "new_password": "12345678"}
    )
    assert _error(weak, 400)["details"]["field"] == "password"
    members = f"/api/projects/{world['project'].pk}/members/"
    listed = client_for("admin").get(members).json()["results"]
    assert [m["user"]["username"] for m in listed if m["temporary_password"]] == ["alice"]
    changed = client.post("/api/auth/password/", {"old_password": password, "new_password": GOOD})
    assert changed.status_code == 200 and not changed.json()["must_change_password"]
    assert not client.get("/api/auth/me/").json()["must_change_password"]
    assert client.post(f"/api/projects/{world['project'].pk}/queue/next/").status_code in (200, 204)
    assert not TemporaryPassword.objects.exists()
    members = f"/api/projects/{world['project'].pk}/members/"
    listed = client_for("admin").get(members).json()["results"]
    assert not any(m["temporary_password"] for m in listed)
    _signed_in("alice", GOOD)


def test_only_project_admins_create_users(world, client_for):
    assert _create(client_for("reviewer"), world).status_code == 403
    assert not User.objects.filter(username="alice").exists()


@pytest.mark.parametrize(
    "name,status",
    [
        ("Annotator", 409),  # case
        ("ＡＮＮＯＴＡＴＯＲ", 409),  # full-width letters: NFKC
        ("аnnotator", 400),  # a Cyrillic 'а' among Latin letters: refused outright
        ("bad name", 400),
        ("", 400),
    ],
)
def test_usernames_that_pass_for_another_are_refused(world, client_for, name, status):
    response = _create(client_for("admin"), world, username=name, email="")
    assert response.status_code == status, (name, response.content)
    assert User.objects.count() == 6


def test_an_all_cyrillic_look_alike_of_a_name_is_taken():
    from labeling.accounts.usernames import username_problem
    from labeling.services.people.accounts import username_existing

    UserFactory(username="paxos")
    assert username_problem("рахоѕ") is None  # one script: a fine name in itself...
    assert username_existing("рахоѕ") == "paxos"  # ...but every letter looks like paxos's
    assert username_existing("пахос") is None  # Cyrillic that does not look like it
    assert "scripts" in username_problem("pахos")  # a Cyrillic 'а' among Latin letters


def test_sign_in_ignores_the_case_of_the_username(world):
    UserFactory(username="Carol", password=GOOD)
    _signed_in("carol", GOOD)
    _signed_in("  CAROL ", GOOD)
    refused = APIClient().post("/api/auth/login/", {"username": "carol", "password": "nope"})
    assert refused.status_code == 400


# --- adding existing users ---------------------------------------------------------------------


def test_adding_someone_already_a_member_is_refused_and_keeps_their_role(world, client_for):
    url = f"/api/projects/{world['project'].pk}/members/"
    response = client_for("admin").post(
        url, {"username": "reviewer ", "role": "annotator"}, format="json"
    )
    error = _error(response, 409)
    assert "already a member" in error["message"] and "reviewer" in error["message"]
    membership = ProjectMembership.objects.get(project=world["project"], user__username="reviewer")
    assert membership.role == "reviewer"


def test_adding_trims_the_name_and_ignores_case(world, client_for):
    url = f"/api/projects/{world['project'].pk}/members/"
    response = client_for("admin").post(url, {"username": " Outsider ", "role": "reviewer"})
    assert response.status_code == 201 and response.json()["user"]["username"] == "outsider"


def test_adding_an_unknown_name_says_how_to_make_the_account(world, client_for):
    url = f"/api/projects/{world['project'].pk}/members/"
    error = _error(client_for("admin").post(url, {"username": "nobody", "role": "annotator"}), 400)
    assert "invite link" in error["message"]


def test_the_last_admin_keeps_the_admin_role(world, client_for):
    admin = world["users"]["admin"]
    url = f"/api/projects/{world['project'].pk}/members/{admin.pk}/"
    assert _error(client_for("admin").patch(url, {"role": "annotator"}), 400)
    assert (
        client_for("admin")
        .patch(
            f"/api/projects/{world['project'].pk}/members/{world['users']['spare'].pk}/",
            {"role": "reviewer"},
        )
        .json()["role"]
        == "reviewer"
    )


def test_staff_list_all_users_others_do_not(world, client_for):
    rows = client_for("staff").get("/api/users/?q=ann").json()
    assert [r["username"] for r in rows] == ["annotator"]
    assert len(client_for("staff").get("/api/users/").json()) == 6
    assert client_for("admin").get("/api/users/").status_code == 403


# --- invite links ------------------------------------------------------------------------------


def _invite(client, world, role="reviewer", days=7) -> str:
    response = client.post(
        f"/api/projects/{world['project'].pk}/invites/", {"role": role, "days": days}
    )
    assert response.status_code == 201, response.content
    url = response.json()["url"]
    assert re.search(r"/invite/[\w-]{40,}$", url)
    return url.rsplit("/", 1)[1]


def test_an_invite_makes_an_account_with_the_role_and_signs_in(world, client_for):
    token = _invite(client_for("admin"), world)
    invitee = APIClient()
    info = invitee.get(f"/api/invites/{token}/").json()
    assert info["project"] == "Alpha" and info["role"] == "reviewer"
    response = invitee.post(f"/api/invites/{token}/accept/", {"username": "Dana", "password": GOOD})
    assert response.status_code == 200, response.content
    assert response.json()["project_id"] == world["project"].pk
    me = invitee.get("/api/auth/me/").json()
    assert me["username"] == "Dana" and not me["must_change_password"]
    membership = ProjectMembership.objects.get(user__username="Dana")
    assert (membership.project, membership.role) == (world["project"], "reviewer")
    assert Invite.objects.get().used_by.username == "Dana"
    # Used: the link says so, and makes no second account.
    again = APIClient().post(f"/api/invites/{token}/accept/", {"username": "eve", "password": GOOD})
    assert "already used" in _error(again, 410)["message"]
    assert "already used" in _error(APIClient().get(f"/api/invites/{token}/"), 410)["message"]
    assert not User.objects.filter(username="eve").exists()


def test_an_expired_invite_says_so(world, client_for):
    token = _invite(client_for("admin"), world, days=1)
    Invite.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    response = APIClient().post(
        f"/api/invites/{token}/accept/", {"username": "x1", "password": GOOD}
    )
    assert "expired" in _error(response, 410)["message"]
    assert _error(APIClient().get("/api/invites/not-a-real-token/"), 404)


def test_an_invite_to_a_deleted_project_makes_no_account(world, client_for):
    """Before, the link of a project deleted since (its rows purged in the background) still
    showed the project and made an account and a membership in it."""
    token = _invite(client_for("admin"), world)
    Project.objects.filter(pk=world["project"].pk).update(deleted_at=timezone.now())
    assert _error(APIClient().get(f"/api/invites/{token}/"), 410)["code"] == "project_deleted"
    response = APIClient().post(
        f"/api/invites/{token}/accept/", {"username": "late1", "password": GOOD}
    )
    assert _error(response, 410)["code"] == "project_deleted"
    assert not User.objects.filter(username="late1").exists()


def test_an_invite_refuses_a_taken_or_weak_username_and_stays_usable(world, client_for):
    token = _invite(client_for("admin"), world)
    taken = APIClient().post(
        f"/api/invites/{token}/accept/", {"username": "ANNOTATOR", "password": GOOD}
    )
    assert _error(taken, 409)["details"]["field"] == "username"
    weak = APIClient().post(f"/api/invites/{token}/accept/", {"username": "fred", "password": "1"})
    assert _error(weak, 400)["details"]["field"] == "password"
    ok = APIClient().post(f"/api/invites/{token}/accept/", {"username": "fred", "password": GOOD})
    assert ok.status_code == 200


def test_admins_list_and_revoke_pending_invites(world, client_for):
    admin = client_for("admin")
    token = _invite(admin, world)
    _invite(admin, world, role="annotator")
    url = f"/api/projects/{world['project'].pk}/invites/"
    listed = admin.get(url).json()
    assert [i["role"] for i in listed] == ["annotator", "reviewer"]
    assert listed[0]["created_by"] == "padmin"
    reviewer_invite = listed[1]["id"]
    assert admin.delete(f"{url}{reviewer_invite}/").status_code == 204
    assert [i["role"] for i in admin.get(url).json()] == ["annotator"]
    response = APIClient().post(
        f"/api/invites/{token}/accept/", {"username": "g1", "password": GOOD}
    )
    assert "withdrawn" in _error(response, 410)["message"]
    assert client_for("reviewer").get(url).status_code == 403


def test_invite_days_are_bounded(world, client_for):
    url = f"/api/projects/{world['project'].pk}/invites/"
    assert client_for("admin").post(url, {"role": "annotator", "days": 31}).status_code == 400
    assert client_for("admin").post(url, {"role": "annotator", "days": 0}).status_code == 400


# --- passwords -------------------------------------------------------------------------------


def test_password_change_checks_the_current_one(world):
    UserFactory(username="hal", password=GOOD)
    client = _signed_in("hal", GOOD)
    wrong = client.post("/api/auth/password/", {"old_password": "x", "new_password": GOOD + "!"})
    assert _error(wrong, 400)["details"]["field"] == "old_password"
    ok = client.post("/api/auth/password/", {"old_password": GOOD, "new_password": GOOD + "!"})
    assert ok.status_code == 200
    assert client.get("/api/auth/me/").json()["username"] == "hal"  # still signed in
    _signed_in("hal", GOOD + "!")


def test_password_reset_by_email(world):
    user = UserFactory(username="ivy", password=GOOD)
    user.email = "Ivy@Example.org"
    user.save()
    anon = APIClient()
    assert anon.post("/api/auth/password/reset/", {"email": "ivy@example.org"}).status_code == 204
    # Unknown addresses get the same answer and no mail.
    assert anon.post("/api/auth/password/reset/", {"email": "no@example.org"}).status_code == 204
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Ivy@Example.org"]
    uid, token = re.search(r"/reset/([\w-]+)/([\w-]+)", mail.outbox[0].body).groups()
    body = {"uid": uid, "token": token, "new_password": "1234"}
    assert _error(anon.post("/api/auth/password/reset/confirm/", body), 400)
    body["new_password"] = "fresh-" + GOOD
    assert anon.post("/api/auth/password/reset/confirm/", body).status_code == 204
    _signed_in("ivy", "fresh-" + GOOD)
    # The link worked once.
    body["new_password"] = "third-" + GOOD
    assert (
        "not valid" in _error(anon.post("/api/auth/password/reset/confirm/", body), 410)["message"]
    )


def test_me_answers_200_when_signed_out():
    body = APIClient().get("/api/auth/me/").json()
    assert body == {
        "authenticated": False,
        "id": None,
        "username": "",
        "is_staff": False,
        "must_change_password": False,
    }


def test_the_admins_add_user_form_refuses_look_alikes(world):
    from labeling.admin import SteplabUserCreationForm

    form = SteplabUserCreationForm(data={"username": "Reviewer", "usable_password": "false"})
    assert not form.is_valid() and "already exists" in str(form.errors["username"])
    UserFactory(username="paxos")
    form = SteplabUserCreationForm(data={"username": "рахоѕ", "usable_password": "false"})
    assert not form.is_valid() and "existing username" in str(form.errors["username"])
    form = SteplabUserCreationForm(data={"username": "rеviewer2", "usable_password": "false"})
    assert not form.is_valid() and "scripts" in str(form.errors["username"])
    form = SteplabUserCreationForm(data={"username": "newbie", "usable_password": "false"})
    assert form.is_valid(), form.errors


def test_the_django_admin_add_user_page_uses_the_check(world, client):
    root = User.objects.create_superuser("root", password=GOOD)
    client.force_login(root)
    inline = {"api_tokens-TOTAL_FORMS": "0", "api_tokens-INITIAL_FORMS": "0"}
    assert client.get("/admin/auth/user/add/").status_code == 200
    response = client.post(
        "/admin/auth/user/add/",
        {"username": "rеviewer", "usable_password": "false", **inline},  # a Cyrillic 'е'
    )
    assert response.status_code == 200 and b"scripts" in response.content
    assert not User.objects.filter(username="rеviewer").exists()
    response = client.post(
        "/admin/auth/user/add/", {"username": "nina", "usable_password": "false", **inline}
    )
    assert response.status_code == 302
    assert User.objects.filter(username="nina").exists()


def test_mailed_and_invite_links_use_public_url_not_the_host_header(world, client_for, settings):
    """With PUBLIC_URL set, a request's Host (a proxy's internal name, or a forged one where
    ALLOWED_HOSTS is permissive) never becomes the address in front of a reset token."""
    settings.PUBLIC_URL = "https://steplab.example.org/"
    settings.ALLOWED_HOSTS = ["*"]
    user = UserFactory(username="ivo", password=GOOD)
    user.email = "ivo@example.org"
    user.save()
    forged = {"HTTP_HOST": "attacker.example"}
    reset = APIClient().post("/api/auth/password/reset/", {"email": user.email}, **forged)
    assert reset.status_code == 204
    assert "https://steplab.example.org/reset/" in mail.outbox[0].body
    assert "attacker.example" not in mail.outbox[0].body
    invite = client_for("admin").post(
        f"/api/projects/{world['project'].pk}/invites/", {"role": "annotator"}, **forged
    )
    assert invite.status_code == 201, invite.content
    assert invite.json()["url"].startswith("https://steplab.example.org/invite/")
