"""Reasoning steps in real Chromium: an admin imports a solution with a `<think>` block by the
sentence rule (previewed in the Import tab); the annotator sees the reasoning folded into one
bar, j/k skip it, `r` unfolds it, rates a reasoning step, and submits."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, ImportJob, Step
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for
from tests.factories import MembershipFactory, ProjectFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SOLUTION = (
    "<think>\nWe need 12 times 4. Ten times 4 is 40. Two times 4 is 8. "
    "So 40 + 8 = 48, e.g. by splitting 12. Let me check: 48 / 4 = 12.\n</think>\n"
    "Split $12 = 10 + 2$. Then $12 \\times 4 = 40 + 8 = 48$."
)


def test_import_with_think_block_fold_unfold_rate_submit(
    live_server, browser, page, screenshot, celery_worker_live, tmp_path
):
    call_command("load_demo")
    project = ProjectFactory(name="Reasoning traces")
    users = get_user_model().objects
    MembershipFactory(project=project, user=users.get(username="admin"), role="admin")
    MembershipFactory(project=project, user=users.get(username="annotator"))
    data = tmp_path / "reasoning.jsonl"
    row = {"problem": "What is $12 \\times 4$?", "answer": "48", "solution": SOLUTION}
    data.write_text(json.dumps(row) + "\n")

    # The admin picks the sentence rule for this import and sees the first solution's steps.
    admin = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(admin, live_server.url, "admin")
    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Import").click()
    admin.get_by_test_id("import-file").set_input_files(str(data))
    admin.get_by_test_id("import-step-rule-split").select_option("sentence")
    preview = admin.get_by_test_id("step-preview")
    expect(preview).to_contain_text("7 steps (5 of them reasoning")
    expect(admin.get_by_test_id("step-preview-step").first).to_contain_text("We need 12 times 4.")
    preview.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    admin.screenshot(path=str(SCREENSHOTS / "thinking-01-import-preview.png"), full_page=True)
    admin.get_by_test_id("import-submit").click()
    expect(admin.get_by_test_id("import-result")).to_be_visible(timeout=20000)
    job = ImportJob.objects.get(project=project)
    assert job.step_split == "sentence"
    admin.close()

    steps = list(Step.objects.filter(solution__project=project).order_by("index"))
    assert [s.thinking for s in steps] == [True] * 5 + [False] * 2

    # The annotator: the reasoning is one folded bar; the page starts on the answer's first step.
    login(page, live_server.url, "annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    bar = page.get_by_test_id("thinking-fold")
    expect(bar).to_contain_text("Reasoning · 5 steps")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-index", "5")
    expect(rows.nth(0)).to_have_attribute("data-current", "true")
    page.keyboard.press("k")  # nothing visible above: stays
    expect(rows.nth(0)).to_have_attribute("data-current", "true")
    page.keyboard.press("j")
    expect(rows.nth(1)).to_have_attribute("data-current", "true")
    page.keyboard.press("k")
    screenshot("thinking-02-folded")

    # The bar opens with a click, and folds again; `r` does the same from the keyboard.
    toggle = page.get_by_test_id("thinking-toggle")
    toggle.click()
    expect(rows).to_have_count(7)
    expect(toggle).to_have_attribute("aria-expanded", "true")
    toggle.click()
    expect(rows).to_have_count(2)
    page.keyboard.press("r")
    expect(rows).to_have_count(7)
    expect(rows.nth(0)).to_have_attribute("data-current", "true")  # at the reasoning's start
    page.keyboard.press("r")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-current", "true")  # back on the answer

    # Rating the answer's steps advances to the first unrated step, a reasoning one: the
    # reasoning opens there, and its steps are rated like any other.
    page.keyboard.press("3")
    page.keyboard.press("3")
    expect(rows).to_have_count(7)
    expect(rows.nth(0)).to_have_attribute("data-thinking", "true")
    expect(rows.nth(0)).to_have_attribute("data-current", "true")
    page.keyboard.press("1")  # a reasoning step rated wrong
    expect(rows.nth(0)).to_have_attribute("data-rating", "-1")
    for _ in range(4):
        page.keyboard.press("3")
    expect(rows.nth(4)).to_have_attribute("data-rating", "1")
    screenshot("thinking-03-unfolded-rated")
    page.keyboard.press("Enter")
    submitted = wait_for(
        lambda: Annotation.objects.filter(
            solution__project=project, status=AnnotationStatus.SUBMITTED
        ).first()
    )
    ratings = dict(submitted.labels.values_list("step__index", "rating"))
    assert ratings == {0: -1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}
