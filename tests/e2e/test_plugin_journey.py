"""An installed engine plug-in in the browser: the admin finds it in the Auto-label tab, its
form (from the plug-in's schema) refuses a value out of bounds, the run writes suggestions
under the plug-in's name and the annotator sees them on the steps."""

import pytest
from playwright.sync_api import expect

from autolabel.models import AutolabelRun, RunStatus
from labeling.models import Suggestion
from tests.autolabel_plugins.fake_install import installed  # noqa: F401 - the fixture
from tests.e2e.helpers import login
from tests.e2e.test_autolabel_journey import _shot
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STEPS = [
    "The train covers 120 km in 2 hours, so its speed is 120 / 2 = 60 km/h.",
    "I think the return trip is probably faster, maybe 80 km/h.",
    "So the round trip takes 2 + 1.5 = 3.5 hours.",
]


def test_admin_runs_a_plugin_from_its_form_and_the_annotator_sees_it(
    installed,  # noqa: F811
    live_server,
    browser,
    celery_worker_live,
):
    project = ProjectFactory(name="Trips", show_suggestions=True)
    admin = UserFactory(username="plugadmin")
    annotator = UserFactory(username="plugannotator")
    MembershipFactory(project=project, user=admin, role="admin")
    MembershipFactory(project=project, user=annotator, role="annotator")
    SolutionFactory(problem__project=project, steps=STEPS)

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    login(page, live_server.url, "plugadmin", "pw-for-tests")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_role("tab", name="Auto-label").click()
    option = page.get_by_test_id("autolabel-plugin-hedges")
    expect(option).to_contain_text("Hedging language")
    expect(option).to_contain_text("steplab-plugin-example 0.1.0")
    page.get_by_test_id("autolabel-source-hedges").check()
    page.get_by_test_id("autolabel-params-toggle-hedges").click()
    hits = page.get_by_test_id("plugin-param-hedges-min_hits")
    expect(hits).to_have_attribute("max", "20")
    hits.fill("0")
    expect(page.get_by_test_id("autolabel-plugin-problem")).to_have_text(
        "Hedges needed: from 1 to 20."
    )
    expect(page.get_by_test_id("autolabel-start")).to_be_disabled()
    page.get_by_test_id("autolabel-form").screenshot(path=str(_shot("plugin-form-refuses")))
    hits.fill("2")
    page.get_by_test_id("plugin-param-hedges-verdict").select_option("neutral")
    page.get_by_test_id("autolabel-start").click()
    progress = page.get_by_test_id("autolabel-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60000)
    page.screenshot(path=str(_shot("plugin-run-done")), full_page=True)

    run = AutolabelRun.objects.get(project=project)
    assert run.status == RunStatus.DONE and run.params == {
        "hedges": {"min_hits": 2, "verdict": "neutral"}
    }
    rows = Suggestion.objects.filter(step__solution__project=project)
    assert list(rows.values_list("source", "step__index", "value")) == [("hedges", 1, 0)]

    labeler = browser.new_page(viewport={"width": 1400, "height": 900})
    login(labeler, live_server.url, "plugannotator", "pw-for-tests")
    labeler.goto(f"{live_server.url}/projects/{project.pk}/label")
    expect(labeler.get_by_test_id("step-row")).to_have_count(3)
    chip = labeler.locator('[data-testid="suggestion-chip"][data-source="hedges"]')
    expect(chip).to_have_count(1)
    labeler.screenshot(path=str(_shot("plugin-suggestion-for-annotator")), full_page=False)
