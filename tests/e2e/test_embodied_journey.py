"""The robotics demo project in real Chromium: the subgoal checker from the Auto-label tab, an
episode's timeline with its frames and signals, labels submitted by keyboard, and the
dense_rewards export of those labels downloaded from the Export tab."""

import json

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from autolabel.models import AutolabelRun, RunStatus
from labeling.management.commands.load_demo import EMBODIED_PROJECT
from labeling.models import Annotation, AnnotationStatus, Export, ExportStatus, Project, Suggestion
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# ep-mug-drawer-2, the first episode served: plan, move, failed grasp, slip, grasp, subgoal,
# failed place, observation, failed final subgoal.
RATINGS = [-1, 1, -1, 1, 1, 1, -1, 1, -1]


@pytest.fixture
def worker(transactional_db):
    """A real Celery worker thread on the `default` and `exports` queues."""
    from celery.contrib.testing.worker import start_worker

    from annotate.celery import app
    from annotate.queues import Queue

    with start_worker(
        app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        shutdown_timeout=10,
        queues=[Queue.DEFAULT.value, Queue.AUTOLABEL.value, Queue.EXPORTS.value],
    ) as started:
        yield started


def _shot(name: str) -> str:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return str(SCREENSHOTS / f"{name}.png")


def test_robotics_episode_checked_labeled_and_exported_as_dense_rewards(
    live_server, browser, worker
):
    call_command("load_demo")
    project = Project.objects.get(name=EMBODIED_PROJECT)

    admin = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    login(admin, live_server.url, "admin", "steplab-admin")
    card = admin.get_by_test_id("project-card").filter(has_text=EMBODIED_PROJECT)
    expect(card.get_by_test_id("project-domain")).to_have_text("Robotics / embodied")
    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Auto-label").click()
    expect(admin.get_by_test_id("autolabel-source-subgoal")).to_be_visible()
    expect(admin.get_by_test_id("autolabel-source-symbolic")).to_have_count(0)
    admin.get_by_test_id("autolabel-source-subgoal").check()
    admin.get_by_test_id("autolabel-start").click()
    progress = admin.get_by_test_id("autolabel-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60000)
    admin.screenshot(path=_shot("embodied-01-autolabel"), full_page=True)
    assert AutolabelRun.objects.get(project=project).status == RunStatus.DONE
    found = Suggestion.objects.filter(step__solution__external_id="ep-mug-drawer-2")
    assert sorted(found.filter(value=-1).values_list("step__index", flat=True)) == [2, 6, 8]
    assert sorted(
        found.filter(value=None, evidence__kind="checks out").values_list("step__index", flat=True)
    ) == [1, 4, 5]

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(page, live_server.url, "annotator", "steplab-annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(9)
    summary = page.get_by_test_id("episode-summary")
    expect(summary.get_by_test_id("episode-outcome")).to_have_text("task failed")
    expect(summary.get_by_test_id("episode-goal")).to_contain_text("in(mug, drawer)")
    expect(page.get_by_test_id("image-strip").first).to_be_visible()  # the episode's start frame
    grasp = rows.nth(2)
    expect(grasp.get_by_test_id("emb-kind")).to_have_text("Action")
    expect(grasp.get_by_test_id("emb-signal")).to_have_attribute("data-success", "false")
    expect(grasp.get_by_test_id("emb-time")).to_have_text("t = 7.4 s")
    expect(grasp.get_by_test_id("emb-preconditions")).to_contain_text("hand_empty")
    expect(grasp.locator('[data-testid="suggestion-chip"][data-source="subgoal"]')).to_have_count(1)
    expect(grasp.get_by_test_id("checker-note")).to_contain_text("marks this action as failed")
    expect(rows.nth(1).get_by_test_id("evidence-chip")).to_have_attribute("data-kind", "checks out")
    expect(rows.nth(1).get_by_test_id("evidence-chip")).to_contain_text("log checks out")
    expect(rows.nth(3).get_by_test_id("emb-kind")).to_have_text("Observation")
    expect(rows.nth(8).get_by_test_id("emb-kind")).to_have_text("Subgoal")
    page.screenshot(path=_shot("embodied-02-timeline"), full_page=True)
    grasp.get_by_test_id("image-thumb").click()
    expect(page.get_by_test_id("image-zoom")).to_be_visible()
    page.screenshot(path=_shot("embodied-03-frame-zoom"))
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("image-zoom")).to_have_count(0)

    keys = {-1: "1", 0: "2", 1: "3"}
    rows.nth(0).click()
    for rating in RATINGS:
        page.keyboard.press(keys[rating])
    expect(page.get_by_text("9/9 rated")).to_be_visible()
    page.keyboard.press("Enter")
    done = wait_for(
        lambda: Annotation.objects.filter(
            solution__external_id="ep-mug-drawer-2", status=AnnotationStatus.SUBMITTED
        ).first()
    )
    assert list(done.labels.order_by("step__index").values_list("rating", flat=True)) == RATINGS

    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{done.solution_id}")
    expect(admin.get_by_test_id("embodied-step")).to_have_count(9)
    admin.screenshot(path=_shot("embodied-04-review"), full_page=True)

    # A real ALFWorld log on the same timeline: thoughts as plans, the game's answers as
    # observations, the command the game refused marked failed.
    alfworld = project.solutions.get(external_id="react_puttwo_2")
    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{alfworld.pk}")
    steps = admin.get_by_test_id("embodied-step")
    expect(steps).to_have_count(55)
    expect(steps.nth(0).get_by_test_id("emb-kind")).to_have_text("Plan")
    refused = admin.locator('[data-testid="embodied-step"]:has([data-success="false"])')
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("go to cabinet 2")
    expect(steps.nth(2)).to_contain_text("go to drawer 1")
    expect(steps.nth(3).get_by_test_id("emb-effects")).to_contain_text("not open(drawer 1)")
    admin.screenshot(path=_shot("embodied-06-alfworld"), full_page=False)

    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Export").click()
    admin.get_by_test_id("export-format").select_option("dense_rewards")
    expect(admin.get_by_test_id("export-truncate")).to_be_disabled()  # every step is kept
    admin.get_by_test_id("export-label-source").select_option("human")
    admin.get_by_test_id("export-create").click()
    expect(admin.get_by_test_id("export-progress")).to_have_attribute(
        "data-status", "done", timeout=60_000
    )
    admin.screenshot(path=_shot("embodied-05-export"), full_page=True)
    export = Export.objects.get(project=project)
    assert export.status == ExportStatus.DONE and export.format == "dense_rewards"
    with admin.expect_download() as info:
        admin.get_by_test_id("export-row").first.get_by_test_id("export-download").click()
    [episode] = [json.loads(line) for line in info.value.path().read_bytes().splitlines()]
    assert episode["episode_id"] == "ep-mug-drawer-2" and episode["success"] is False
    assert [s["reward"] for s in episode["steps"]] == [float(r) for r in RATINGS]
    assert [s["done"] for s in episode["steps"]] == [False] * 8 + [True]
    assert episode["steps"][2]["success"] is False and episode["steps"][2]["images"]
