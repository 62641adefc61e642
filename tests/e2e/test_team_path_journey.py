"""The whole team path in real Chromium (issue 23's "Must show"): a project admin invites two
annotators and a reviewer from the Members tab; each joins through their link in a browser of
their own; the annotators label with a disagreement, one of them goes back (o) and changes an
answer; the reviewer resolves the disagreement; the admin's default export holds the reviewer's
label."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, Export, Provenance, Resolution
from tests.e2e.helpers import login, wait_for
from tests.e2e.test_export_journey import exports_worker  # noqa: F401 - a fixture
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "one": "Team problem one: what is $2+2$?",
    "two": "Team problem two: what is $3 \\cdot 3$?",
}


def _invite(page, role: str, count: int) -> str:
    """Make the project's `count`-th invite link, for `role`; returns it."""
    invite = page.get_by_test_id("invite-create")
    invite.get_by_test_id("invite-role").select_option(role)
    invite.get_by_test_id("invite-submit").click()
    expect(page.get_by_test_id("invite-row")).to_have_count(count)
    return page.get_by_test_id("invite-url").input_value()


def _join(browser, link: str, username: str):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(link)
    page.get_by_test_id("invite-username").fill(username)
    page.get_by_test_id("invite-password").fill(f"{username}-labels-steps-7")
    page.get_by_test_id("invite-again").fill(f"{username}-labels-steps-7")
    page.get_by_test_id("invite-submit").click()
    return context, page


def _which(page) -> str:
    text = page.locator(".problem-text").inner_text()
    return "one" if "one" in text else "two"


def _label(page, ratings: dict[str, list[str]], after: str | None = None) -> str:
    """Rate the solution on screen with its keys, submit; returns which one it was. `after` is
    the one this page submitted last: the page must have moved on from it first (right after
    Enter the old solution can still be on screen, with its three rows)."""
    rows = page.get_by_test_id("step-row")
    if after is not None:
        expect(page.locator(".problem-text")).not_to_contain_text(f"problem {after}")
    expect(rows).to_have_count(3)
    which = _which(page)
    for key in ratings[which]:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    return which


def _submitted(username: str, solution_id: int) -> Annotation | None:
    return Annotation.objects.filter(
        solution_id=solution_id, annotator__username=username, status=AnnotationStatus.SUBMITTED
    ).first()


def test_a_team_labels_reviews_goes_back_and_exports(page, browser, live_server, exports_worker):  # noqa: F811
    admin = get_user_model().objects.create_user("petra", password="petra-admin-pw-1")
    project = ProjectFactory(name="Team path", overlap=2, guidelines="")
    solutions = {
        key: SolutionFactory(problem__project=project, problem__text=text, steps=3)
        for key, text in TEXTS.items()
    }
    MembershipFactory(project=project, user=admin, role="admin")
    base = live_server.url

    # The admin makes three invite links: two annotators and a reviewer.
    login(page, base, "petra", "petra-admin-pw-1")
    page.goto(f"{base}/projects/{project.pk}?tab=members")
    links = [_invite(page, role, i + 1) for i, role in enumerate(["annotator"] * 2 + ["reviewer"])]
    assert len(set(links)) == 3
    assert all(re.search(r"/invite/[\w-]{40,}$", link) for link in links)
    expect(page.get_by_test_id("invite-row")).to_have_count(3)

    # Each joins in a browser of their own; annotators land on the labeling page.
    alice_context, alice = _join(browser, links[0], "alice")
    bob_context, bob = _join(browser, links[1], "bob")
    rolf_context, rolf = _join(browser, links[2], "rolf")
    alice.wait_for_url(f"{base}/projects/{project.pk}/label")
    bob.wait_for_url(f"{base}/projects/{project.pk}/label")
    rolf.wait_for_url(f"{base}/projects/{project.pk}/review")

    # alice: all correct on both; bob: step 2 of problem one wrong.
    first = _label(alice, {"one": ["3", "3", "3"], "two": ["3", "3", "3"]})
    wait_for(lambda: _submitted("alice", solutions[first].pk))
    expect(alice.get_by_test_id("step-row")).to_have_count(3)
    second = _label(alice, {"one": ["3", "3", "3"], "two": ["3", "3", "3"]}, after=first)
    assert {first, second} == {"one", "two"}
    wait_for(lambda: _submitted("alice", solutions[second].pk))
    done = None
    for _ in range(2):
        expect(bob.get_by_test_id("step-row")).to_have_count(3)
        done = _label(bob, {"one": ["3", "1", "3"], "two": ["3", "3", "3"]}, after=done)
        wait_for(lambda done=done: _submitted("bob", solutions[done].pk))

    # alice goes back to her last submission and changes an answer.
    alice.goto(f"{base}/projects/{project.pk}/label")
    expect(alice.get_by_test_id("queue-empty")).to_be_visible()  # both done: nothing left
    alice.keyboard.press("o")
    expect(alice.get_by_test_id("editing-banner")).to_be_visible()
    reopened = _which(alice)
    rows = alice.get_by_test_id("step-row")
    rows.nth(2).click()
    alice.keyboard.press("2")  # neutral
    expect(rows.nth(2)).to_have_attribute("data-rating", "0")
    alice.keyboard.press("Enter")
    expect(alice.get_by_test_id("notice")).to_contain_text("Resubmitted")
    changed = _submitted("alice", solutions[reopened].pk)
    wait_for(lambda: changed.labels.filter(step__index=2, rating=0).exists())
    alice.screenshot(path="var/screenshots/team-path-alice-back.png")

    # The reviewer resolves problem one: step 2 is wrong.
    disputed = solutions["one"]
    rolf.goto(f"{base}/projects/{project.pk}/review")
    queued = rolf.locator(f'[data-testid="queue-row"][data-solution="{disputed.pk}"]')
    expect(queued).to_be_visible()
    rolf.goto(f"{base}/projects/{project.pk}/review/{disputed.pk}")
    steps = rolf.get_by_test_id("review-step")
    expect(steps).to_have_count(3)
    expect(steps.nth(1)).to_have_attribute("data-disagrees", "true")
    rolf.keyboard.press("Enter")
    expect(rolf.get_by_test_id("notice")).to_contain_text("Step 2 has no decision")
    rolf.keyboard.press("1")
    expect(steps.nth(1)).to_have_attribute("data-decision", "-1")
    for i in range(3):
        if steps.nth(i).get_attribute("data-decision") == "":
            steps.nth(i).click()
            rolf.keyboard.press("3")
    rolf.screenshot(path="var/screenshots/team-path-review.png")
    rolf.keyboard.press("Enter")
    resolution = wait_for(
        lambda: Resolution.objects.filter(solution=disputed, is_current=True).first()
    )
    assert resolution.provenance == Provenance.REVIEWER
    assert resolution.resolved_by.username == "rolf"

    # The admin exports with the defaults: the reviewer's label is in the file.
    export_page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    login(export_page, base, "petra", "petra-admin-pw-1")
    export_page.goto(f"{base}/projects/{project.pk}?tab=export")
    expect(export_page.get_by_test_id("export-label-source")).to_have_value("final")
    export_page.get_by_test_id("export-label-sources").check()
    export_page.get_by_test_id("export-create").click()
    progress = export_page.get_by_test_id("export-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60_000)
    export_page.screenshot(path="var/screenshots/team-path-export.png")
    export = Export.objects.get(project=project)
    assert export.filters["label_source"] == "final"
    with export_page.expect_download() as info:
        export_page.get_by_test_id("export-row").first.get_by_test_id("export-download").click()
    rows_out = [json.loads(line) for line in info.value.path().read_bytes().decode().splitlines()]
    by_prompt = {r["prompt"]: r for r in rows_out}
    reviewed = by_prompt[TEXTS["one"]]
    assert reviewed["labels"] == [True, False]  # cut after the reviewer's wrong step 2
    assert reviewed["label_sources"][0] == "reviewed:reviewer"
    other = by_prompt[TEXTS["two"]]
    # Problem two has no review: the annotators' majority; a tie (alice's change, if she went
    # back to this one) is left out and the row ends before it.
    assert other["labels"] == ([True, True, True] if reopened == "one" else [True, True])
    for context in (alice_context, bob_context, rolf_context):
        context.close()
