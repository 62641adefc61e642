"""Going back in real Chromium: submit, press o, change a rating, resubmit; then My work:
find an item by its problem text and reopen it."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, LabelHistory
from tests.e2e.helpers import login, wait_for
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXTS = [
    "Find $x$ if $x^2 = 49$ and $x > 0$.",
    "What is the area of a circle of radius $3$?",
    "Is $91$ a prime number?",
]


def _annotation(solution_id: int, status: str) -> Annotation | None:
    return Annotation.objects.filter(
        solution_id=solution_id, annotator__username="mona", status=status
    ).first()


def test_annotator_goes_back_and_reopens_from_my_work(live_server, page, screenshot):
    project = ProjectFactory(name="Going back", overlap=1, guidelines="")
    solutions = [SolutionFactory(problem__project=project, problem__text=t, steps=3) for t in TEXTS]
    user = get_user_model().objects.create_user(username="mona", password="steplab-mona")
    MembershipFactory(project=project, user=user, role="annotator")

    login(page, live_server.url, "mona")
    my_work = page.get_by_test_id("my-work")  # on the project's card
    expect(my_work).to_have_attribute("href", f"/projects/{project.pk}/my-work")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(3)
    for key in ["3", "3", "3"]:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    first = wait_for(lambda: _annotation(solutions[0].pk, AnnotationStatus.SUBMITTED))
    expect(page.locator(".problem-text")).to_contain_text("circle")

    # o: Back to the submission; the second step becomes wrong; resubmit.
    page.keyboard.press("o")
    expect(page.get_by_test_id("editing-banner")).to_be_visible()
    expect(page.locator(".problem-text")).to_contain_text("49")
    expect(rows.nth(1)).to_have_attribute("data-rating", "1")
    rows.nth(1).click()
    page.keyboard.press("1")
    expect(rows.nth(1)).to_have_attribute("data-rating", "-1")
    expect(page.get_by_test_id("submit-button")).to_contain_text("Resubmit")
    screenshot("01-back-editing")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("notice")).to_contain_text("Resubmitted")
    wait_for(
        lambda: (
            list(first.labels.order_by("step__index").values_list("rating", flat=True))
            == [1, -1, 1]
        )
    )
    first.refresh_from_db()
    assert first.status == AnnotationStatus.SUBMITTED and first.version == 3
    last = LabelHistory.objects.filter(annotation=first, action="submit").order_by("id").last()
    assert (last.step.index, last.before["rating"], last.after["rating"]) == (1, 1, -1)
    # Back on the queue's draft (the circle), which stayed claimed meanwhile.
    expect(page.locator(".problem-text")).to_contain_text("circle")
    expect(page.get_by_test_id("editing-banner")).to_have_count(0)

    # Skip the circle, then find it in My work by its text and reopen it.
    page.keyboard.press("s")
    wait_for(lambda: _annotation(solutions[1].pk, AnnotationStatus.DISCARDED))
    expect(page.locator(".problem-text")).to_contain_text("prime")
    page.get_by_test_id("my-work-link").click()
    items = page.get_by_test_id("my-work-row")
    expect(items).to_have_count(2)
    expect(items.first.get_by_test_id("my-work-status")).to_have_text("Skipped")
    expect(items.nth(1).locator(".katex").first).to_be_visible()
    screenshot("02-my-work")
    page.get_by_test_id("my-work-search").fill("circle")
    page.get_by_test_id("my-work-search-button").click()
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("area of a circle")
    screenshot("03-my-work-search")
    items.first.get_by_test_id("my-work-open").click()
    expect(page.locator(".problem-text")).to_contain_text("circle")
    expect(page.get_by_test_id("editing-banner")).to_have_count(0)  # a skip: a draft again
    wait_for(lambda: _annotation(solutions[1].pk, AnnotationStatus.DRAFT))
    for key in ["3", "3", "3"]:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    wait_for(lambda: _annotation(solutions[1].pk, AnnotationStatus.SUBMITTED))
    screenshot("04-after-reopened-skip")
