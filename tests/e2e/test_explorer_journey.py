"""An admin's solutions explorer journey in real Chromium: on the project page's Solutions tab
the admin searches the problem text, filters to reviewed solutions (the filters stay in the URL
across a reload), opens one read-only with its math rendered and each step's labels, bulk-marks
it gold and sends another reviewed solution back to review; the database says both happened.
Screenshots of the table, the drawer and the bulk result.
"""

import pytest
from playwright.sync_api import expect

from labeling.models import Resolution, Solution
from labeling.services.review.resolutions import resolution_create
from tests.e2e.helpers import login
from tests.factories import ProjectFactory, SolutionFactory, SuggestionFactory
from tests.review.conftest import label, member

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STEPS = [
    "Move the constant: $x^2 = 9$.",
    "Take roots: $x = \\pm\\sqrt{9} = \\pm 3$.",
    "Keep the positive root: $\\boxed{3}$.",
]


def _reviewed(project, annotator, reviewer, text: str) -> Solution:
    solution = SolutionFactory(problem__project=project, problem__text=text, steps=STEPS)
    label(annotator, project, [1, 1, 1])
    steps = list(solution.steps.order_by("index").values_list("id", flat=True))
    resolution_create(
        solution=solution,
        ratings=dict.fromkeys(steps, 1),
        provenance="reviewer",
        resolved_by=reviewer,
    )
    return solution


def test_admin_searches_filters_opens_and_acts_in_bulk(live_server, page, screenshot):
    project = ProjectFactory(name="Explorer demo", overlap=1)
    admin = member(project, "boss", "admin")
    annotator = member(project, "ann")
    reviewer = member(project, "rev", "reviewer")
    first = _reviewed(
        project,
        annotator,
        reviewer,
        "Find the positive $x$ with $x^2 - 9 = 0$ and $\\sqrt{x} > 1$.",
    )
    SuggestionFactory(step=first.steps.get(index=1), source="symbolic", agent="sympy", value=1)
    second = _reviewed(project, annotator, reviewer, "Find $x$ when $\\frac{x}{3} = 1$.")
    for i in range(4):
        SolutionFactory(
            problem__project=project, problem__text=f"Compute $\\int_0^{i + 1} t\\,dt$."
        )
    base = live_server.url
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, base, admin.username, "pw-for-tests")

    page.goto(f"{base}/projects/{project.pk}")
    page.get_by_test_id("tab-solutions").click()
    rows = page.locator("[data-testid^=explorer-row-]")
    expect(rows).to_have_count(6)
    expect(page.get_by_test_id("explorer-count")).to_have_text("6 total")
    # The problem column renders its math (KaTeX), not raw LaTeX.
    expect(page.get_by_test_id(f"explorer-row-{first.pk}").locator(".katex").first).to_be_visible()
    screenshot("explorer_table")

    page.get_by_test_id("explorer-search").fill("positive")
    page.get_by_test_id("explorer-search").press("Enter")
    expect(rows).to_have_count(1)
    page.get_by_test_id("filters-clear").click()
    expect(rows).to_have_count(6)
    page.get_by_test_id("filter-state").select_option("reviewed")
    expect(rows).to_have_count(2)
    assert "state=reviewed" in page.url
    page.reload()
    expect(rows).to_have_count(2)
    expect(page.get_by_test_id("filter-state")).to_have_value("reviewed")

    page.get_by_test_id(f"explorer-row-{first.pk}").click()
    drawer = page.get_by_test_id("solution-drawer")
    step = drawer.get_by_test_id("drawer-step-1")
    expect(step).to_contain_text("ann")
    expect(step).to_contain_text("resolved")
    expect(step).to_contain_text("symbolic")
    expect(step.locator(".katex").first).to_be_visible()
    expect(drawer.locator(".explorer-problem .katex").first).to_be_visible()
    screenshot("explorer_drawer")
    drawer.get_by_test_id("drawer-close").click()
    expect(drawer).to_have_count(0)

    page.get_by_test_id(f"select-{first.pk}").check()
    expect(page.get_by_test_id("bulk-count")).to_have_text("1 selected")
    screenshot("explorer_selection")
    page.get_by_test_id("bulk-mark_gold").click()
    expect(page.get_by_test_id("bulk-result")).to_contain_text("1 of 1 marked gold")
    expect(page.get_by_test_id(f"explorer-row-{first.pk}")).to_contain_text("Gold")
    assert Solution.objects.get(pk=first.pk).is_gold

    page.get_by_test_id(f"select-{second.pk}").check()
    page.get_by_test_id("bulk-send_to_review").click()
    expect(page.get_by_test_id("bulk-result")).to_contain_text("1 of 1 sent to review")
    # Back in review, it is no longer "reviewed": the filtered table drops it.
    expect(rows).to_have_count(1)
    screenshot("explorer_bulk_result")
    assert not Resolution.objects.filter(solution=second, is_current=True).exists()
    assert Resolution.objects.filter(solution=first, is_current=True).exists()
