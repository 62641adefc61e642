"""An admin exports the demo project decontaminated against a benchmark file from the Export
tab: the benchmark's problem (planted in the project) is left out and the card counts it."""

import json

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Export, ExportStatus, Project
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO
from tests.e2e.test_export_journey import _submit_demo_labels, exports_worker  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_admin_exports_without_a_benchmark_s_problems(
    live_server,
    browser,
    exports_worker,  # noqa: F811
    settings,
    tmp_path,
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    ratings = _submit_demo_labels(project, "annotator")
    planted = project.solutions.filter(pk__in=ratings).select_related("problem").first().problem
    settings.BENCHMARK_DIR = str(tmp_path)
    reworded = "  " + planted.text.upper() + "  "
    (tmp_path / "bench.jsonl").write_text(json.dumps({"problem": reworded}) + "\n")

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_role("tab", name="Export").click()
    expect(page.get_by_test_id("export-form")).to_be_visible()
    page.get_by_test_id("export-label-source").select_option("human")
    page.get_by_test_id("export-decontaminate").fill("bench.jsonl")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("export-decontaminate").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "14-export-decontaminate.png"))
    page.get_by_test_id("export-create").click()
    progress = page.get_by_test_id("export-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60_000)

    export = Export.objects.get(project=project)
    assert export.status == ExportStatus.DONE
    assert export.filters["decontaminate"] == [{"file": "bench.jsonl"}]
    assert export.stats["decontaminated"]["bench.jsonl"]["problems"] == 1
    page.get_by_test_id("export-row").first.get_by_test_id("export-card").click()
    dialog = page.get_by_test_id("export-card-dialog")
    expect(dialog.locator(".export-card-md")).to_contain_text("Decontamination")
    dialog.get_by_text("Decontamination").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "15-export-card-decontaminated.png"))
