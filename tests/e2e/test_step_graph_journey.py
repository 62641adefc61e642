"""Step dependencies in real Chromium: a real ProcessBench solution imported with its
references detected; the annotator sees "uses" chips, hovers one (the step it names lights
up), marks a dependency with `d` then a step number, submits; the reviewer sees the mark and
adjudicates another step's dependencies the same way; the admin exports with
dependency_policy=inherit and the file carries `uses` and `inherited`."""

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from labeling.models import Export, ExportStatus, ResolutionLabel, Role, Step, StepLabel
from labeling.services.imports import import_file
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login, wait_for
from tests.factories import MembershipFactory, ProjectFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PROCESSBENCH = "/work/shared/data/processbench_sample.jsonl"


@pytest.fixture
def exports_worker(transactional_db):
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
    ) as worker:
        yield worker


def _shot(page, name: str, *, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"step-graph-{name}.png"), full_page=full_page)


@pytest.fixture
def graph_project(tmp_path):
    """One real solution (ProcessBench gsm8k-35, 5 steps), its references detected at import:
    [[], [0], [1], [0, 1, 2], [3]]."""
    with open(PROCESSBENCH, encoding="utf-8") as f:
        row = next(json.loads(line) for line in f if '"gsm8k-35"' in line)
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    project = ProjectFactory(name="Step graphs")
    import_file(project=project, path=path, fmt="processbench", labels_as="none")
    users = get_user_model().objects
    for name, role in (("annotator", Role.ANNOTATOR), ("admin", Role.ADMIN)):
        user = users.create_user(username=name, password=f"steplab-{name}")
        MembershipFactory(project=project, user=user, role=role)
    steps = Step.objects.filter(solution__project=project).order_by("index")
    assert [s.uses for s in steps] == [[], [0], [1], [0, 1, 2], [3]]
    return project


def test_mark_a_dependency_see_it_review_it_export_it(
    live_server, browser, graph_project, exports_worker
):
    project = graph_project
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    login(page, live_server.url, "annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(5)
    # Detected references as chips: step 4 adds the results of steps 1, 2 and 3.
    chips = rows.nth(3).get_by_test_id("uses-chip")
    expect(chips).to_have_text(["1", "2", "3"])
    expect(rows.nth(0).get_by_test_id("uses-chips")).to_have_count(0)
    # Hovering "2" lights up step 2 only.
    chips.nth(1).hover()
    expect(rows.nth(1)).to_contain_class("is-uses-highlight")
    expect(rows.nth(0)).not_to_contain_class("is-uses-highlight")
    _shot(page, "01-chips-hover", full_page=False)
    page.mouse.move(5, 5)
    expect(rows.nth(1)).not_to_contain_class("is-uses-highlight")

    # Rate, with step 2 marked wrong (a choice of this test, so that errors have a path to
    # travel in the export; the step itself is right).
    for key in ["3", "1", "3", "3", "3"]:
        page.keyboard.press(key)
    expect(rows.nth(4)).to_have_attribute("data-rating", "1")
    # Step 3 (Andrea's bananas) also rests on step 1: d, then 1.
    rows.nth(2).click()
    page.keyboard.press("d")
    expect(page.get_by_test_id("uses-prompt")).to_contain_text("Step 3 uses step")
    _shot(page, "02-d-prompt", full_page=False)
    page.keyboard.press("1")
    expect(page.get_by_test_id("uses-prompt")).to_have_count(0)
    expect(rows.nth(2).get_by_test_id("uses-chip")).to_have_text(["1", "2"])
    expect(rows.nth(2).get_by_test_id("uses-chips")).to_have_attribute("data-uses", "0,1")
    expect(rows.nth(2)).to_have_attribute("data-rating", "1")  # the digit did not rate it
    _shot(page, "03-marked")

    # The shortcuts overlay lists the key.
    page.keyboard.press("?")
    expect(page.get_by_text("This step uses step N")).to_be_visible()
    page.wait_for_timeout(400)  # the overlay fades in
    _shot(page, "04-shortcuts", full_page=False)
    page.keyboard.press("Escape")

    page.keyboard.press("Enter")
    expect(page.get_by_test_id("queue-empty")).to_be_visible()
    marked = wait_for(
        lambda: dict(
            StepLabel.objects.filter(
                annotation__solution__project=project, annotation__status="submitted"
            ).values_list("step__index", "uses")
        )
    )
    assert marked == {0: None, 1: None, 2: [0, 1], 3: None, 4: None}

    # The admin reviews: the step's own uses and the annotator's differing mark.
    admin = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    login(admin, live_server.url, "admin")
    solution = project.solutions.get()
    admin.goto(f"{live_server.url}/projects/{project.pk}/review/{solution.pk}")
    review_rows = admin.get_by_test_id("review-step")
    expect(review_rows).to_have_count(5)
    third = review_rows.nth(2).get_by_test_id("uses-chips")
    expect(third).to_have_count(3)
    expect(third.nth(0)).to_have_attribute("data-uses", "1")  # detected
    expect(third.nth(1)).to_have_attribute("data-uses", "0,1")  # marked by the annotator
    expect(third.nth(1)).to_contain_text("annotator · uses")
    # Every annotation agrees (there is one): the decision starts from their marks.
    expect(third.nth(2)).to_have_attribute("data-uses", "0,1")
    expect(third.nth(2)).to_contain_text("decision · uses")
    third.nth(1).get_by_test_id("uses-chip").nth(0).hover()
    expect(review_rows.nth(0)).to_contain_class("is-uses-highlight")
    _shot(admin, "05-review", full_page=False)

    # The admin adjudicates: step 4 rests on step 3 alone (d 1, d 2 take steps 1 and 2 off).
    admin.mouse.move(5, 5)
    review_rows.nth(3).click()
    expect(review_rows.nth(3)).to_have_attribute("data-current", "true")
    for number in ["1", "2"]:
        admin.keyboard.press("d")
        expect(admin.get_by_test_id("uses-prompt")).to_contain_text("Step 4 uses step")
        admin.keyboard.press(number)
    decided = review_rows.nth(3).get_by_test_id("uses-chips").last
    expect(decided).to_have_attribute("data-uses", "2")
    expect(decided).to_contain_text("decision · uses")
    expect(review_rows.nth(3)).to_have_attribute("data-decision", "1")  # digits did not decide
    _shot(admin, "05b-review-decided", full_page=False)
    admin.keyboard.press("Enter")
    expect(admin.get_by_test_id("review-done")).to_be_visible()
    resolved = wait_for(
        lambda: dict(
            ResolutionLabel.objects.filter(
                resolution__solution=solution, resolution__is_current=True
            ).values_list("step__index", "uses")
        )
    )
    # The annotator's mark on step 3 was the agreed one (the only annotation): kept.
    assert resolved == {0: None, 1: None, 2: [0, 1], 3: [2], 4: None}

    # Export with errors passed on along the dependencies.
    admin.goto(f"{live_server.url}/projects/{project.pk}?tab=export")
    expect(admin.get_by_test_id("export-form")).to_be_visible()
    admin.get_by_test_id("export-label-source").select_option("human")
    admin.get_by_test_id("export-truncate").uncheck()
    admin.get_by_test_id("export-dependency-policy").select_option("inherit")
    _shot(admin, "06-export-form")
    admin.get_by_test_id("export-create").click()
    expect(admin.get_by_test_id("export-progress")).to_have_attribute(
        "data-status", "done", timeout=60_000
    )
    export = Export.objects.get(project=project)
    assert export.status == ExportStatus.DONE
    assert export.label_policy["dependency_policy"] == "inherit"
    row = admin.get_by_test_id("export-row").first
    expect(row).to_contain_text("errors passed on")
    with admin.expect_download() as info:
        row.get_by_test_id("export-download").click()
    (line,) = info.value.path().read_bytes().decode().splitlines()
    exported = json.loads(line)
    assert exported["uses"] == [[], [0], [0, 1], [0, 1, 2], [3]]
    # Step 2 is wrong; 3 uses it (the mark), 4 uses it, 5 uses 4: all exported wrong.
    assert exported["labels"] == [True, False, False, False, False]
    assert exported["inherited"] == [False, False, True, True, True]
    row.scroll_into_view_if_needed()
    _shot(admin, "07-export-done", full_page=False)  # full page: the sticky header mid-page
