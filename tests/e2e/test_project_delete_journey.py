"""An admin deletes a project from its settings while an annotator labels in it: the admin
lands on the projects list without it, the annotator's page says the project was deleted."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Project
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO = "Demo: step labeling"


def test_admin_deletes_a_project_while_an_annotator_labels_in_it(
    live_server, page, browser, screenshot
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)

    annotator = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    login(annotator, live_server.url, "annotator")
    annotator.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = annotator.get_by_test_id("step-row")
    expect(rows.first).to_be_visible()

    login(page, live_server.url, "admin")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_test_id("tab-settings").click()
    page.get_by_test_id("project-delete-open").click()
    page.get_by_test_id("project-delete-name").fill(DEMO)
    screenshot("project-delete-confirm")
    page.get_by_test_id("project-delete-confirm").click()
    page.wait_for_url(f"{live_server.url}/projects")
    wait_for(lambda: Project.objects.filter(pk=project.pk, deleted_at__isnull=False).exists())
    expect(page.get_by_text(DEMO)).to_have_count(0)

    annotator.keyboard.press("1")  # a rating: the draft save meets the deleted project
    save_state = annotator.get_by_test_id("save-state")
    expect(save_state).to_contain_text("This project was deleted", timeout=10_000)
    annotator.screenshot(path=str(SCREENSHOTS / "project-deleted-annotator.png"))
