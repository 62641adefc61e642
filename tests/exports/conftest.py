import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage

from labeling.models import Export
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file

# datasets must never reach for the Hub in tests, and keeps its caches out of $HOME.
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# One cache per pytest-xdist worker (datasets writes its cache files while another reads them).
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_HF_HOME = f"hf-home-{_WORKER}" if _WORKER else "hf-home"
os.environ.setdefault("HF_HOME", str(Path(__file__).resolve().parents[2] / "var" / _HF_HOME))

DATA = Path("/work/shared/data")
if not DATA.exists():  # a checkout beside shared/
    DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
)


def chat_tokenizer_dir(path: Path, texts: list[str]) -> Path:
    """A byte-level BPE trained on `texts` with a Qwen-style chat template and the <extra_0>
    separator, saved to `path` as a model's tokenizer is (what chat_template exports load)."""
    from bench.bpe_tokenizer import train_byte_level_bpe

    tokenizer = train_byte_level_bpe(
        texts,
        vocab_size=320,
        special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<extra_0>"],
        eos_token="<|endoftext|>",
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(path)
    return path


def raw_rows(name: str) -> list[dict[str, Any]]:
    """The rows of a shared data file, read with nothing but json."""
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def file_bytes(export: Export) -> bytes:
    with default_storage.open(export.file.name, "rb") as f:
        return f.read()


def read_rows(export: Export) -> list[dict[str, Any]]:
    """The rows of a built export's file, read back without steplab code."""
    data = file_bytes(export)
    if export.file_type == "parquet":
        import io

        import pyarrow.parquet as pq

        return pq.read_table(io.BytesIO(data)).to_pylist()
    if export.file_type == "jsonl.gz":
        data = gzip.decompress(data)
    return [json.loads(line) for line in data.decode().splitlines()]


@pytest.fixture
def load(project):
    """load(name, labels_as=..., fmt=...): import a shared sample file into `project`."""

    def run(name: str, *, labels_as: str = "annotations", fmt: str = "auto"):
        return import_file(project=project, path=DATA / name, fmt=fmt, labels_as=labels_as)

    return run


@pytest.fixture
def build(project):
    """build(format, file_type=..., filters=..., ...) -> the built Export (status checked)."""

    def run(fmt: str, *, expect: str = "done", chunk_size: int = 1000, **options: Any) -> Export:
        export = export_create(
            project=options.pop("project", project), created_by=None, format=fmt, **options
        )
        export = export_build(export=export, chunk_size=chunk_size)
        assert export.status == expect, export.error
        return export

    return run


@pytest.fixture
def exports_worker(transactional_db):
    """A real Celery worker thread consuming the `default`, `autolabel` and `exports` queues.

    tests/conftest.py's celery_worker_live consumes only the default and autolabel queues.
    """
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


def annotate(solution, user, ratings, *, unsure=(), at=None, finish="solution", imported=False):
    """A submitted annotation of `solution` with one rating per step (None: unrated)."""
    from django.utils import timezone

    from labeling.models import Annotation, StepLabel

    steps = list(solution.steps.order_by("index"))
    annotation = Annotation.objects.create(
        solution=solution,
        annotator=None if imported else user,
        external_annotator=user if imported else "",
        status="submitted",
        finish_reason=finish,
        time_spent_ms=1000,
        imported=imported,
        submitted_at=at or timezone.now(),
    )
    StepLabel.objects.bulk_create(
        StepLabel(annotation=annotation, step=step, rating=r, unsure=i in unsure)
        for i, (step, r) in enumerate(zip(steps, ratings, strict=False))
        if r is not None or i in unsure
    )
    return annotation


def steplab_file(path: Path, n: int, *, problems: int | None = None, steps: int = 4) -> Path:
    """A steplab JSONL file of `n` labeled solutions over `problems` problems."""
    problems = problems or n
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            p = i % problems
            first_error = i % (steps + 1) - 1  # -1: all correct
            labels = [1] * steps if first_error < 0 else [1] * first_error + [-1]
            row = {
                "problem": f"Problem {p}: what is {p} + {p}?",
                "answer": str(2 * p),
                "steps": [f"solution {i} step {k}: {p} + {k}" for k in range(steps)],
                "generator": f"model-{i}",
                "labels": labels,
                "source": "synthetic",
            }
            f.write(json.dumps(row) + "\n")
    return path
