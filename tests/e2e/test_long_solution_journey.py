"""A 3,000-step solution in real Chromium (issue 28): only the steps near the view are in the
DOM; the annotator accepts the suggestions, goes to the last step by keyboard, rates it, finds a
step that is not rendered with the page's find, and submits every step's label."""

import json

import pytest
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus
from labeling.services.imports import import_file
from tests.e2e.helpers import buttons_covered, login, wait_for
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STEPS = 3000


def _long_project(tmp_path):
    project = ProjectFactory(name="Long traces", first_error_mode=False, show_suggestions=True)
    user = UserFactory(username="tracer")
    MembershipFactory(project=project, user=user, role="annotator")
    steps = [
        f"Step {k + 1}: from the last result, $x_{{{k + 1}}} = \\frac{{{k + 2}}}{{2}} + {k}$."
        for k in range(STEPS)
    ]
    row = {
        "problem": "Follow the recurrence to the end.",
        "answer": "done",
        "steps": steps,
        "labels": [1] * (STEPS - 1),  # a suggestion on every step but the last
        "generator": "agent-1",
    }
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab", labels_as="suggestions")
    return project


def test_a_3000_step_solution_is_labeled_from_the_keyboard(live_server, page, screenshot, tmp_path):
    project = _long_project(tmp_path)
    login(page, live_server.url, "tracer", "pw-for-tests")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    rows.first.wait_for(state="visible")
    expect(page.get_by_test_id("step-list")).to_have_attribute("data-windowed", "true")
    expect(page.get_by_test_id("windowed-note")).to_contain_text("near the view")
    assert 0 < rows.count() < 100  # of 3,000
    expect(rows.first).to_have_attribute("aria-setsize", str(STEPS))
    assert page.locator(".steps .katex").count() > 0  # KaTeX typesets the rendered steps
    screenshot("long-00-opened")

    def step(n: int):
        return page.locator(f'[data-testid="step-row"][aria-posinset="{n}"]')

    # Accept the suggestions: every step but the last is rated.
    page.keyboard.press("Shift+A")
    expect(page.get_by_test_id("rated-count")).to_contain_text(f"{STEPS - 1}/{STEPS}")
    page.keyboard.press("Home")
    expect(step(1)).to_have_attribute("data-current", "true")
    expect(step(STEPS)).to_have_count(0)  # far below: not in the DOM

    # To the last step by keyboard: it is rendered, current and in view; rate it.
    page.keyboard.press("End")
    expect(step(STEPS)).to_have_attribute("data-current", "true")
    expect(step(STEPS)).to_be_in_viewport()
    expect(step(1)).to_have_count(0)
    assert rows.count() < 100
    page.keyboard.press("k")
    page.keyboard.press("j")
    expect(step(STEPS)).to_have_attribute("data-current", "true")
    page.keyboard.press("3")
    expect(step(STEPS)).to_have_attribute("data-rating", "1")
    expect(page.get_by_test_id("rated-count")).to_contain_text(f"{STEPS}/{STEPS}")
    screenshot("long-01-last-step-rated")

    # The browser's find cannot see step 1,500 now; the page's can (Ctrl F opens it here).
    page.keyboard.press("Control+f")
    find = page.get_by_test_id("step-find-input")
    expect(find).to_be_focused()
    find.fill("x_{1500}")
    expect(step(1500)).to_have_attribute("data-current", "true")
    expect(step(1500)).to_be_in_viewport()
    expect(page.get_by_test_id("step-find-count")).to_have_text("1 of 1 step")
    screenshot("long-02-find")
    # The find bar never hides a step's rating buttons while that step's text is in sight:
    # right after the find, and with the rows above scrolled back in by the wheel.
    assert buttons_covered(page, '[data-testid="step-row"]') == []
    for _ in range(3):
        page.mouse.wheel(0, -45)
        page.wait_for_timeout(150)
        assert buttons_covered(page, '[data-testid="step-row"]') == []
    screenshot("long-03-find-scrolled")
    find.press("Escape")
    expect(page.get_by_test_id("step-find")).to_have_count(0)
    assert rows.count() < 100

    page.keyboard.press("Enter")  # submit
    submitted = wait_for(
        lambda: Annotation.objects.filter(
            solution__problem__project=project, status=AnnotationStatus.SUBMITTED
        ).first(),
        timeout=30,
    )
    ratings = list(submitted.labels.values_list("rating", flat=True))
    assert len(ratings) == STEPS and set(ratings) == {1}
