"""Fixtures for the app side of PRM training: a labeled project, its TRL export, a tiny base
model (tests/training/tiny.py: a Qwen2 from a config and a BPE tokenizer trained here), a tiny
trained PRM, and a Celery worker on the `gpu` queue."""

import json
import random
from pathlib import Path

import pytest

from labeling.models import Export
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytest.importorskip("torch")
pytest.importorskip("transformers")

from tests.training.tiny import build_tiny_lm, toy_solution  # noqa: E402

# Small and fast on a shared 2-core CPU; every run of the tests trains with these.
FAST_CONFIG = {"max_steps": 3, "batch_size": 4, "log_every": 1, "lr": 1e-3, "max_length": 128}


def solution_rows(count: int, *, labeled: bool, seed: int) -> list[dict]:
    """steplab rows whose wrong steps say MARKER, like tests/training/tiny.toy_rows."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        steps, correct = toy_solution(rng)
        labels = [1 if ok else -1 for ok in correct]
        p = i % 6
        row = {
            "id": f"{'l' if labeled else 'u'}{seed}-{i}",
            "problem": f"Problem {p}: what is {p} + {p}?",
            "problem_id": f"p{p}",
            "answer": str(2 * p),
            "steps": steps,
            "final_answer": str(2 * p if i % 3 else p),
        }
        if labeled:
            row["labels"] = labels
        rows.append(row)
    return rows


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def training_root(settings, tmp_path: Path) -> Path:
    settings.TRAINING_ROOT = str(tmp_path / "training")
    return Path(settings.TRAINING_ROOT)


def operator_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's model directory in these tests (settings.MODEL_DIRS): where an operator put
    the checkpoints project admins may train from and register."""
    return tmp_path_factory.getbasetemp() / "operator-models"


@pytest.fixture(autouse=True)
def model_dirs(settings, tmp_path_factory: pytest.TempPathFactory) -> Path:
    settings.MODEL_DIRS = [str(operator_models(tmp_path_factory))]
    return operator_models(tmp_path_factory)


@pytest.fixture(scope="session")
def base_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = operator_models(tmp_path_factory) / "tiny-base"
    directory.mkdir(parents=True)
    return build_tiny_lm(directory)


@pytest.fixture(scope="session")
def trained_prm(tmp_path_factory: pytest.TempPathFactory, base_model: Path) -> Path:
    """A PRM saved by training.train in this process (a few steps on toy rows)."""
    from tests.training.tiny import toy_rows, write_jsonl
    from training.config import TrainConfig
    from training.train import train

    root = operator_models(tmp_path_factory) / "tiny-prm"
    root.mkdir(parents=True)
    data = write_jsonl(root / "data.jsonl", toy_rows(16))
    config = TrainConfig(
        data=[str(data)],
        model=str(base_model),
        out=str(root / "prm"),
        progress=False,
        **FAST_CONFIG,
    )
    train(config)
    return root / "prm"


@pytest.fixture
def train_project(db, tmp_path: Path):
    """A project with 24 human-labeled solutions and 6 unlabeled ones, and its users."""
    project = ProjectFactory(name="Train demo")
    import_file(
        project=project,
        path=write_rows(tmp_path / "labeled.jsonl", solution_rows(24, labeled=True, seed=1)),
        labels_as="annotations",
    )
    import_file(
        project=project,
        path=write_rows(tmp_path / "unlabeled.jsonl", solution_rows(6, labeled=False, seed=2)),
        labels_as="none",
    )
    for role in ("admin", "reviewer", "annotator"):
        user = UserFactory(username=f"t-{role}")
        MembershipFactory(project=project, user=user, role=role)
        setattr(project, role, user)
    return project


@pytest.fixture
def trl_export(train_project) -> Export:
    export = export_create(project=train_project, created_by=None, format="trl")
    export = export_build(export=export)
    assert export.status == "done", export.error
    return export


@pytest.fixture
def gpu_worker(transactional_db):
    """A real Celery worker thread consuming the `default` and `gpu` queues."""
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
