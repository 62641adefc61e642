"""The agent, multimodal and text demo projects in real Chromium: each domain's rendering."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from autolabel.models import AutolabelRun, RunStatus
from labeling.management.commands.load_demo import AGENT_PROJECT, MULTIMODAL_PROJECT, TEXT_PROJECT
from labeling.models import Annotation, AnnotationStatus, Project, Suggestion
from tests.e2e.helpers import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_agent_project_checks_and_labels_a_trajectory(live_server, browser, celery_worker_live):
    call_command("load_demo")
    project = Project.objects.get(name=AGENT_PROJECT)

    admin = browser.new_page(viewport={"width": 1400, "height": 900})
    login(admin, live_server.url, "admin", "steplab-admin")
    card = admin.get_by_test_id("project-card").filter(has_text=AGENT_PROJECT)
    expect(card.get_by_test_id("project-domain")).to_have_text("Agent trajectories")
    admin.screenshot(path=str(_shot("domains-01-projects")), full_page=True)

    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Auto-label").click()
    # Only the sources that apply to agent trajectories are offered.
    expect(admin.get_by_test_id("autolabel-source-agent")).to_be_visible()
    expect(admin.get_by_test_id("autolabel-source-judge")).to_be_visible()
    expect(admin.get_by_test_id("autolabel-source-symbolic")).to_have_count(0)
    expect(admin.get_by_test_id("autolabel-source-answer")).to_have_count(0)
    admin.get_by_test_id("autolabel-source-agent").check()
    admin.get_by_test_id("autolabel-start").click()
    progress = admin.get_by_test_id("autolabel-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60000)
    admin.screenshot(path=str(_shot("domains-02-agent-autolabel")), full_page=True)
    assert AutolabelRun.objects.get(project=project).status == RunStatus.DONE

    annotator = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(annotator, live_server.url, "annotator", "steplab-annotator")
    annotator.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = annotator.get_by_test_id("step-row")
    expect(rows).to_have_count(7)  # agent-tests-1: 3 calls, 3 observations, the answer
    # The timeline: a call card with its function and pretty-printed arguments.
    first = rows.nth(0)
    expect(first.get_by_test_id("tool-call-name")).to_have_text("run_shell")
    expect(first.get_by_test_id("tool-call-arguments")).to_have_text(
        '{\n  "command": "pytest tests/test_dates.py -x -q"\n}'
    )
    # The malformed call is marked, and the checker's −1 sits beside it.
    bad = rows.nth(2)
    expect(bad.get_by_test_id("bad-arguments")).to_be_visible()
    expect(bad.locator('[data-testid="suggestion-chip"][data-source="agent"]')).to_have_count(1)
    expect(rows.nth(1).get_by_test_id("observation")).to_be_visible()
    expect(rows.nth(6).get_by_test_id("agent-message")).to_contain_text("%d/%m/%Y")
    expect(annotator.get_by_test_id("problem-tools")).to_contain_text("run_shell")
    annotator.screenshot(path=str(_shot("domains-03-agent-timeline")), full_page=True)

    flagged = Suggestion.objects.filter(
        step__solution__external_id="agent-tests-1", source="agent"
    ).count()
    assert flagged == 3
    for key in ["3", "1", "1", "1", "3", "3", "3"]:
        annotator.keyboard.press(key)
    annotator.keyboard.press("Enter")
    expect(annotator.get_by_test_id("step-row").nth(0)).to_have_attribute("data-rating", "")
    done = Annotation.objects.get(
        solution__external_id="agent-tests-1", status=AnnotationStatus.SUBMITTED
    )
    ratings = list(done.labels.order_by("step__index").values_list("rating", flat=True))
    assert ratings == [1, -1, -1, -1, 1, 1, 1]

    # The reviewer sees the same timeline beside the annotator's ratings.
    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{done.solution_id}")
    review_rows = admin.get_by_test_id("tool-call")
    expect(review_rows).to_have_count(3)
    expect(review_rows.nth(1).get_by_test_id("bad-arguments")).to_be_visible()
    expect(admin.get_by_test_id("observation")).to_have_count(3)
    admin.screenshot(path=str(_shot("domains-07-agent-review")), full_page=True)


def test_multimodal_project_shows_images_that_zoom(live_server, page):
    call_command("load_demo")
    project = Project.objects.get(name=MULTIMODAL_PROJECT)
    login(page, live_server.url, "annotator", "steplab-annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    expect(page.get_by_test_id("step-row")).to_have_count(4)
    problem_image = page.get_by_role("img", name="Problem image 1")
    expect(problem_image).to_be_visible()
    # The browser really loaded it from the authenticated media view.
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 100", arg=problem_image.element_handle()
    )
    assert "/media/" in problem_image.get_attribute("src")
    page.screenshot(path=str(_shot("domains-04-multimodal")), full_page=True)
    page.get_by_role("button", name="Zoom Problem image 1").click()
    zoom = page.get_by_test_id("image-zoom")
    expect(zoom).to_be_visible()
    page.screenshot(path=str(_shot("domains-05-multimodal-zoom")))
    page.keyboard.press("Escape")
    expect(zoom).to_have_count(0)
    # Logged out, the same image is refused.
    src = problem_image.get_attribute("src")
    anonymous = page.context.browser.new_context().new_page()
    response = anonymous.request.get(f"{live_server.url}{src}")
    assert response.status in (401, 403)


def test_text_project_renders_plain_steps(live_server, page):
    call_command("load_demo")
    project = Project.objects.get(name=TEXT_PROJECT)
    login(page, live_server.url, "annotator", "steplab-annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(4)
    expect(rows.nth(2)).to_contain_text("1961 − 1628 = 333 years")
    expect(page.locator(".problem-text blockquote")).to_contain_text(
        "The Vasa was a Swedish warship"
    )
    expect(page.get_by_test_id("tool-call")).to_have_count(0)
    page.screenshot(path=str(_shot("domains-06-text")), full_page=True)


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
