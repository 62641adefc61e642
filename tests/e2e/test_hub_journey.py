"""An admin saves their own Hugging Face token (user menu), pushes a done export to a Hub dataset
repo from the Export tab with it (a local Hub stand-in that checks the token), and imports it
back into another project from the Import tab."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Project, ProjectMembership, Solution
from labeling.services.exports.snapshots import export_build, export_create
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

    mine = "hf_adminADMINadmin5678"
    hub.users[mine] = "admin-on-the-hub"
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=export")
    # The export form lists every machine source the server has, the default ones ticked.
    page.get_by_test_id("export-label-source").select_option("auto_any")
    sources = page.get_by_test_id("export-auto-sources")
    expect(sources).to_contain_text("Code execution")
    expect(page.get_by_test_id("export-auto-source-code")).to_be_checked()
    expect(page.get_by_test_id("export-auto-source-citation")).not_to_be_checked()
    sources.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "64-export-auto-sources.png"))

    page.get_by_test_id("user-menu").click()
    page.get_by_test_id("hub-token").click()
    token_dialog = page.get_by_test_id("hub-token-dialog")
    expect(token_dialog.get_by_test_id("hub-token-status")).to_contain_text("None set")
    token_dialog.get_by_test_id("hub-token-input").fill(mine)
    token_dialog.get_by_test_id("hub-token-save").click()
    expect(token_dialog.get_by_test_id("hub-token-status")).to_contain_text("Set, ends in …5678")
    expect(token_dialog.get_by_test_id("hub-token-status")).to_contain_text("admin-on-the-hub")
    assert mine not in token_dialog.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "63-hub-token.png"))
    token_dialog.get_by_test_id("hub-token-close").click()

    row = page.get_by_test_id("export-row").first
    row.get_by_test_id("export-hub").click()
    dialog = page.get_by_test_id("hub-push-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("hub-token-note")).to_contain_text(
        "The push runs with your Hugging Face token (…5678)."
    )
    dialog.get_by_test_id("hub-repo-id").fill("team/demo-labels")
    expect(dialog.get_by_test_id("hub-private")).to_be_checked()
    dialog.get_by_test_id("hub-push-submit").click()
    link = dialog.get_by_test_id("hub-push-link")
    expect(link).to_have_text(f"export-{export.pk}", timeout=60_000)
    expect(dialog.get_by_test_id("hub-push")).to_contain_text("with the pusher's own token")
    page.screenshot(path=str(SCREENSHOTS / "60-hub-push.png"))
    files = hub.files("team/demo-labels")
    assert "README.md" in files and any(p.startswith("data/train-") for p in files)
    assert hub.repos["team/demo-labels"].private
    assert hub.repos["team/demo-labels"].owner_token == mine  # pushed with the admin's token
    page.keyboard.press("Escape")

    target = Project.objects.create(name="From the Hub")
    admin = get_user_model().objects.get(username="admin")
    ProjectMembership.objects.create(project=target, user=admin, role="admin")
    page.goto(f"{live_server.url}/projects/{target.pk}?tab=import")
    page.get_by_test_id("import-from-hub").click()
    expect(page.get_by_test_id("hub-token-note")).to_contain_text("your Hugging Face token")
    page.get_by_test_id("import-hub-repo").fill("team/demo-labels")
    page.get_by_test_id("import-hub-revision").fill(f"export-{export.pk}")
    page.screenshot(path=str(SCREENSHOTS / "61-hub-import-form.png"))
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_text("Import finished")).to_be_visible(timeout=60_000)
    page.screenshot(path=str(SCREENSHOTS / "62-hub-import-done.png"))
    train = export.stats["split_rows"]["train"]
    assert Solution.objects.filter(problem__project=target).count() == train
