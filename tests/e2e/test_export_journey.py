"""An admin exports the demo project's submitted labels as TRL JSONL from the Export tab.

The downloaded file is checked row by row against the labels the annotator submitted, and its
sha256 against the API's.
"""

import hashlib
import json

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Export,
    ExportStatus,
    Project,
    StepLabel,
    Suggestion,
)
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def exports_worker(transactional_db):
    """A real Celery worker thread on the `default` and `exports` queues (the build's route)."""
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


def _submit_demo_labels(project: Project, username: str) -> dict[int, list[int | None]]:
    """Submitted annotations by `username` on the ProcessBench solutions of the demo, rated as
    the dataset's own labels (the import suggestions) say; one step made neutral. Returns the
    ratings by solution id."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=username)
    ratings: dict[int, list[int | None]] = {}
    solutions = (
        project.solutions.filter(steps__suggestions__source="import").distinct().order_by("id")
    )
    for n, solution in enumerate(solutions):
        steps = list(solution.steps.order_by("index"))
        values = {
            s.step_id: s.value
            for s in Suggestion.objects.filter(step__solution=solution, source="import")
        }
        row = [values.get(step.id) for step in steps]
        if n == 0 and row and row[0] == 1:
            row[0] = 0  # a neutral step: exported as correct (neutral -> positive, the default)
        annotation = Annotation.objects.create(
            solution=solution,
            annotator=user,
            status=AnnotationStatus.SUBMITTED,
            finish_reason="solution",
            time_spent_ms=30_000,
            submitted_at=timezone.now(),
        )
        StepLabel.objects.bulk_create(
            StepLabel(annotation=annotation, step=step, rating=r)
            for step, r in zip(steps, row, strict=True)
            if r is not None
        )
        ratings[solution.pk] = row
    return ratings


def _expected_row(solution, ratings: list[int | None]) -> dict:
    """The TRL row the defaults give: the labeled prefix, cut after the first wrong step."""
    completions, labels = [], []
    for step, rating in zip(solution.steps.order_by("index"), ratings, strict=True):
        if rating is None:
            break
        completions.append(step.text)
        labels.append(rating >= 0)
        if rating < 0:
            break
    return {"prompt": solution.problem.text, "completions": completions, "labels": labels}


def test_admin_creates_a_trl_export_watches_it_build_and_downloads_it(
    live_server, browser, exports_worker
):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    ratings = _submit_demo_labels(project, "annotator")
    assert len(ratings) >= 10
    assert any(-1 in r for r in ratings.values()) and any(-1 not in r for r in ratings.values())

    page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}")
    page.get_by_role("tab", name="Export").click()
    form = page.get_by_test_id("export-form")
    expect(form).to_be_visible()
    expect(page.get_by_text("No exports yet.")).to_be_visible()
    # The defaults: TRL, JSONL, every annotation, cut after the first error, 90/5/5 split.
    expect(page.get_by_test_id("export-format")).to_have_value("trl")
    expect(page.get_by_test_id("export-file-type-jsonl")).to_have_attribute("aria-checked", "true")
    expect(page.get_by_test_id("export-truncate")).to_be_checked()
    page.get_by_test_id("export-label-source").select_option("human")
    page.get_by_test_id("export-label-sources").check()
    _full_page(page, "10-export-form")

    page.get_by_test_id("export-create").click()
    progress = page.get_by_test_id("export-progress")
    expect(progress).to_be_visible()
    expect(progress).to_have_attribute("data-status", "done", timeout=60_000)
    expect(progress).to_contain_text("100%")
    expect(progress.get_by_role("progressbar")).to_have_attribute("aria-valuenow", "100")

    export = Export.objects.get(project=project)
    assert export.status == ExportStatus.DONE
    assert export.created_by.username == "admin"
    assert export.filters["label_source"] == "human"
    assert export.label_policy["label_sources"] is True
    expect(page.get_by_test_id("export-done")).to_contain_text(
        f"Done · {export.row_count} rows · {export.step_count} steps"
    )
    row = page.get_by_test_id("export-row").first
    expect(row).to_have_attribute("data-status", "done")
    expect(row.get_by_test_id("export-sha")).to_have_attribute("data-sha", export.sha256)
    page.screenshot(path=str(_shot("11-export-done")), full_page=False)
    _full_page(page, "11-export-done-full")

    with page.expect_download() as info:
        row.get_by_test_id("export-download").click()
    download = info.value
    data = download.path().read_bytes()
    assert download.suggested_filename == export.file.name.rsplit("/", 1)[-1]
    assert download.suggested_filename.endswith(".jsonl")

    # The sha256 the API reports (detail and download header) is the file's.
    api = page.request.get(f"{live_server.url}/api/exports/{export.pk}/").json()
    assert api["status"] == "done"
    assert hashlib.sha256(data).hexdigest() == api["sha256"] == export.sha256
    assert len(data) == api["size_bytes"]
    head = page.request.get(f"{live_server.url}{api['download_url']}")
    assert head.headers["x-checksum-sha256"] == api["sha256"]
    assert head.body() == data

    # Every row is one annotated solution: the labeled prefix, cut after its first error.
    rows = [json.loads(line) for line in data.decode().splitlines()]
    assert len(rows) == api["row_count"] == len(ratings)
    assert sum(len(r["completions"]) for r in rows) == api["step_count"]
    expected = [
        _expected_row(s, ratings[s.pk])
        for s in project.solutions.filter(pk__in=ratings).select_related("problem")
    ]
    key = lambda r: (r["prompt"], r["completions"][0])  # noqa: E731
    got = sorted(({k: r[k] for k in ("prompt", "completions", "labels")} for r in rows), key=key)
    assert got == sorted(expected, key=key)
    for r in rows:
        assert set(r) >= {"prompt", "completions", "labels", "label_sources", "split"}
        assert all(isinstance(v, bool) for v in r["labels"])
        assert r["split"] in {"train", "validation", "test"}
        assert len(r["label_sources"]) == len(r["labels"])
    assert [False] in [r["labels"][-1:] for r in rows]  # some rows end at a wrong step

    # The dataset card, as Markdown, in a dialog.
    row.get_by_test_id("export-card").click()
    dialog = page.get_by_test_id("export-card-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".export-card-md")).to_contain_text(DEMO)
    expect(dialog.locator(".export-card-md")).to_contain_text(export.sha256)
    expect(dialog.get_by_test_id("export-card-meta")).to_contain_text("process-reward-model")
    page.screenshot(path=str(_shot("12-export-card")), full_page=False)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    # A reviewer sees the export too, but cannot delete it.
    reviewer = browser.new_page(viewport={"width": 1400, "height": 900})
    login(reviewer, live_server.url, "reviewer", "steplab-reviewer")
    reviewer.goto(f"{live_server.url}/projects/{project.pk}?tab=export")
    expect(reviewer.get_by_test_id("export-row")).to_have_count(1)
    expect(reviewer.get_by_test_id("export-download")).to_have_count(1)
    expect(reviewer.get_by_test_id("export-delete")).to_have_count(0)
    reviewer.close()

    # The admin deletes it: the row and the file go.
    name = export.file.name
    page.once("dialog", lambda d: d.accept())
    row.get_by_test_id("export-delete").click()
    expect(page.get_by_test_id("export-row")).to_have_count(0)
    assert not Export.objects.filter(pk=export.pk).exists()
    from django.core.files.storage import default_storage

    assert not default_storage.exists(name)


def test_the_default_export_holds_the_reviewers_label(live_server, browser, exports_worker):
    """Final labels are the default: a reviewer's adjudication, not the annotator's labels,
    reaches the file; the tab says where the labels come from before and after the export."""
    from labeling.services.review.actions import review_adjudicate

    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    ratings = _submit_demo_labels(project, "annotator")
    pk = next(pk for pk, r in ratings.items() if r and all(v is not None and v >= 0 for v in r))
    solution = project.solutions.select_related("problem").get(pk=pk)
    steps = list(solution.steps.order_by("index"))
    from django.contrib.auth import get_user_model

    review_adjudicate(  # the reviewer finds the first step wrong; the annotator rated it right
        solution=solution,
        reviewer=get_user_model().objects.get(username="reviewer"),
        labels=[{"step_id": s.pk, "rating": -1 if s.index == 0 else 1} for s in steps],
    )

    page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    login(page, live_server.url, "admin", "steplab-admin")
    page.goto(f"{live_server.url}/projects/{project.pk}?tab=export")
    expect(page.get_by_test_id("export-label-source")).to_have_value("final")
    expect(page.get_by_test_id("export-machine-labels")).not_to_be_checked()
    before = page.get_by_test_id("export-preview-counts")
    expect(before).to_be_visible()
    expect(before.get_by_test_id("export-preview-counts-review")).to_have_text(
        f"Review1{len(steps)}"
    )
    expect(before.get_by_test_id("export-preview-counts-single")).to_contain_text(
        f"Single annotator{len(ratings) - 1}"
    )
    before.scroll_into_view_if_needed()
    page.screenshot(path=str(_shot("13-export-final-preview")), full_page=False)

    page.get_by_test_id("export-label-sources").check()
    page.get_by_test_id("export-create").click()
    progress = page.get_by_test_id("export-progress")
    expect(progress).to_have_attribute("data-status", "done", timeout=60_000)
    after = progress.get_by_test_id("export-final-counts")
    expect(after.get_by_test_id("export-final-counts-review")).to_have_text(f"Review1{len(steps)}")
    progress.scroll_into_view_if_needed()
    page.screenshot(path=str(_shot("14-export-final-done")), full_page=False)

    export = Export.objects.get(project=project)
    assert export.filters["label_source"] == "final"
    assert export.stats["final_labels"]["solutions"]["review"] == 1
    with page.expect_download() as info:
        page.get_by_test_id("export-row").first.get_by_test_id("export-download").click()
    rows = [json.loads(line) for line in info.value.path().read_bytes().decode().splitlines()]
    assert len(rows) == len(ratings)
    reviewed = [r for r in rows if r["label_sources"][0] == "reviewed:reviewer"]
    assert len(reviewed) == 1
    assert reviewed[0]["prompt"] == solution.problem.text
    # The reviewer's -1 on the first step, where the annotator said correct: the row ends there.
    assert reviewed[0]["completions"] == [steps[0].text]
    assert reviewed[0]["labels"] == [False]
    assert all(set(r["label_sources"]) <= {"human"} for r in rows if r is not reviewed[0])


def _full_page(page, name: str) -> None:
    # From the top, so the sticky header is not painted mid-page.
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(_shot(name)), full_page=True)


def _shot(name: str):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
