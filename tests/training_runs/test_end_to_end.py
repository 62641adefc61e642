"""End to end on real Celery workers (default + gpu queues), on the CPU:

labeled project -> TRL export -> TrainingRun (the trainer as a subprocess of the worker) ->
registered PrmModel -> auto-label run with source `prm` -> suggestions on unlabeled solutions.
"""

import time
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from labeling.models import Solution, Suggestion
from training_runs.models import PrmModel, TrainingRun

from .conftest import FAST_CONFIG

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _wait(client, url: str, *, until, timeout: float = 150.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(url).json()
        if until(body) or time.monotonic() > deadline:
            return body
        time.sleep(0.2)


def _trainer_pids(config_path: Path) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text().split()[2]
        except OSError:
            continue
        if str(config_path) in cmdline and "training.train" in cmdline and state != "Z":
            pids.append(int(proc.name))
    return pids


def test_train_register_and_label_with_the_prm(train_project, trl_export, base_model, gpu_worker):
    started = time.monotonic()
    admin = _client(train_project.admin)
    response = admin.post(
        f"/api/projects/{train_project.pk}/training-runs/",
        {"export": trl_export.pk, "base_model": str(base_model), "config": FAST_CONFIG},
        format="json",
    )
    assert response.status_code == 202, response.content
    run = _wait(
        admin,
        f"/api/training-runs/{response.json()['id']}/",
        until=lambda r: r["status"] in TrainingRun.FINISHED,
    )
    assert run["status"] == "done", (run["error"], run["log_tail"][-2000:])
    assert (run["step"], run["total_steps"], run["progress"]) == (3, 3, 1.0)
    assert [r["step"] for r in run["history"] if r["split"] == "train"] == [1, 2, 3]
    assert {"loss", "accuracy", "f1"} <= set(run["metrics"]["train"])
    assert "training:" in run["log_tail"]

    models = admin.get(f"/api/projects/{train_project.pk}/prm-models/").json()["results"]
    assert [(m["id"], m["training_run"]) for m in models] == [(run["prm_model"], run["id"])]
    model = PrmModel.objects.get(pk=models[0]["id"])
    assert Path(model.path, "config.json").is_file()

    unlabeled = list(
        train_project.solutions.filter(annotations__isnull=True)
        .order_by("id")
        .values_list("pk", flat=True)
    )
    assert len(unlabeled) == 6
    response = admin.post(
        f"/api/projects/{train_project.pk}/autolabel-runs/",
        {
            "sources": ["prm"],
            "params": {"prm": {"model_id": model.pk, "threshold": 0.5}},
            "filter": {"solution_ids": unlabeled},
        },
        format="json",
    )
    assert response.status_code == 202, response.content
    labeled = _wait(
        admin,
        f"/api/autolabel-runs/{response.json()['id']}/",
        until=lambda r: r["status"] in ("done", "failed", "cancelled"),
        timeout=120,
    )
    assert (labeled["status"], labeled["done"], labeled["failed"]) == ("done", 6, 0), labeled

    from training.score import PRMScorer

    scorer = PRMScorer(model.path)
    for solution in Solution.objects.filter(pk__in=unlabeled).select_related("problem"):
        steps = list(solution.steps.order_by("index"))
        expected = scorer.score(solution.problem.text, [[s.text for s in steps]])[0]
        rows = list(
            Suggestion.objects.filter(step__solution=solution, source="prm").order_by("step__index")
        )
        assert [r.step_id for r in rows] == [s.pk for s in steps]
        assert [r.score for r in rows] == pytest.approx(expected, abs=1e-4)
        assert [r.value for r in rows] == [1 if p >= 0.5 else -1 for p in expected]
        assert {r.agent for r in rows} == {f"prm:{model.name}"}
        assert solution.metadata["prm"]["min_probability"] == pytest.approx(min(expected), abs=1e-4)
    # Labeled solutions were not touched.
    assert (
        not Suggestion.objects.filter(source="prm").exclude(step__solution__in=unlabeled).exists()
    )
    print(f"end to end: {time.monotonic() - started:.1f} s")


def test_cancel_kills_the_trainer(train_project, trl_export, base_model, gpu_worker, training_root):
    admin = _client(train_project.admin)
    config = {**FAST_CONFIG, "max_steps": 100000}
    response = admin.post(
        f"/api/projects/{train_project.pk}/training-runs/",
        {"export": trl_export.pk, "base_model": str(base_model), "config": config},
        format="json",
    )
    run_id = response.json()["id"]
    url = f"/api/training-runs/{run_id}/"
    run = _wait(
        admin, url, until=lambda r: r["step"] >= 1 or r["status"] != "pending" and r["error"]
    )
    assert run["status"] == "running" and run["step"] >= 1, run
    assert run["total_steps"] == 100000
    config_path = training_root / f"run-{run_id}" / "train_config.json"
    assert _trainer_pids(config_path), "the trainer should be running"

    cancelled = admin.post(f"/api/training-runs/{run_id}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    deadline = time.monotonic() + 20
    while _trainer_pids(config_path):
        assert time.monotonic() < deadline, "the trainer survived the cancel"
        time.sleep(0.1)
    time.sleep(1.5)  # the worker's last poll must not overwrite the cancel
    run = admin.get(url).json()
    assert run["status"] == "cancelled" and run["step"] < 100000
    assert not PrmModel.objects.exists()
