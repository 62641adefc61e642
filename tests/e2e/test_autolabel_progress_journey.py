"""An admin starts an auto-label run in the UI and plans with what it shows: the rate and
the time left while it runs, Pause (nothing moves), Resume, and the finished summary with the
verdicts written and the failures by message. A real worker runs the chunks; the engine is a
slow stand-in so that the run lasts long enough to watch."""

import re
import time

import pytest
from playwright.sync_api import expect

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.models import AutolabelRun, RunStatus
from autolabel.registry import ENGINES
from labeling.models import Suggestion
from tests.e2e.helpers import login
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SOLUTIONS = 80


class SlowSymbolic:
    """−1 on the first step, doubtful evidence on the second, 0.1 s a solution; fails on
    every tenth problem."""

    name, queue = "symbolic", "default"

    def __call__(self, solution, params):
        time.sleep(0.1)
        if solution.problem.endswith("0"):
            raise ValueError("no parse")
        result = EngineResult(source="symbolic", agent="slow")
        result.suggestions = [
            StepSuggestion(step_index=0, value=-1, evidence={"kind": "refuted"}),
            StepSuggestion(step_index=1, value=None, evidence={"kind": "doubtful"}),
        ]
        return result


def test_admin_watches_rate_and_time_left_pauses_resumes_and_reads_the_summary(
    live_server, browser, celery_worker_live, monkeypatch
):
    monkeypatch.setitem(ENGINES, "symbolic", SlowSymbolic())
    project = ProjectFactory(name="Progress journey")
    for i in range(SOLUTIONS):
        SolutionFactory(problem__project=project, problem__text=f"Problem {i:03d}")
    admin = UserFactory(username="planner")
    MembershipFactory(project=project, user=admin, role="admin")

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    login(page, live_server.url, "planner", "pw-for-tests")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=autolabel")
    page.get_by_test_id("autolabel-source-symbolic").check()
    page.get_by_test_id("autolabel-start").click()

    progress = page.get_by_test_id("autolabel-progress")
    rate = page.get_by_test_id("autolabel-rate")
    expect(rate).to_have_text(re.compile(r"solutions/s · about .+ left"), timeout=30000)
    expect(progress).to_have_attribute("data-status", "running")
    expect(progress).not_to_contain_text("Queued")
    page.screenshot(path=str(_shot("autolabel-progress-running")), full_page=True)

    page.get_by_test_id("autolabel-pause").click()
    expect(progress).to_have_attribute("data-status", "paused", timeout=10000)
    run = AutolabelRun.objects.get(project=project)
    time.sleep(2.5)  # a chunk under way stops within a second; none starts after
    run.refresh_from_db()
    settled = run.done + run.failed
    assert run.status == RunStatus.PAUSED and 0 < settled < SOLUTIONS
    time.sleep(1.5)
    run.refresh_from_db()
    assert run.done + run.failed == settled  # nothing moves while paused
    expect(page.get_by_test_id("autolabel-paused")).to_contain_text("wait for Resume")
    page.screenshot(path=str(_shot("autolabel-progress-paused")), full_page=True)

    page.get_by_test_id("autolabel-resume").click()
    expect(progress).to_have_attribute("data-status", "done", timeout=60000)
    run.refresh_from_db()
    failing = SOLUTIONS // 10
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, SOLUTIONS - failing, failing)
    assert run.suggestions_written == Suggestion.objects.count() == 2 * (SOLUTIONS - failing)
    expect(page.get_by_test_id("autolabel-done")).to_contain_text("solutions/s")
    verdicts = page.get_by_test_id("autolabel-verdicts")
    expect(verdicts).to_contain_text(f"{SOLUTIONS - failing} −1")
    expect(verdicts).to_contain_text(f"{SOLUTIONS - failing} doubtful")
    errors = page.get_by_test_id("autolabel-errors")
    expect(errors).to_contain_text(f"{failing} solutions could not be labeled")
    expect(page.get_by_test_id("autolabel-error-group")).to_have_count(1)
    expect(page.get_by_test_id("autolabel-error-group")).to_contain_text(
        f"{failing}×ValueError: no parse"
    )
    page.screenshot(path=str(_shot("autolabel-progress-done")), full_page=True)


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
