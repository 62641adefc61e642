"""A team joins from the UI, in real Chromium: a project admin opens Members, creates an
annotator (a temporary password shown once) and an invite link for a reviewer. The annotator
signs in, is held at "Choose your password" until they change it, then sees the project and
labels. The reviewer opens the link in another browser, picks a username and password, and lands
on the project's review page. The used link then says so. Screenshots of each page.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Invite, ProjectMembership, TemporaryPassword
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_admin_brings_in_an_annotator_and_a_reviewer(page, browser, live_server, screenshot):
    admin = get_user_model().objects.create_user("maria", password="maria-admin-pw-1")
    project = ProjectFactory(name="Team project")
    for _ in range(2):
        SolutionFactory(problem__project=project, steps=3)
    MembershipFactory(project=project, user=admin, role="admin")

    # The signed-out first load logs no error (the session probe answers 200).
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/projects")
    page.wait_for_url(re.compile(r"/login"))
    expect(page.get_by_test_id("login-submit")).to_be_visible()
    assert errors == [], errors

    # The admin makes an account and an invite link on the Members tab.
    login(page, live_server.url, "maria", "maria-admin-pw-1")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=members")
    create = page.get_by_test_id("create-user")
    create.get_by_test_id("create-username").fill("alice")
    create.get_by_test_id("create-email").fill("alice@example.org")
    create.get_by_test_id("create-submit").click()
    temporary = page.get_by_test_id("temporary-password").input_value()
    assert len(temporary) >= 12
    expect(page.get_by_test_id("members-table")).to_contain_text("alice")
    expect(page.get_by_test_id("temporary-alice")).to_be_visible()

    invite = page.get_by_test_id("invite-create")
    invite.get_by_test_id("invite-role").select_option("reviewer")
    invite.get_by_test_id("invite-submit").click()
    link = page.get_by_test_id("invite-url").input_value()
    assert re.search(r"/invite/[\w-]{40,}$", link)
    expect(page.get_by_test_id("invite-row")).to_have_count(1)
    # Adding alice again is refused, her role unchanged.
    page.get_by_test_id("member-username").fill("Alice ")
    page.get_by_test_id("member-role").select_option("admin")
    page.get_by_test_id("member-add").click()
    expect(page.get_by_test_id("members-error")).to_contain_text("already a member")
    screenshot("team-members", full_page=True)
    assert ProjectMembership.objects.get(user__username="alice").role == "annotator"
    page.get_by_test_id("user-menu").click()
    page.get_by_test_id("logout").click()
    page.wait_for_url(f"{live_server.url}/login")
    screenshot("team-login")

    # The annotator signs in with the temporary password (any case) and must change it.
    login(page, live_server.url, "ALICE", temporary)
    expect(page.get_by_test_id("forced-password")).to_be_visible()
    screenshot("team-forced-password")
    page.get_by_test_id("password-current").fill(temporary)
    page.get_by_test_id("password-new").fill("alice-labels-steps-7")
    page.get_by_test_id("password-again").fill("alice-labels-steps-7")
    page.get_by_test_id("password-submit").click()
    card = page.get_by_test_id("project-card")
    expect(card).to_contain_text("Team project")
    assert not TemporaryPassword.objects.exists()
    card.get_by_test_id("start-labeling").click()
    expect(page.get_by_test_id("step-row").first).to_be_visible()
    screenshot("team-annotator-labels")

    # The reviewer opens the link in a browser of their own.
    reviewer_context = browser.new_context(viewport={"width": 1400, "height": 900})
    reviewer = reviewer_context.new_page()
    reviewer.goto(link)
    expect(reviewer.get_by_test_id("invite-page")).to_contain_text("Join Team project")
    reviewer.get_by_test_id("invite-username").fill("rolf")
    reviewer.get_by_test_id("invite-password").fill("rolf-reviews-steps-9")
    reviewer.get_by_test_id("invite-again").fill("rolf-reviews-steps-9")
    reviewer.screenshot(path=str(SCREENSHOTS / "team-invite.png"))
    reviewer.get_by_test_id("invite-submit").click()
    reviewer.wait_for_url(f"{live_server.url}/projects/{project.pk}/review")
    expect(reviewer.get_by_test_id("queue-empty")).to_contain_text("Nothing to review")
    reviewer.screenshot(path=str(SCREENSHOTS / "team-reviewer.png"))
    membership = ProjectMembership.objects.get(user__username="rolf")
    assert (membership.project_id, membership.role) == (project.pk, "reviewer")
    assert Invite.objects.get().used_by_id == membership.user_id
    reviewer_context.close()

    # The link worked once.
    other = browser.new_context(viewport={"width": 1400, "height": 900})
    again = other.new_page()
    again.goto(link)
    expect(again.get_by_test_id("invite-error")).to_contain_text("already used")
    again.screenshot(path=str(SCREENSHOTS / "team-invite-used.png"))
    other.close()


def test_forgotten_password_is_reset_by_email(page, live_server, mailoutbox, screenshot):
    user = get_user_model().objects.create_user("ivy", email="ivy@example.org", password="old-pw-x")
    page.goto(f"{live_server.url}/login")
    page.get_by_test_id("forgot-password").click()
    page.get_by_test_id("reset-email").fill("ivy@example.org")
    page.get_by_test_id("reset-send").click()
    expect(page.get_by_test_id("reset-sent")).to_contain_text("ivy@example.org")
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["ivy@example.org"]
    link = re.search(r"http://\S+/reset/\S+", mailoutbox[0].body).group(0)
    assert link.startswith(live_server.url)
    page.goto(link)
    page.get_by_test_id("reset-password").fill("ivy-fresh-password-3")
    page.get_by_test_id("reset-again").fill("ivy-fresh-password-3")
    screenshot("team-reset")
    page.get_by_test_id("reset-submit").click()
    expect(page.get_by_test_id("reset-done")).to_be_visible()
    user.refresh_from_db()
    assert user.check_password("ivy-fresh-password-3")
    login(page, live_server.url, "IVY", "ivy-fresh-password-3")


def test_a_lost_temporary_password_is_replaced(page, browser, live_server, screenshot):
    """The admin closed the page that showed alice's temporary password: the members table
    issues a new one (shown once, with Copy); the old one and alice's session stop working."""
    admin = get_user_model().objects.create_user("maria", password="maria-admin-pw-1")
    project = ProjectFactory(name="Team project")
    MembershipFactory(project=project, user=admin, role="admin")
    login(page, live_server.url, "maria", "maria-admin-pw-1")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=members")
    create = page.get_by_test_id("create-user")
    create.get_by_test_id("create-username").fill("alice")
    create.get_by_test_id("create-submit").click()
    lost = page.get_by_test_id("temporary-password").input_value()

    alice_context = browser.new_context(viewport={"width": 1400, "height": 900})
    alice = alice_context.new_page()
    login(alice, live_server.url, "alice", lost)
    expect(alice.get_by_test_id("forced-password")).to_be_visible()

    page.reload()  # the secret is gone with the page
    expect(page.get_by_test_id("temporary-password")).to_have_count(0)
    expect(page.get_by_test_id("reissue-maria")).to_have_count(0)  # never for yourself
    page.get_by_test_id("reissue-alice").click()
    dialog = page.get_by_test_id("reissue-dialog")
    expect(dialog).to_contain_text("New temporary password for alice")
    dialog.get_by_test_id("reissue-confirm").click()
    fresh = dialog.get_by_test_id("reissued-password").input_value()
    assert len(fresh) >= 12 and fresh != lost
    screenshot("team-reissued-password")
    dialog.get_by_role("button", name="Done").click()
    expect(page.get_by_test_id("reissue-dialog")).to_have_count(0)
    assert TemporaryPassword.objects.get(user__username="alice").created_by_id == admin.pk

    alice.reload()  # signed out: the old password's session ended
    alice.wait_for_url(re.compile(r"/login"))
    alice.get_by_test_id("login-username").fill("alice")
    alice.get_by_test_id("login-password").fill(lost)
    alice.get_by_test_id("login-submit").click()
    expect(alice.get_by_text("Wrong username or password.")).to_be_visible()
    login(alice, live_server.url, "alice", fresh)
    expect(alice.get_by_test_id("forced-password")).to_be_visible()
    alice_context.close()
