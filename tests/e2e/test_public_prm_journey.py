"""An admin registers a public PRM (a tiny Qwen2.5-Math-PRM-shaped model) and pre-fills the
demo project's suggestions with it from the Auto-label tab, read by Qwen's convention."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Project, Suggestion
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO
from tests.e2e.test_training_journey import _shot, gpu_worker  # noqa: F401 - a fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tiny_qwen_prm(tmp_path_factory):
    pytest.importorskip("torch")
    from tests.training.public_tiny import build_qwen_prm

    return build_qwen_prm(tmp_path_factory.mktemp("qwen-prm"))[0]


def test_admin_labels_with_a_public_prm_read_by_its_convention(
    live_server,
    browser,
    gpu_worker,  # noqa: F811 - the fixture imported above
    tiny_qwen_prm,
):
    from training_runs.services import prm_model_register

    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    model = prm_model_register(project=project, name="qwen-math-prm", path=str(tiny_qwen_prm))

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_role("tab", name="Auto-label").click()
    page.get_by_test_id("autolabel-source-prm").check()
    expect(page.get_by_test_id("autolabel-prm-model")).to_have_value(str(model.pk))
    page.get_by_test_id("autolabel-prm-convention").select_option("qwen")
    page.screenshot(path=str(_shot("public-prm-01-form")), full_page=True)
    page.get_by_test_id("autolabel-start").click()
    run = page.get_by_test_id("autolabel-progress")
    expect(run).to_have_attribute("data-status", "done", timeout=120_000)
    page.screenshot(path=str(_shot("public-prm-02-done")), full_page=True)

    prm = Suggestion.objects.filter(step__solution__project=project, source="prm")
    assert prm.count() > 0
    assert set(prm.values_list("agent", flat=True)) == {"prm:qwen:qwen-math-prm"}
    assert set(prm.values_list("value", flat=True)) <= {-1, 1}
