"""An admin pushes a done export to a Hub dataset repo from the Export tab (a local Hub
stand-in), and imports it back into another project from the Import tab."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Project, ProjectMembership, Solution
from labeling.services.exports import export_build, export_create
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO
from tests.e2e.test_export_journey import _submit_demo_labels, exports_worker  # noqa: F401
from tests.exports.test_hub import hub  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_admin_pushes_an_export_to_the_hub_and_imports_it_back(
    live_server,
    browser,
    hub,  # noqa: F811
    exports_worker,  # noqa: F811
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    _submit_demo_labels(project, "annotator")
    export = export_build(
        export=export_create(
            project=project,
            created_by=None,
            format="processbench",
            filters={"label_source": "human"},
        )
    )
    assert export.status == "done", export.error

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=export")
    row = page.get_by_test_id("export-row").first
    row.get_by_test_id("export-hub").click()
    dialog = page.get_by_test_id("hub-push-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_test_id("hub-repo-id").fill("team/demo-labels")
    expect(dialog.get_by_test_id("hub-private")).to_be_checked()
    dialog.get_by_test_id("hub-push-submit").click()
    link = dialog.get_by_test_id("hub-push-link")
    expect(link).to_have_text(f"export-{export.pk}", timeout=60_000)
    page.screenshot(path=str(SCREENSHOTS / "60-hub-push.png"))
    files = hub.files("team/demo-labels")
    assert "README.md" in files and any(p.startswith("data/train-") for p in files)
    assert hub.repos["team/demo-labels"].private
    page.keyboard.press("Escape")

    target = Project.objects.create(name="From the Hub")
    admin = get_user_model().objects.get(username="admin")
    ProjectMembership.objects.create(project=target, user=admin, role="admin")
    page.goto(f"{live_server.url}/projects/{target.pk}?tab=import")
    page.get_by_test_id("import-from-hub").click()
    page.get_by_test_id("import-hub-repo").fill("team/demo-labels")
    page.get_by_test_id("import-hub-revision").fill(f"export-{export.pk}")
    page.screenshot(path=str(SCREENSHOTS / "61-hub-import-form.png"))
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_text("Import finished")).to_be_visible(timeout=60_000)
    page.screenshot(path=str(SCREENSHOTS / "62-hub-import-done.png"))
    train = export.stats["split_rows"]["train"]
    assert Solution.objects.filter(problem__project=target).count() == train
