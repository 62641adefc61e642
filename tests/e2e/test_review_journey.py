"""A reviewer's journey in real Chromium: two annotators label one solution differently, the
reviewer finds it at the top of the review queue, adjudicates it with the keyboard only, sees
the resolved label, sends one annotation back with a comment, and its annotator sees the
comment at the top of their labeling page. Screenshots of the queue, the review page, the
shortcuts and the dashboard.
"""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import (
    Annotation,
    AnnotationStatus,
    GoldLabel,
    Project,
    ProjectMembership,
    Provenance,
    Resolution,
    Role,
    Solution,
    StepLabel,
)
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"
VIEWPORT = {"width": 1400, "height": 900}
COMMENT = "Step 3 is fine: the substitution is valid. Please re-check it."


def _shot(page, name: str, *, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if full_page:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def _submit_agreeing_pair(project: Project) -> int:
    """Two extra annotators submit identical labels on the first solution through the real
    services: a complete, agreeing solution ("no flags") with the lowest id."""
    users = []
    for name in ("carol", "dave"):
        user = get_user_model().objects.create_user(username=name, password=f"steplab-{name}")
        ProjectMembership.objects.create(project=project, user=user, role=Role.ANNOTATOR)
        users.append(user)
    solution_ids = set()
    for user in users:
        claim = task_claim_next(project=project, user=user)
        steps = list(claim.annotation.solution.steps.order_by("index"))
        annotation_submit(
            annotation=claim.annotation,
            user=user,
            version=claim.annotation.version,
            labels=[{"step_id": s.id, "rating": 1} for s in steps],
            time_spent_ms=40_000,
        )
        solution_ids.add(claim.annotation.solution_id)
    assert len(solution_ids) == 1
    return solution_ids.pop()


def _seed_history(project: Project, agreed_id: int) -> list[int]:
    """carol and dave labeled four more solutions (the project's last four) over the three days
    before today, agreeing on most steps but not all: a non-trivial kappa and throughput per
    day for the dashboard. Written directly (like an import of past work), with the solutions'
    submission counters. Returns the solutions where they disagree."""
    from datetime import timedelta

    from django.db.models import F
    from django.utils import timezone

    users = get_user_model().objects.filter(username__in=["carol", "dave"]).order_by("username")
    solutions = list(Solution.objects.filter(project=project).order_by("-id")[:4])[::-1]
    disagreeing = []
    for k, solution in enumerate(solutions):
        assert solution.pk != agreed_id
        steps = list(solution.steps.order_by("index"))
        for n, user in enumerate(users):
            ratings = [1] * len(steps)
            if n == 1 and k % 2 == 0:  # dave finds an error carol does not, on every other one
                ratings[len(steps) // 2] = -1
            if k == 3:
                ratings[0] = -1  # both call the first step wrong
            annotation = Annotation.objects.create(
                solution=solution,
                annotator=user,
                status=AnnotationStatus.SUBMITTED,
                finish_reason="solution",
                time_spent_ms=45_000 + 15_000 * n + 5_000 * k,
                submitted_at=timezone.now() - timedelta(days=3 - k % 3),
            )
            StepLabel.objects.bulk_create(
                StepLabel(annotation=annotation, step=step, rating=r)
                for step, r in zip(steps, ratings, strict=True)
            )
        Solution.objects.filter(pk=solution.pk).update(submitted_count=F("submitted_count") + 2)
        if k % 2 == 0:
            disagreeing.append(solution.pk)
    # Written past the services, as an import of past work is: refresh what the queue reads.
    from labeling.services.review.reasons import review_reasons_refresh

    review_reasons_refresh(project=project)
    return disagreeing


def _label_with_keys(page, base_url: str, project: Project, keys: list[str]) -> int:
    """Label the next solution with `keys` (one per step, padded with "3") and submit."""
    page.goto(f"{base_url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows.first).to_be_visible()
    n = rows.count()
    for key in (keys + ["3"] * n)[:n]:
        page.keyboard.press(key)
    expect(rows.nth(n - 1)).not_to_have_attribute("data-rating", "")
    page.keyboard.press("Enter")
    return n


def test_reviewer_adjudicates_a_disagreement_with_the_keyboard(live_server, browser):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    project.overlap = 2
    project.save(update_fields=["overlap"])
    agreed_id = _submit_agreeing_pair(project)
    base = live_server.url

    # Two annotators label the same (next) solution differently: step 2 is −1 for one of them.
    first = browser.new_page(viewport=VIEWPORT)
    login(first, base, "annotator")
    n_steps = _label_with_keys(first, base, project, ["3", "3", "3"])
    mine = wait_for(
        lambda: Annotation.objects.filter(
            annotator__username="annotator", status=AnnotationStatus.SUBMITTED
        ).first()
    )
    first.close()
    second = browser.new_page(viewport=VIEWPORT)
    login(second, base, "annotator2")
    _label_with_keys(second, base, project, ["3", "1", "2"])
    theirs = wait_for(
        lambda: Annotation.objects.filter(
            annotator__username="annotator2", status=AnnotationStatus.SUBMITTED
        ).first()
    )
    # The page claims the next solution after the submit: wait for that draft before closing,
    # or annotator2 is not "in the middle of another solution" below.
    wait_for(
        lambda: Annotation.objects.filter(
            annotator__username="annotator2", status=AnnotationStatus.DRAFT
        ).first()
    )
    second.close()
    disputed = mine.solution_id
    assert theirs.solution_id == disputed != agreed_id
    others = _seed_history(project, agreed_id)
    assert len(others) == 2 and all(other > disputed for other in others)

    # The reviewer opens the queue from the project list: the disagreement is first, although
    # the agreeing solution has the lower id.
    page = browser.new_page(viewport=VIEWPORT)
    login(page, base, "reviewer")
    card = page.get_by_test_id("project-card").filter(has_text=DEMO)
    card.get_by_test_id("review-project").click()
    rows = page.get_by_test_id("queue-row")
    expect(rows).to_have_count(6)
    order = [disputed, *others]
    for i, solution_id in enumerate(order):
        expect(rows.nth(i)).to_have_attribute("data-solution", str(solution_id))
        expect(rows.nth(i).get_by_test_id("reason-badge").first).to_have_attribute(
            "data-reason", "disagreement"
        )
    # The agreeing solutions come after every disagreement, the lowest id among them first.
    expect(rows.nth(3)).to_have_attribute("data-solution", str(agreed_id))
    expect(rows.nth(3).get_by_test_id("reason-badge")).to_have_attribute("data-reason", "rest")
    expect(page.get_by_test_id("count-disagreement")).to_contain_text("3")
    expect(page.get_by_test_id("count-rest")).to_contain_text("3")
    _shot(page, "review-01-queue")
    # Filter by annotator (the queue names them; reviewers cannot list members), then clear.
    page.get_by_test_id("filter-annotator").select_option(label="annotator2")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_have_attribute("data-solution", str(disputed))
    page.get_by_role("button", name="Clear filters").click()
    expect(rows).to_have_count(6)

    # Keyboard only from here: Enter opens the highlighted (first) item.
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/projects/{project.pk}/review/{disputed}")
    steps = page.get_by_test_id("review-step")
    expect(steps).to_have_count(n_steps)
    expect(page.get_by_test_id("annotator-column")).to_have_count(2)
    # The disagreeing steps are marked and undecided; the agreed ones are pre-filled.
    expect(steps.nth(1)).to_have_attribute("data-disagrees", "true")
    expect(steps.nth(2)).to_have_attribute("data-disagrees", "true")
    expect(steps.nth(0)).not_to_have_attribute("data-disagrees", "true")
    expect(steps.nth(0)).to_have_attribute("data-decision", "1")
    expect(steps.nth(1)).to_have_attribute("data-decision", "")
    expect(steps.nth(1)).to_have_attribute("data-current", "true")
    _shot(page, "review-02-disagreement")

    page.keyboard.press("?")
    expect(page.get_by_test_id("shortcuts-overlay")).to_be_visible()
    page.wait_for_timeout(300)  # let the overlay's fade-in finish before the screenshot
    _shot(page, "review-03-shortcuts")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("shortcuts-overlay")).to_have_count(0)

    # Enter with a step undecided is refused and points at it.
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("notice")).to_contain_text("Step 2 has no decision")
    # Step 2: wrong (annotator2 was right). The cursor moves to step 3, still undecided.
    page.keyboard.press("1")
    expect(steps.nth(1)).to_have_attribute("data-decision", "-1")
    expect(steps.nth(2)).to_have_attribute("data-current", "true")
    # Step 3: pick the first annotator's rating (their column is selected): +1.
    page.keyboard.press("p")
    expect(steps.nth(2)).to_have_attribute("data-decision", "1")
    # Back up with k and change step 1 to neutral, then back to correct.
    page.keyboard.press("k")
    page.keyboard.press("k")
    page.keyboard.press("k")
    expect(steps.nth(0)).to_have_attribute("data-current", "true")
    page.keyboard.press("2")
    expect(steps.nth(0)).to_have_attribute("data-decision", "0")
    page.keyboard.press("k")
    page.keyboard.press("3")
    expect(steps.nth(0)).to_have_attribute("data-decision", "1")
    page.keyboard.press("Enter")

    # The next item of the queue opens (the next disagreement) and the decision is stored.
    page.wait_for_url(f"**/projects/{project.pk}/review/{others[0]}")
    resolution = wait_for(
        lambda: Resolution.objects.filter(solution_id=disputed, is_current=True).first()
    )
    assert resolution.provenance == Provenance.REVIEWER
    assert resolution.resolved_by.username == "reviewer"
    ratings = list(resolution.labels.order_by("step__index").values_list("rating", flat=True))
    assert ratings == [1, -1] + [1] * (n_steps - 2)
    assert resolution.first_error_index == 1

    # The resolved label appears on the solution's page, with its provenance.
    page.goto(f"{base}/projects/{project.pk}/review/{disputed}")
    card = page.get_by_test_id("resolution")
    expect(card).to_have_attribute("data-provenance", "reviewer")
    expect(card.get_by_test_id("provenance")).to_have_text("Reviewer")
    expect(card).to_contain_text("by reviewer")
    expect(card).to_contain_text("First error: step 2")
    expect(steps.nth(1)).to_have_attribute("data-decision", "-1")

    # Reject annotator2's annotation with a comment: l selects their column, r opens the dialog.
    page.keyboard.press("l")
    expect(page.get_by_test_id("selected-annotation")).to_contain_text("annotator2")
    page.keyboard.press("r")
    expect(page.get_by_test_id("reject-dialog")).to_be_visible()
    page.keyboard.type(COMMENT)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("reject-dialog")).to_have_count(0)
    rework = wait_for(
        lambda: Annotation.objects.filter(revises=theirs, status=AnnotationStatus.DRAFT).first()
    )
    theirs.refresh_from_db()
    assert theirs.status == AnnotationStatus.REJECTED
    columns = page.get_by_test_id("annotator-column")
    expect(columns.nth(1)).to_have_attribute("data-status", "rejected")
    expect(page.get_by_test_id("comments")).to_contain_text(COMMENT)
    _shot(page, "review-04-resolved-and-rejected")

    # annotator2 is in the middle of another solution (served after their submit): the
    # comment shows above it, and the rejected annotation comes next.
    back = browser.new_page(viewport=VIEWPORT)
    login(back, base, "annotator2")
    back.goto(f"{base}/projects/{project.pk}/label")
    pending = back.get_by_test_id("rework-pending")
    expect(pending).to_contain_text(COMMENT)
    expect(back.get_by_test_id("rework-banner")).to_have_count(0)
    _shot(back, "review-05-rework-pending")
    back.keyboard.press("s")  # skip the current one: the rework is served
    banner = back.get_by_test_id("rework-banner")
    expect(banner).to_be_visible()
    expect(banner.get_by_test_id("rework-comment")).to_have_text(COMMENT)
    expect(banner).to_contain_text("Sent back by reviewer")
    # Their own labels are kept in the rework draft: step 2 still −1.
    expect(back.get_by_test_id("step-row").nth(1)).to_have_attribute("data-rating", "-1")
    assert rework.solution_id == disputed
    _shot(back, "review-06-rework-banner")
    back.close()

    # An admin makes the resolved solution a gold question from its page, with the G key.
    admin = browser.new_page(viewport=VIEWPORT)
    login(admin, base, "admin")
    admin.goto(f"{base}/projects/{project.pk}/review/{disputed}")
    expect(admin.get_by_test_id("gold-set")).to_be_visible()
    admin.keyboard.press("G")
    expect(admin.get_by_test_id("gold-unset")).to_be_visible()
    gold = list(
        GoldLabel.objects.filter(step__solution_id=disputed)
        .order_by("step__index")
        .values_list("rating", flat=True)
    )
    assert gold == ratings
    admin.close()

    # The dashboard: agreement numbers, the pair heatmap, distribution and throughput.
    page.goto(f"{base}/projects/{project.pk}")
    expect(page.get_by_test_id("open-review")).to_be_visible()
    _shot(page, "review-07-project-page")
    page.get_by_test_id("open-dashboard").click()
    page.wait_for_url(f"**/projects/{project.pk}/dashboard")
    expect(page.get_by_test_id("stat-alpha")).to_be_visible()
    expect(page.get_by_test_id("pair-heatmap")).to_be_visible()
    expect(page.get_by_test_id("label-distribution")).to_be_visible()
    expect(page.get_by_test_id("throughput-chart")).to_be_visible()
    expect(page.get_by_test_id("queue-progress")).to_be_visible()
    # annotator's submission on the now-gold solution: all steps right but the first error
    expect(page.get_by_test_id("gold-bars")).to_contain_text("80%")
    _shot(page, "review-08-dashboard", full_page=True)
