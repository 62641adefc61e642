"""A 2,000-step solution on the review page in real Chromium: two annotators differ on one
step far down; the reviewer's page keeps only the rows near the view in the DOM, opens on that
step, moves to the first and back by keyboard, finds a step that is not rendered with the page's
find, decides the disputed step and adjudicates; the resolution holds every step."""

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Resolution, Role
from labeling.services.imports import import_file
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.e2e.helpers import buttons_covered, login, wait_for
from tests.factories import MembershipFactory, ProjectFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STEPS = 2000
DISPUTED = 1700  # 1-based


def _disputed_long_solution(tmp_path):
    project = ProjectFactory(name="Long review", first_error_mode=False, overlap=2)
    steps = [f"Step {k + 1}: $y_{{{k + 1}}} = {k} + \\frac{{1}}{{2}}$." for k in range(STEPS)]
    row = {"problem": "Follow the recurrence.", "answer": "done", "steps": steps}
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab")
    users = get_user_model()
    for name in ("ann", "bea"):
        user = users.objects.create_user(username=name, password="pw-for-tests")
        MembershipFactory(project=project, user=user, role=Role.ANNOTATOR)
        claim = task_claim_next(project=project, user=user)
        ids = list(claim.annotation.solution.steps.order_by("index").values_list("id", flat=True))
        ratings = [1] * STEPS
        if name == "bea":
            ratings[DISPUTED - 1] = -1
        annotation_submit(
            annotation=claim.annotation,
            user=user,
            version=claim.annotation.version,
            labels=[{"step_id": s, "rating": r} for s, r in zip(ids, ratings, strict=True)],
            time_spent_ms=60_000,
        )
    reviewer = users.objects.create_user(username="rita", password="pw-for-tests")
    MembershipFactory(project=project, user=reviewer, role=Role.REVIEWER)
    return project, claim.annotation.solution_id


def test_a_2000_step_solution_is_reviewed_from_the_keyboard(
    live_server, page, screenshot, tmp_path
):
    project, solution_id = _disputed_long_solution(tmp_path)
    page.set_viewport_size({"width": 1400, "height": 900})
    login(page, live_server.url, "rita", "pw-for-tests")
    page.goto(f"{live_server.url}/projects/{project.pk}/review/{solution_id}")
    rows = page.get_by_test_id("review-step")
    rows.first.wait_for(state="visible")
    expect(page.get_by_test_id("review-rows")).to_have_attribute("data-windowed", "true")
    expect(page.get_by_test_id("windowed-note")).to_contain_text("near the view")
    expect(page.get_by_test_id("review-grid")).to_have_attribute("aria-rowcount", str(STEPS + 1))

    def step(n: int):
        return page.locator(f'[data-testid="review-step"][data-index="{n - 1}"]')

    # It opens on the one step still to decide, far down, rendered and in view.
    expect(step(DISPUTED)).to_have_attribute("data-current", "true")
    expect(step(DISPUTED)).to_have_attribute("data-disagrees", "true")
    expect(step(DISPUTED)).to_be_in_viewport()
    assert 0 < rows.count() < 100  # of 2,000
    assert page.locator(".review-rows .katex").count() > 0
    screenshot("long-review-00-opened")

    page.keyboard.press("Home")
    expect(step(1)).to_have_attribute("data-current", "true")
    expect(step(DISPUTED)).to_have_count(0)  # far below: not in the DOM
    page.keyboard.press("End")
    expect(step(STEPS)).to_have_attribute("data-current", "true")
    expect(step(STEPS)).to_be_in_viewport()

    page.keyboard.press("Control+f")
    find = page.get_by_test_id("step-find-input")
    expect(find).to_be_focused()
    find.fill("y_{1700}")
    expect(step(DISPUTED)).to_have_attribute("data-current", "true")
    expect(step(DISPUTED)).to_be_in_viewport()
    screenshot("long-review-01-find")
    # The find bar hides no step's decision buttons while that step shows (also scrolled).
    rows_selector = '[data-testid="review-step"]'
    assert buttons_covered(page, rows_selector) == []
    for _ in range(3):
        page.mouse.wheel(0, -45)
        page.wait_for_timeout(150)
        assert buttons_covered(page, rows_selector) == []
    screenshot("long-review-02-find-scrolled")
    find.press("Escape")
    expect(page.get_by_test_id("step-find")).to_have_count(0)

    page.keyboard.press("1")  # the disputed step: wrong
    expect(step(DISPUTED)).to_have_attribute("data-decision", "-1")
    assert rows.count() < 100
    page.keyboard.press("Enter")  # adjudicate
    resolution = wait_for(
        lambda: Resolution.objects.filter(solution_id=solution_id).first(), timeout=30
    )
    ratings = dict(resolution.labels.values_list("step__index", "rating"))
    assert len(ratings) == STEPS
    assert ratings[DISPUTED - 1] == -1 and set(ratings.values()) == {-1, 1}
