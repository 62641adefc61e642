"""The graph reasoning demo in real Chromium: the checker runs, the annotator sees the drawn
graph and the checker's chips beside the steps, labels and submits; the reviewer sees the
same drawing."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from autolabel.models import AutolabelRun, RunStatus
from labeling.management.commands.load_demo import GRAPH_PROJECT
from labeling.models import Annotation, AnnotationStatus, Project, Solution, Suggestion
from tests.e2e.helpers import login, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_graph_project_checks_draws_and_labels_a_solution(live_server, browser, celery_worker_live):
    call_command("load_demo")
    project = Project.objects.get(name=GRAPH_PROJECT)

    admin = browser.new_page(viewport={"width": 1400, "height": 900})
    login(admin, live_server.url, "admin", "steplab-admin")
    card = admin.get_by_test_id("project-card").filter(has_text=GRAPH_PROJECT)
    expect(card.get_by_test_id("project-domain")).to_have_text("Graph reasoning")
    admin.goto(f"{live_server.url}/projects/{project.pk}")
    admin.get_by_role("tab", name="Auto-label").click()
    # The graph checker is offered for a graph project; the math checks are not.
    expect(admin.get_by_test_id("autolabel-source-graph")).to_be_visible()
    expect(admin.get_by_test_id("autolabel-source-symbolic")).to_have_count(0)
    admin.get_by_test_id("autolabel-source-graph").check()
    admin.get_by_test_id("autolabel-start").click()
    progress = admin.get_by_test_id("autolabel-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60000)
    admin.screenshot(path=str(_shot("graph-01-autolabel")), full_page=True)
    assert AutolabelRun.objects.get(project=project).status == RunStatus.DONE
    assert Suggestion.objects.filter(step__solution__project=project, source="graph").count() == 30

    annotator = browser.new_page(viewport={"width": 1400, "height": 1100})
    login(annotator, live_server.url, "annotator", "steplab-annotator")
    annotator.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = annotator.get_by_test_id("step-row")
    expect(rows).to_have_count(6)  # graph-dijkstra-2, the first solution served
    figure = annotator.get_by_test_id("graph-figure")
    expect(figure).to_have_attribute("data-drawn", "true")
    expect(figure.get_by_test_id("graph-node")).to_have_count(5)
    expect(figure.get_by_test_id("graph-edge")).to_have_count(7)
    expect(figure.get_by_test_id("graph-task")).to_have_text("Shortest path from S to T")
    expect(figure.locator('[data-node="S"]')).to_have_attribute("data-role", "source")
    expect(figure.locator('[data-node="T"]')).to_have_attribute("data-role", "target")
    expect(figure.locator("marker")).to_have_count(1)  # directed: arrows
    expect(figure.locator(".graph-weight")).to_have_count(7)
    # The drawing really has room: the SVG is laid out at a readable size.
    box = figure.locator("svg").bounding_box()
    assert box is not None and box["width"] > 400 and box["height"] > 200
    # The checker's −1 on the wrong edge weight, with the true value; evidence on a true step.
    wrong = rows.nth(2)
    chip = wrong.locator('[data-testid="suggestion-chip"][data-source="graph"]')
    expect(chip).to_have_attribute("data-value", "-1")
    expect(wrong.get_by_test_id("symbolic-refuted")).to_contain_text("2≠4")
    expect(wrong.get_by_test_id("symbolic-refuted")).to_contain_text("weight of A->C")
    checked = rows.nth(1).locator('[data-testid="evidence-chip"][data-source="graph"]')
    expect(checked).to_contain_text("claims check out")
    expect(rows.nth(5).locator('[data-source="graph"]')).to_have_count(0)  # no claim read
    annotator.screenshot(path=str(_shot("graph-02-label")), full_page=True)
    checked.click()
    expect(annotator.get_by_test_id("evidence-items")).to_contain_text("dist(S, A) = 2")
    annotator.screenshot(path=str(_shot("graph-03-evidence")))
    checked.click()

    annotator.get_by_test_id("step-row").nth(0).click()
    for key in ["3", "3", "1", "1", "1", "1"]:
        annotator.keyboard.press(key)
    annotator.keyboard.press("Enter")
    done = wait_for(
        lambda: Annotation.objects.filter(
            solution__external_id="graph-dijkstra-2", status=AnnotationStatus.SUBMITTED
        ).first()
    )
    ratings = list(done.labels.order_by("step__index").values_list("rating", flat=True))
    assert ratings == [1, 1, -1, -1, -1, -1]
    # The next solution is another graph problem, drawn too.
    expect(annotator.get_by_test_id("graph-figure")).to_be_visible()

    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{done.solution_id}")
    review_figure = admin.get_by_test_id("graph-figure")
    expect(review_figure.get_by_test_id("graph-node")).to_have_count(5)
    expect(review_figure.get_by_test_id("graph-task")).to_have_text("Shortest path from S to T")
    admin.screenshot(path=str(_shot("graph-04-review")), full_page=True)

    # A GraphSilo row: the graph read from its prose is drawn; the traversal's error says why.
    silo = Solution.objects.get(external_id="graphsilo-style-connectivity-1")
    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{silo.pk}")
    silo_figure = admin.get_by_test_id("graph-figure")
    expect(silo_figure.get_by_test_id("graph-node")).to_have_count(6)
    expect(silo_figure.get_by_test_id("graph-task")).to_have_text(
        "Connectivity: is there a path from 4 to 1?"
    )
    expect(admin.get_by_test_id("refuted-reason")).to_have_text("· 2 is not reachable from 4")
    admin.screenshot(path=str(_shot("graph-05-graphsilo-review")), full_page=True)


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
