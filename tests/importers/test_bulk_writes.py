"""How import_file writes: the fast insert path, its bulk_create fallback, id order, locking."""

import threading

import pytest
from django.db import connection, connections

from labeling.models import (
    Annotation,
    Problem,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)
from labeling.services import imports
from labeling.services.imports import import_file, inserter, parsing
from tests.factories import ProjectFactory

from .conftest import DATA, raw_rows

COLUMNS = {
    Problem: imports.PROBLEM_COLUMNS,
    Solution: imports.SOLUTION_COLUMNS,
    Step: imports.STEP_COLUMNS,
    StepAlternative: imports.ALTERNATIVE_COLUMNS,
    Suggestion: imports.SUGGESTION_COLUMNS,
    Annotation: imports.ANNOTATION_COLUMNS,
    StepLabel: imports.STEP_LABEL_COLUMNS,
}
IGNORED = {"id", "created_at", "updated_at", "submitted_at"}


@pytest.mark.django_db
@pytest.mark.parametrize("model", list(COLUMNS), ids=lambda m: m.__name__)
def test_every_table_takes_the_fast_path(model):
    """Fails when a model gains a column the importer does not write (update *_COLUMNS)."""
    assert inserter.Inserter().fast(model, COLUMNS[model])


def snapshot(project) -> dict[str, list[tuple]]:
    """Every imported row of the project, ids and timestamps aside, foreign keys resolved."""

    def rows(qs, *exclude: str) -> list[tuple]:
        fields = [f.attname for f in qs.model._meta.concrete_fields]
        keep = [f for f in fields if f not in IGNORED and f not in exclude]
        return sorted(tuple(str(v) for v in r) for r in qs.values_list(*keep))

    steps = Step.objects.filter(solution__project=project)
    return {
        "problems": rows(Problem.objects.filter(project=project), "project_id"),
        "solutions": rows(Solution.objects.filter(project=project), "project_id", "problem_id"),
        "steps": rows(steps.annotate(), "solution_id"),
        "alternatives": rows(StepAlternative.objects.filter(step__in=steps), "step_id"),
        "suggestions": rows(Suggestion.objects.filter(step__in=steps), "step_id"),
        "annotations": rows(Annotation.objects.filter(solution__project=project), "solution_id"),
        "labels": rows(StepLabel.objects.filter(step__in=steps), "annotation_id", "step_id"),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("labels_as", ["suggestions", "annotations"])
def test_bulk_create_fallback_writes_the_same_rows(monkeypatch, labels_as):
    fast = ProjectFactory()
    import_file(project=fast, path=DATA / "prm800k_sample.jsonl", labels_as=labels_as)
    monkeypatch.setattr(inserter.Inserter, "fast", lambda self, model, columns: False)
    slow = ProjectFactory()
    import_file(project=slow, path=DATA / "prm800k_sample.jsonl", labels_as=labels_as)
    a, b = snapshot(fast), snapshot(slow)
    assert a == b
    assert len(a["alternatives"]) == 244 and len(a["steps"]) == 105


@pytest.mark.django_db
def test_ids_follow_the_file_order_and_steps_are_linked(monkeypatch):
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 7)
    project = ProjectFactory()
    import_file(project=project, path=DATA / "processbench_sample.jsonl")
    raws = raw_rows("processbench_sample.jsonl")
    solutions = list(Solution.objects.filter(project=project).order_by("id"))
    assert [s.external_id for s in solutions] == [f"processbench:{r['id']}" for r in raws]
    for solution, raw in zip(solutions, raws, strict=True):
        assert list(solution.steps.order_by("index").values_list("text", flat=True)) == [
            t.strip() for t in raw["steps"]
        ]
        assert solution.problem.text == raw["problem"]
    # Suggestions hang off the right steps: the first error of each solution is its label.
    for solution, raw in zip(solutions[:20], raws[:20], strict=True):
        values = list(solution.steps.order_by("index").values_list("suggestions__value", flat=True))
        first_error = values.index(-1) if -1 in values else -1
        assert first_error == raw["label"]


@pytest.mark.django_db
def test_ids_continue_after_existing_rows():
    project = ProjectFactory()
    import_file(project=project, path=DATA / "math_shepherd_sample.jsonl")
    last = Step.objects.order_by("-id").first().pk
    Step.objects.filter(pk=last).delete()  # ids of deleted rows are not reused
    import_file(project=ProjectFactory(), path=DATA / "math_shepherd_sample.jsonl")
    assert Step.objects.order_by("id").filter(pk__gt=last).count() == 25


@pytest.mark.django_db
def test_a_nul_character_is_refused_up_front(write_jsonl):
    path = write_jsonl([{"problem": "p", "steps": ["a"]}, {"problem": "p\u0000", "steps": ["b"]}])
    with pytest.raises(imports.ImportFileError, match="NUL") as exc:
        import_file(project=ProjectFactory(), path=path)
    assert exc.value.line == 2
    # An escaped backslash followed by "u0000" is text, not NUL.
    ok = write_jsonl([{"problem": "p\\u0000", "steps": ["a"]}], name="ok.jsonl")
    assert import_file(project=ProjectFactory(), path=ok).solutions_created == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_imports_of_one_file_into_one_project_do_not_collide():
    project = ProjectFactory()
    barrier = threading.Barrier(2)
    results, errors = [], []

    def run() -> None:
        try:
            barrier.wait()
            results.append(import_file(project=project, path=DATA / "processbench_sample.jsonl"))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert sorted(r.solutions_created for r in results) == [0, 100]
    assert sorted(r.solutions_skipped for r in results) == [0, 100]
    assert Solution.objects.filter(project=project).count() == 100
    assert connection.vendor == "postgresql"


@pytest.mark.django_db
@pytest.mark.parametrize("labels_as", ["suggestions", "annotations"])
def test_one_solution_per_batch_writes_the_same_rows(monkeypatch, write_jsonl, labels_as):
    """On PostgreSQL a batch is written while the next is built and looked up: a problem or
    solution of the batch before, not written yet, must still be found, not made twice."""
    rows = [
        {"problem": "p", "steps": ["a", "b"], "labels": [1, -1]},
        {"problem": "p", "steps": ["c"], "labels": [1]},  # the problem of the batch before
        {"problem": "p", "steps": ["a", "b"], "labels": [1, -1]},  # a solution of batch 1
        {"problem": "q", "steps": ["d"]},
        {"problem": "p", "steps": ["c"], "labels": [1]},  # two batches back
    ]
    path = write_jsonl(rows)
    whole = ProjectFactory()
    reference = import_file(project=whole, path=path, labels_as=labels_as)
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 1)
    split = ProjectFactory()
    progress = []
    result = import_file(
        project=split, path=path, labels_as=labels_as, progress=lambda b, r: progress.append(r)
    )
    assert result == reference
    assert (result.problems_created, result.solutions_created) == (2, 3)
    assert result.solutions_skipped == 2
    assert snapshot(split) == snapshot(whole)
    assert progress == [1, 2, 3, 4, 5]
    ids = list(Solution.objects.filter(project=split).order_by("id").values_list("id", flat=True))
    steps = Step.objects.filter(solution__project=split).order_by("id")
    assert [s.solution_id for s in steps] == [ids[0], ids[0], ids[1], ids[2]]


@pytest.mark.django_db
def test_suggestion_imports_leave_the_stored_review_reasons_right(write_jsonl):
    """Imports with suggestions skip the reasons refresh: new solutions have no submitted
    labels, so no reason; the stored mask (0) must equal the live one."""
    from labeling.selectors.review import reasons_mask

    project = ProjectFactory()
    rows = [
        {"problem": f"p{i}", "steps": ["a", "b", "c"], "labels": [1, -1, None]} for i in range(4)
    ]
    import_file(project=project, path=write_jsonl(rows), labels_as="suggestions")
    live = Solution.objects.filter(project=project).annotate(
        live=reasons_mask({"project": project})
    )
    assert [(s.review_reasons, s.live) for s in live] == [(0, 0)] * 4
    assert Suggestion.objects.filter(step__solution__project=project, value=-1).count() == 4
