"""An admin trains a PRM on the demo project's imported ProcessBench labels from the Training tab,
watches it finish with its curves, then pre-fills suggestions with it from the Auto-label tab."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import Project, Suggestion
from labeling.services.exports.snapshots import export_build, export_create
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO
from training_runs.models import PrmModel, TrainingRun

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tiny_base(tmp_path_factory):
    pytest.importorskip("torch")
    from tests.training.tiny import build_tiny_lm

    return build_tiny_lm(tmp_path_factory.mktemp("tiny-base"))


@pytest.fixture
def gpu_worker(transactional_db):
    """A real Celery worker thread on the `default` and `gpu` queues."""
    from celery.contrib.testing.worker import start_worker

    from annotate.celery import app
    from annotate.queues import Queue

    with start_worker(
        app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        shutdown_timeout=30,
        queues=[Queue.DEFAULT.value, Queue.AUTOLABEL.value, Queue.GPU.value],
    ) as worker:
        yield worker


def test_admin_trains_a_prm_then_labels_with_it(
    live_server, browser, gpu_worker, tiny_base, settings, tmp_path
):
    settings.TRAINING_ROOT = str(tmp_path / "training")
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    export = export_build(
        export=export_create(
            project=project,
            created_by=None,
            format="trl",
            filters={"label_source": "auto_any", "auto_sources": ["import"]},
        )
    )
    assert export.status == "done" and export.row_count > 0, export.error

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_role("tab", name="Training").click()
    expect(page.get_by_test_id("training-export")).to_have_value(str(export.pk))
    page.get_by_test_id("training-base-model").fill(str(tiny_base))
    page.get_by_test_id("training-maxSteps").fill("4")
    page.get_by_test_id("training-batchSize").fill("4")
    page.get_by_test_id("training-lr").fill("1e-3")
    page.get_by_test_id("training-logEvery").fill("1")
    page.get_by_test_id("training-start").click()
    progress = page.get_by_test_id("training-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=150_000)
    expect(page.get_by_test_id("training-steps")).to_have_text("step 4 / 4")
    curve = page.locator('[data-testid="metric-chart-loss"] path[data-series="train:loss"]')
    expect(curve).to_have_count(1)
    assert curve.get_attribute("d").count("L") == 3  # one point per logged step
    expect(page.get_by_test_id("prm-models")).to_contain_text(f"run-{TrainingRun.objects.get().pk}")
    page.screenshot(path=str(_shot("training-01-done")), full_page=True)

    model = PrmModel.objects.get(project=project)
    page.get_by_role("tab", name="Auto-label").click()
    page.get_by_test_id("autolabel-source-prm").check()
    expect(page.get_by_test_id("autolabel-prm-model")).to_have_value(str(model.pk))
    page.get_by_test_id("autolabel-start").click()
    run = page.get_by_test_id("autolabel-progress")
    expect(run).to_have_attribute("data-status", "done", timeout=120_000)
    page.screenshot(path=str(_shot("training-02-prm-autolabel-done")), full_page=True)

    prm = Suggestion.objects.filter(step__solution__project=project, source="prm")
    assert prm.count() > 0
    assert set(prm.values_list("agent", flat=True)) == {f"prm:{model.name}"}
    assert set(prm.values_list("value", flat=True)) <= {-1, 1}


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
