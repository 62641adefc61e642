"""Re-segmenting in real Chromium: the annotator splits a step (S, the cursor marks the cut) and
merges two (m), rates and submits; an export built through the service has the new steps."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, Project, Step
from labeling.services.exports.snapshots import export_build, export_create
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import DEMO_LABELING, login, wait_for
from tests.exports.conftest import read_rows

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_split_and_merge_then_submit_and_export(live_server, browser, page, screenshot):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO_LABELING)
    assert not project.allow_resegment  # off by default

    # The project admin turns it on in the Settings tab.
    admin = browser.new_page(viewport={"width": 1400, "height": 900})
    login(admin, live_server.url, "admin")
    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_test_id("tab-settings").click()
    admin.get_by_test_id("settings-allow-resegment").check()
    admin.get_by_test_id("settings-allow-resegment").scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    admin.screenshot(path=str(SCREENSHOTS / "00-setting.png"))
    admin.get_by_test_id("settings-save").click()
    expect(admin.get_by_text("Saved")).to_be_visible()
    wait_for(lambda: Project.objects.get(pk=project.pk).allow_resegment)
    admin.close()
    login(page, live_server.url, "annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    rows.first.wait_for(state="visible")
    annotation = Annotation.objects.get(
        annotator__username="annotator", status=AnnotationStatus.DRAFT
    )
    before = list(
        Step.objects.filter(solution_id=annotation.solution_id)
        .order_by("index")
        .values_list("text", flat=True)
    )
    count = len(before)
    expect(rows).to_have_count(count)
    expect(page.get_by_test_id("resegment-hint")).to_be_visible()
    page.keyboard.press("3")  # step 1 correct; the cursor moves to step 2
    screenshot("01-before")

    # Split step 1: the dialog shows its source text, the cursor marks the cut.
    page.keyboard.press("k")
    page.keyboard.press("Shift+S")
    dialog = page.get_by_test_id("split-dialog")
    expect(dialog).to_be_visible()
    text = page.get_by_test_id("split-text")
    cut = before[0].index(" ", len(before[0]) // 3)
    text.evaluate("(el, at) => { el.setSelectionRange(at, at); el.focus(); }", cut)
    text.press("ArrowRight")
    text.press("ArrowLeft")  # a keyboard move: the preview follows the cursor
    expect(page.get_by_test_id("split-first")).to_contain_text(before[0][:cut].strip()[-10:])
    screenshot("02-split-dialog")
    text.press("Enter")
    expect(dialog).to_have_count(0)
    expect(rows).to_have_count(count + 1)
    expect(rows.nth(0)).to_have_attribute("data-rating", "")  # the halves start unrated
    expect(rows.nth(1)).to_have_attribute("data-rating", "")
    expect(rows.nth(0)).to_have_attribute("data-current", "true")
    # KaTeX still renders the parts' math.
    assert page.locator(".steps .katex").count() > 0
    screenshot("03-split")

    # Merge the last two steps (m on the one before last).
    page.keyboard.press("End")
    page.keyboard.press("k")
    page.keyboard.press("m")
    expect(rows).to_have_count(count)
    expect(rows.nth(count - 1)).to_have_attribute("data-current", "true")  # the merged step
    screenshot("04-merged")

    # Rate every step correct and submit.
    page.keyboard.press("Home")
    for _ in range(count):
        page.keyboard.press("3")
    page.keyboard.press("Enter")
    submitted = wait_for(
        lambda: Annotation.objects.filter(
            pk=annotation.pk, status=AnnotationStatus.SUBMITTED
        ).first()
    )
    assert submitted.labels.count() == count

    steps = list(
        Step.objects.filter(solution_id=annotation.solution_id)
        .order_by("index")
        .values_list("text", flat=True)
    )
    assert steps[0] == before[0][:cut].rstrip()
    assert steps[1] == before[0][cut:].lstrip()
    assert steps[-1] == f"{before[-2]}\n{before[-1]}"

    export = export_build(export=export_create(project=project, created_by=None, format="trl"))
    assert export.status == "done", export.error
    rows_out = [r for r in read_rows(export) if r["completions"][0] == steps[0]]
    assert len(rows_out) == 1 and rows_out[0]["completions"] == steps
    assert rows_out[0]["labels"] == [True] * count
