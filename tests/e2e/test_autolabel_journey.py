"""An admin pre-fills the demo project from the UI; an annotator then sees the suggestions."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from autolabel.models import AutolabelRun, RunStatus
from labeling.models import Project, Suggestion
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_admin_runs_symbolic_and_answer_check_then_annotator_sees_suggestions(
    live_server, browser, celery_worker_live
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)

    admin = browser.new_page(viewport={"width": 1400, "height": 900})
    login(admin, live_server.url, "admin", "steplab-admin")
    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Auto-label").click()
    admin.get_by_test_id("autolabel-source-symbolic").check()
    admin.get_by_test_id("autolabel-source-answer").check()
    admin.get_by_test_id("autolabel-start").click()
    progress = admin.get_by_test_id("autolabel-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60000)
    expect(progress).to_contain_text("100")
    admin.screenshot(path=str(_shot("08-autolabel-done")), full_page=True)

    run = AutolabelRun.objects.get(project=project)
    assert run.status == RunStatus.DONE
    assert run.done == run.total == project.solutions.count()
    symbolic = Suggestion.objects.filter(step__solution__project=project, source="symbolic")
    assert symbolic.count() == run.suggestions_written > 0
    assert project.solutions.filter(answer_correct__isnull=False).exists()

    annotator = browser.new_page(viewport={"width": 1400, "height": 900})
    login(annotator, live_server.url, "annotator", "steplab-annotator")
    annotator.goto(f"{live_server.url}/projects/{project.pk}/label")
    expect(annotator.get_by_test_id("step-row")).to_have_count(5)
    first = project.solutions.order_by("id").first()
    # Refutations are rating chips; verified steps are evidence chips ("checks out").
    expected = symbolic.filter(step__solution=first).count()
    ratings = symbolic.filter(step__solution=first, value__isnull=False).count()
    chips = annotator.locator('[data-testid="suggestion-chip"][data-source="symbolic"]')
    evidence = annotator.locator('[data-testid="evidence-chip"][data-source="symbolic"]')
    expect(chips).to_have_count(ratings)
    expect(evidence).to_have_count(expected - ratings)
    assert expected > 0
    annotator.screenshot(path=str(_shot("09-suggestions-for-annotator")), full_page=False)


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
