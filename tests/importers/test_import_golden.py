"""What an import writes, held to a golden digest: the importer's speed-ups (issue 26: the
step-reference detector, the content ids, the COPY rows, the near-duplicate screen's queries)
must leave every written row as it was.

The golden (data/import_golden.json) was written by the code before those changes. Each file
is imported into a project of its own; each table's rows are read back without their primary
keys or times (a row names its problem, solution and step by external id and index), sorted,
and hashed. After a change that means to alter what is written, rewrite the golden with
`IMPORT_GOLDEN_WRITE=1` and say why in the commit.
"""

import hashlib
import json
import os
from pathlib import Path

import pytest

from bench.import_bench import synthetic_rows
from labeling.models import (
    Annotation,
    Problem,
    ProblemBand,
    ProblemSignature,
    Solution,
    Step,
    StepLabel,
    Suggestion,
)
from labeling.services.imports import import_file, inserter
from tests.factories import ProjectFactory

from .conftest import DATA

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "data" / "import_golden.json"
DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo"

# name: (path or None for the generated file, import format, labels_as, project domain)
FILES = {
    "processbench_dev": (DATA / "processbench_dev.jsonl", "auto", "suggestions", "math"),
    "prm800k_sample": (DATA / "prm800k_sample.jsonl", "auto", "annotations", "math"),
    "prmbench_sample": (DATA / "prmbench_sample.jsonl", "auto", "suggestions", "math"),
    "math_shepherd_sample": (DATA / "math_shepherd_sample.jsonl", "auto", "suggestions", "math"),
    "gsm8k_solutions": (DATA / "gsm8k_model_solutions_sample.jsonl", "auto", "annotations", "math"),
    # bench/import_bench.py's rows: real steps recombined, near-duplicate problem variants.
    "bench_3000": (None, "steplab", "suggestions", "math"),
    "demo_math500": (DEMO / "math500_demo.jsonl", "auto", "suggestions", "math"),
    "demo_text": (DEMO / "text_demo.jsonl", "steplab", "suggestions", "text"),
    "demo_agent": (DEMO / "agent_demo.jsonl", "messages", "suggestions", "agent"),
    "demo_evidence": (DEMO / "evidence_demo.jsonl", "auto", "suggestions", "evidence"),
    "demo_graph": (DEMO / "graph_demo.jsonl", "auto", "suggestions", "graph"),
}


def _digest(rows: list[tuple]) -> list:
    text = "\n".join(sorted(json.dumps(row, sort_keys=True, default=str) for row in rows))
    return [len(rows), hashlib.sha256(text.encode()).hexdigest()]


def written(project) -> dict[str, list]:
    """Each table's rows of `project`, as [count, sha256] without ids or times."""
    problems = Problem.objects.filter(project=project)
    ext = dict(problems.values_list("pk", "external_id"))
    solutions = Solution.objects.filter(project=project)
    sol = dict(solutions.values_list("pk", "external_id"))
    steps = Step.objects.filter(solution__project=project)
    step = {pk: (sol[s], i) for pk, s, i in steps.values_list("pk", "solution_id", "index")}
    annotations = Annotation.objects.filter(solution__project=project)
    ann = {pk: sol[s] for pk, s in annotations.values_list("pk", "solution_id")}
    return {
        "problem": _digest(
            list(
                problems.values_list(
                    "external_id",
                    "text",
                    "answer",
                    "reference_solution",
                    "source",
                    "metadata",
                    "domain",
                    "near_cluster",
                )
            )
        ),
        "solution": _digest(
            [
                (ext[p], *rest)
                for p, *rest in solutions.values_list(
                    "problem_id",
                    "external_id",
                    "generator",
                    "final_answer",
                    "answer_correct",
                    "source",
                    "metadata",
                    "submitted_count",
                    "is_gold",
                    "review_reasons",
                    "queue_open",
                    "extra_overlap",
                    "has_submission",
                )
            ]
        ),
        "step": _digest(
            [
                (sol[s], *rest)
                for s, *rest in steps.values_list(
                    "solution_id", "index", "text", "metadata", "uses", "uses_source", "thinking"
                )
            ]
        ),
        "suggestion": _digest(
            [
                (step[s], *rest)
                for s, *rest in Suggestion.objects.filter(
                    step__solution__project=project
                ).values_list("step_id", "source", "agent", "value", "score", "evidence")
            ]
        ),
        "annotation": _digest(
            [
                (sol[s], *rest)
                for s, *rest in annotations.values_list(
                    "solution_id",
                    "external_annotator",
                    "status",
                    "finish_reason",
                    "time_spent_ms",
                    "imported",
                    "shown_suggestions",
                )
            ]
        ),
        "step_label": _digest(
            [
                (ann[a], step[s], *rest)
                for a, s, *rest in StepLabel.objects.filter(
                    annotation__solution__project=project
                ).values_list("annotation_id", "step_id", "rating", "unsure", "comment", "uses")
            ]
        ),
        "signature": _digest(
            [
                (ext[p], bytes(h).hex())
                for p, h in ProblemSignature.objects.filter(problem__project=project).values_list(
                    "problem_id", "hashvalues"
                )
            ]
        ),
        "band": _digest(
            [
                (ext[p], band, value)
                for p, band, value in ProblemBand.objects.filter(project=project).values_list(
                    "problem_id", "band", "hash"
                )
            ]
        ),
    }


def _golden() -> dict[str, dict[str, list]]:
    return json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}


@pytest.mark.parametrize("name", list(FILES))
def test_an_import_writes_the_golden_rows(name, tmp_path):
    _check(name, tmp_path)


@pytest.mark.parametrize("name", ["prm800k_sample", "bench_3000"])
def test_the_bulk_create_fallback_writes_the_golden_rows(name, tmp_path, monkeypatch):
    """The ORM's path (a model with a column the importer does not know) reads back the JSON
    text the fast path passes through (tables.JsonText)."""
    monkeypatch.setattr(inserter.Inserter, "fast", lambda self, model, columns: False)
    _check(name, tmp_path, write=False)


def _check(name: str, tmp_path: Path, *, write: bool = True) -> None:
    path, fmt, labels_as, domain = FILES[name]
    if path is None:
        path = tmp_path / "bench.jsonl"
        with open(path, "w", encoding="utf-8") as f:
            for row in synthetic_rows(3000):
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    project = ProjectFactory(domain=domain)
    import_file(project=project, path=path, fmt=fmt, labels_as=labels_as, filename=f"{name}.jsonl")
    got = written(project)
    assert got["problem"][0] > 0
    if write and os.environ.get("IMPORT_GOLDEN_WRITE") == "1":
        golden = _golden()
        golden[name] = got
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    assert got == _golden()[name]
