"""An admin's assignment journey in real Chromium: on the project page's Assignments tab the
admin picks a problem source, a count of 4 and two annotators, previews round robin (2 each),
assigns, and sees the per-annotator table. Each annotator then opens the labeling page and is
served their own assigned solutions first (checked in the database), and the table counts
what they finished. Then the Gold tab (a gold question two annotators answered, one wrongly)
and the review and quality settings. Screenshots of each.
"""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Assignment,
    Project,
    ProjectMembership,
    Solution,
)
from labeling.services.gold.questions import gold_set
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"
VIEWPORT = {"width": 1400, "height": 900}


def _shot(page, name: str, *, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def _draft(username: str) -> Annotation:
    return wait_for(
        lambda: Annotation.objects.filter(
            annotator__username=username, status=AnnotationStatus.DRAFT
        ).first()
    )


def _label_current(page) -> None:
    """Rate every step of the solution on the page +1 with the keyboard and submit."""
    rows = page.get_by_test_id("step-row")
    expect(rows.first).to_be_visible()
    n = rows.count()
    for _ in range(n):
        page.keyboard.press("3")
    expect(rows.nth(n - 1)).not_to_have_attribute("data-rating", "")
    page.keyboard.press("Enter")


def test_admin_assigns_round_robin_and_annotators_get_their_solutions_first(live_server, browser):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    # The last source imported (MATH-500): its solutions have the highest ids, so without the
    # assignment nobody would be served them first.
    source = Solution.objects.filter(project=project).order_by("-id").first().problem.source
    expected = list(
        Solution.objects.filter(project=project, problem__source=source)
        .order_by("id")
        .values_list("pk", flat=True)[:4]
    )
    assert min(expected) > Solution.objects.filter(project=project).order_by("id")[0].pk
    base = live_server.url

    page = browser.new_page(viewport=VIEWPORT)
    login(page, base, "admin")
    page.goto(f"{base}/projects/{project.pk}")
    page.get_by_test_id("tab-assignments").click()
    expect(page.get_by_test_id("assign-empty")).to_be_visible()
    page.get_by_test_id("assign-source").select_option(source)
    page.get_by_test_id("assign-count").fill("4")
    page.get_by_test_id("assign-user-annotator").check()
    page.get_by_test_id("assign-user-annotator2").check()
    expect(page.get_by_test_id("assign-strategy-round_robin")).to_be_checked()
    expect(page.get_by_test_id("assign-preview")).to_contain_text(
        "4 solutions chosen · 4 new assignments"
    )
    expect(page.get_by_test_id("assign-gets-annotator")).to_have_text("+2")
    expect(page.get_by_test_id("assign-gets-annotator2")).to_have_text("+2")
    assert not Assignment.objects.exists()  # the preview wrote nothing
    _shot(page, "assignments-preview")
    page.get_by_test_id("assign-submit").click()
    expect(page.get_by_test_id("assign-notice")).to_have_text(
        "Assigned 4 solutions: annotator 2, annotator2 2."
    )
    row = page.get_by_test_id("assign-row-annotator")
    expect(row.locator("td.num").nth(0)).to_have_text("2")
    # Round robin over the first four solutions of the source, by id.
    assigned = {
        user: sorted(
            Assignment.objects.filter(user__username=user).values_list("solution_id", flat=True)
        )
        for user in ("annotator", "annotator2")
    }
    assert assigned == {"annotator": expected[0::2], "annotator2": expected[1::2]}
    # The next batch with the same form: four more of the source, none assigned twice.
    expect(page.get_by_test_id("assign-preview")).to_contain_text("4 solutions chosen")

    # Each annotator's queue serves their own assigned solutions first, in id order.
    for user in ("annotator", "annotator2"):
        annotator = browser.new_page(viewport=VIEWPORT)
        login(annotator, base, user)
        annotator.goto(f"{base}/projects/{project.pk}/label")
        first = _draft(user)
        assert first.solution_id == assigned[user][0]
        _label_current(annotator)
        second = wait_for(
            lambda user=user, done=first.solution_id: (
                Annotation.objects.filter(annotator__username=user, status=AnnotationStatus.DRAFT)
                .exclude(solution_id=done)
                .first()
            )
        )
        assert second.solution_id == assigned[user][1]
        if user == "annotator":
            _shot(annotator, "assignments-annotator-served")
        annotator.close()
    # Nobody else was served an assigned solution.
    assert (
        not Annotation.objects.filter(solution_id__in=expected)
        .exclude(annotator__username__in=["annotator", "annotator2"])
        .exists()
    )

    page.reload()
    row = page.get_by_test_id("assign-row-annotator")
    expect(row.locator("td.num").nth(1)).to_have_text("1")  # done
    expect(row.locator("td.num").nth(2)).to_have_text("1")  # pending
    _shot(page, "assignments-tab", full_page=True)

    # Gold: a solution marked gold (step 2 wrong), answered by both annotators, one wrongly.
    gold = Solution.objects.filter(project=project).exclude(pk__in=expected).order_by("-id")[0]
    steps = list(gold.steps.order_by("index").values_list("id", flat=True))
    gold_set(
        solution=gold,
        labels=[{"step_id": s, "rating": -1 if i == 1 else 1} for i, s in enumerate(steps)],
    )
    for user, wrong_at in (("annotator", 1), ("annotator2", 0)):
        answer = Annotation.objects.create(solution=gold, annotator_id=_user_id(user))
        annotation_submit(
            annotation=answer,
            user=answer.annotator,
            version=answer.version,
            labels=[
                {"step_id": s, "rating": -1 if i == wrong_at else 1} for i, s in enumerate(steps)
            ],
        )
    project.gold_rate = 0.1
    project.screening_size = 5
    project.save(update_fields=["gold_rate", "screening_size"])
    page.reload()
    page.get_by_test_id("tab-gold").click()
    expect(page.get_by_test_id("gold-summary")).to_contain_text("Served at 10% of claims")
    page.get_by_test_id(f"gold-answers-{gold.pk}").click()
    expect(page.get_by_test_id(f"gold-annotators-{gold.pk}")).to_contain_text(
        "first error step 2 ✓"
    )
    expect(page.get_by_test_id(f"gold-annotators-{gold.pk}")).to_contain_text(
        "first error step 1 ✗"
    )
    _shot(page, "gold-tab")
    page.get_by_test_id("tab-members").click()
    expect(page.get_by_test_id("screening-annotator")).to_contain_text("in screening · 1/5")
    _shot(page, "members-screening")
    page.get_by_test_id("tab-settings").click()
    page.get_by_test_id("settings-quality").scroll_into_view_if_needed()
    expect(page.get_by_test_id("settings-gold-rate")).to_have_value("10")
    _shot(page, "settings-quality")
    page.get_by_test_id("settings-gold-rate").fill("20")
    page.get_by_test_id("settings-save").click()
    expect(page.get_by_text("Saved")).to_be_visible()
    project.refresh_from_db()
    assert project.gold_rate == 0.2

    # A failed screening, and the admin lets the annotator retake it (on a gold question they
    # have not seen: a retake needs one).
    spare = Solution.objects.filter(project=project).exclude(pk__in=[*expected, gold.pk])
    spare = spare.filter(annotations__isnull=True).order_by("-id")[0]
    gold_set(
        solution=spare,
        labels=[{"step_id": s, "rating": 1} for s in spare.steps.values_list("id", flat=True)],
    )
    ProjectMembership.objects.filter(project=project, user__username="annotator2").update(
        screening="failed"
    )
    page.get_by_test_id("tab-members").click()
    expect(page.get_by_test_id("screening-annotator2")).to_contain_text("failed")
    page.get_by_test_id("screening-retake-annotator2").click()
    expect(page.get_by_test_id("screening-annotator2")).to_have_text("in screening · 0/5")
    membership = ProjectMembership.objects.get(project=project, user__username="annotator2")
    assert membership.screening == "" and membership.screening_reset_at is not None
    page.close()
    # Still true after everything: the remaining assigned solutions wait for their assignees.
    other = task_claim_next(project=project, user=gold.project.created_by)
    assert other is None or other.annotation.solution_id not in expected


def _user_id(username: str) -> int:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username).pk
