"""An annotator's day in real Chromium: log in, label with the keyboard, submit, reload a draft."""

import json

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Annotation, AnnotationStatus, Problem, Project, Solution, Step
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"


def test_annotator_labels_a_solution_with_the_keyboard_only(live_server, page, screenshot):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    first = Solution.objects.filter(project=project).order_by("id").first()
    assert first.steps.count() == 5

    login(page, live_server.url, "annotator", "steplab-annotator")
    screenshot("01-projects")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(5)
    expect(rows.nth(0)).to_have_attribute("data-current", "true")
    screenshot("02-labeling-page")

    # Rate with the keyboard only: correct, correct, neutral, wrong, correct.
    for key in ["3", "3", "2", "1"]:
        page.keyboard.press(key)
    page.keyboard.press("3")
    expect(rows.nth(4)).to_have_attribute("data-rating", "1")
    # Undo and redo the last rating.
    page.keyboard.press("Control+z")
    expect(rows.nth(4)).to_have_attribute("data-rating", "")
    page.keyboard.press("3")
    expected = ["1", "1", "0", "-1", "1"]
    for i, rating in enumerate(expected):
        expect(rows.nth(i)).to_have_attribute("data-rating", rating)
    screenshot("03-rated")

    page.keyboard.press("Enter")
    submitted = wait_for(
        lambda: Annotation.objects.filter(
            solution=first, annotator__username="annotator", status=AnnotationStatus.SUBMITTED
        ).first()
    )
    ratings = list(submitted.labels.order_by("step__index").values_list("rating", flat=True))
    assert ratings == [1, 1, 0, -1, 1]
    assert submitted.finish_reason == "solution"
    assert submitted.time_spent_ms > 0

    # The next solution loads: different steps, nothing rated yet, progress counts one.
    expect(page.get_by_test_id("progress")).to_contain_text("1")
    expect(rows.first).to_have_attribute("data-rating", "")
    second = wait_for(
        lambda: Annotation.objects.filter(
            annotator__username="annotator", status=AnnotationStatus.DRAFT
        ).first()
    )
    assert second.solution_id != first.id
    screenshot("04-next-solution")

    # A draft survives a reload.
    page.keyboard.press("3")
    page.keyboard.press("1")
    expect(page.get_by_test_id("save-state")).to_contain_text("Saved")
    page.reload()
    rows = page.get_by_test_id("step-row")
    expect(rows.nth(0)).to_have_attribute("data-rating", "1")
    expect(rows.nth(1)).to_have_attribute("data-rating", "-1")
    second.refresh_from_db()
    saved = list(second.labels.order_by("step__index").values_list("rating", flat=True))
    assert saved[:2] == [1, -1]
    assert not any(saved[2:])
    screenshot("05-draft-restored")

    page.keyboard.press("?")
    expect(page.get_by_test_id("shortcuts-overlay")).to_be_visible()
    screenshot("06-shortcuts")


def test_bad_import_shows_the_line_and_imports_nothing(
    live_server, page, screenshot, celery_worker_live, tmp_path
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    counts = (Problem.objects.count(), Solution.objects.count(), Step.objects.count())
    bad = tmp_path / "bad.jsonl"
    good = {"problem": "What is $1+1$?", "answer": "2", "steps": ["$1+1=2$"]}
    bad.write_text(
        json.dumps(good) + "\n" + json.dumps(good | {"problem": "2+2?"}) + "\n"
        '{"problem": "3+3?", "answer": "6", "steps": ["ok", null]}\n'
    )

    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_role("tab", name="Import").click()
    page.get_by_test_id("import-file").set_input_files(str(bad))
    page.get_by_test_id("import-format").select_option("steplab")
    expect(page.get_by_test_id("import-detect-uses")).to_be_checked()  # on unless unticked
    page.get_by_test_id("import-submit").click()
    error = page.get_by_test_id("import-error")
    expect(error).to_contain_text("3", timeout=20000)
    expect(error).to_contain_text("steps[1]")
    expect(error).to_contain_text("Nothing was imported")
    screenshot("07-import-error", full_page=True)
    assert (Problem.objects.count(), Solution.objects.count(), Step.objects.count()) == counts
