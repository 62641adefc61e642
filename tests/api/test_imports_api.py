"""Upload → ImportJob → a real Celery worker (in-process) → poll the job."""

import io
import json
import time

import pytest

from labeling.models import ImportStatus, Problem, Solution, Step

pytestmark = pytest.mark.django_db(transaction=True)


def _wait(client, job_id: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/api/imports/{job_id}/").json()
        if job["status"] in (ImportStatus.DONE, ImportStatus.FAILED):
            return job
        time.sleep(0.05)
    raise AssertionError(f"import {job_id} did not finish: {job}")


def _jsonl(rows: list) -> bytes:
    return "".join(
        json.dumps(r) + "\n" if not isinstance(r, str) else r + "\n" for r in rows
    ).encode()


@pytest.fixture
def admin_client(world, client_for):
    return client_for("admin")


def test_upload_is_imported_by_a_worker(world, admin_client, celery_worker_live):
    rows = [
        {"problem": f"What is {i}+{i}?", "answer": str(2 * i), "steps": [f"{i}+{i}", f"= {2 * i}"]}
        for i in range(5)
    ]
    before = Solution.objects.count()
    response = admin_client.post(
        f"/api/projects/{world['project'].pk}/imports/",
        {"file": io.BytesIO(_jsonl(rows)), "format": "steplab"},
        format="multipart",
    )
    assert response.status_code == 202
    job = _wait(admin_client, response.json()["id"])
    assert job["status"] == "done", job
    assert job["result"]["solutions_created"] == 5
    assert job["bytes_done"] == job["bytes_total"] > 0
    assert Solution.objects.count() == before + 5


def test_bad_line_fails_the_job_and_imports_nothing(world, admin_client, celery_worker_live):
    good = {"problem": "1+1?", "answer": "2", "steps": ["1+1=2"]}
    counts = (Problem.objects.count(), Solution.objects.count(), Step.objects.count())
    response = admin_client.post(
        f"/api/projects/{world['project'].pk}/imports/",
        {
            "file": io.BytesIO(_jsonl([good, good | {"problem": "2+2?"}, "{not json"])),
            "format": "steplab",
        },
        format="multipart",
    )
    job = _wait(admin_client, response.json()["id"])
    assert job["status"] == "failed"
    assert job["error"]["line"] == 3
    assert (Problem.objects.count(), Solution.objects.count(), Step.objects.count()) == counts


@pytest.mark.parametrize("detect", [True, False])
def test_the_upload_says_whether_step_references_are_detected(
    detect, world, admin_client, celery_worker_live
):
    """`detect_uses` (default on) reaches the worker's parse: off, a row without `uses` keeps
    none; a row that gives them keeps them either way."""
    rows = [
        {"problem": "Beans?", "answer": "50", "steps": ["2 x 75 = 150 beans", "So 150 / 3 = 50"]},
        {"problem": "Given?", "answer": "1", "steps": ["a = 1", "so a"], "uses": [[], [0]]},
    ]
    form = {"file": io.BytesIO(_jsonl(rows)), "format": "steplab"}
    if not detect:
        form["detect_uses"] = "false"
    response = admin_client.post(
        f"/api/projects/{world['project'].pk}/imports/", form, format="multipart"
    )
    assert response.status_code == 202 and response.json()["detect_uses"] is detect
    job = _wait(admin_client, response.json()["id"])
    assert job["status"] == "done", job
    beans = Step.objects.get(solution__problem__text="Beans?", index=1)
    given = Step.objects.get(solution__problem__text="Given?", index=1)
    assert (beans.uses, beans.uses_source) == (([0], "detected") if detect else ([], ""))
    assert given.uses == [0]
