"""import_file against the database: counts, labels, atomicity, idempotence, gzip."""

import gzip
import json
import shutil
from datetime import datetime

import pytest

from labeling.importers import ImportFileError
from labeling.models import (
    Annotation,
    Problem,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)
from labeling.services.imports import ImportResult, import_file, parsing
from tests.factories import ProjectFactory

from .conftest import DATA, raw_rows, table_counts

pytestmark = pytest.mark.django_db


def norm(text: str) -> str:
    return " ".join(text.split())


GSM8K_MODELS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")


def _prm800k_counts(rows):
    """A phase-1 position is a step when it has a chosen or a human completion; positions after
    the last such one (the trajectory's unfinished end) live in metadata, not as steps."""
    steps = labels = alternatives = 0
    for r in rows:
        rated = r["label"]["steps"]
        pre = r["question"].get("pre_generated_steps")
        if pre is not None:  # phase 2: the whole pre-generated solution, the rated part labeled
            steps += len(pre)
            labels += sum(s["completions"][0]["rating"] is not None for s in rated)
            alternatives += sum(len(s["completions"]) for s in rated)
            continue
        for s in rated:
            if s["chosen_completion"] is not None:
                rating = s["completions"][s["chosen_completion"]]["rating"]
            elif s["human_completion"] is not None:
                rating = s["human_completion"].get("rating")
            else:
                continue
            steps += 1
            labels += rating is not None
            alternatives += len(s["completions"] or []) + (s["human_completion"] is not None)
    return (
        len({norm(r["question"]["problem"]) for r in rows}),
        len(rows),
        steps,
        labels,
        alternatives,
    )


def expected(name: str) -> tuple[int, int, int, int, int]:
    """(problems, solutions, steps, labels, alternatives), counted from the raw rows."""
    rows = raw_rows(name)
    if name == "prm800k_sample.jsonl":
        return _prm800k_counts(rows)
    if name in ("processbench_sample.jsonl", "processbench_dev.jsonl"):
        steps = sum(len(r["steps"]) for r in rows)
        labels = sum(len(r["steps"]) if r["label"] == -1 else r["label"] + 1 for r in rows)
        return len({norm(r["problem"]) for r in rows}), len(rows), steps, labels, 0
    if name == "prmbench_sample.jsonl":
        steps = sum(len(r["modified_process"]) for r in rows)
        return len({norm(r["modified_question"]) for r in rows}), len(rows), steps, steps, 0
    if name == "prm800k_mrmath_redundant_sample.jsonl":
        steps = sum(len(r["model_output_step_format"]) for r in rows)
        return len({norm(r["question"]) for r in rows}), len(rows), steps, steps, 0
    if name == "math_shepherd_sample.jsonl":
        steps = sum(r["input"].count(" ки") for r in rows)
        problems = {norm(r["input"].split("Step 1:")[0]) for r in rows}
        return len(problems), len(rows), steps, steps, 0
    if name == "gsm8k_model_solutions_sample.jsonl":
        steps = sum(
            len([x for x in r[m]["solution"].split("\n") if x.strip()]) - 1
            for r in rows
            for m in GSM8K_MODELS
        )
        return len({norm(r["question"]) for r in rows}), 4 * len(rows), steps, 0, 0
    if name == "gsm8k_sample.jsonl":
        return len({norm(r["question"]) for r in rows}), 0, 0, 0, 0
    if name == "math500_sample.jsonl":
        return len({r["unique_id"] for r in rows}), 0, 0, 0, 0
    raise AssertionError(name)


FILES = {
    "prm800k_sample.jsonl": "prm800k",
    "prm800k_mrmath_redundant_sample.jsonl": "prm800k_mrmath",
    "processbench_sample.jsonl": "processbench",
    "processbench_dev.jsonl": "processbench",
    "prmbench_sample.jsonl": "prmbench",
    "gsm8k_sample.jsonl": "gsm8k",
    "gsm8k_model_solutions_sample.jsonl": "gsm8k",
    "math500_sample.jsonl": "math",
    "math_shepherd_sample.jsonl": "math_shepherd",
}


def test_every_shared_file_is_covered():
    assert sorted(FILES) == sorted(p.name for p in DATA.glob("*.jsonl"))


@pytest.mark.parametrize("explicit", [False, True], ids=["auto", "explicit"])
@pytest.mark.parametrize("name", sorted(FILES))
def test_import_shared_file_counts(name, explicit):
    project = ProjectFactory()
    problems, solutions, steps, labels, alternatives = expected(name)
    result = import_file(project=project, path=DATA / name, fmt=FILES[name] if explicit else "auto")
    assert result == ImportResult(
        format=FILES[name],
        rows=len(raw_rows(name)),
        problems_created=problems,
        solutions_created=solutions,
        steps_created=steps,
        alternatives_created=alternatives,
        labels_created=labels,
        near_duplicates=result.near_duplicates,  # tests/importers/test_near_duplicates.py
    )
    assert Problem.objects.filter(project=project).count() == problems
    assert Solution.objects.filter(project=project).count() == solutions
    assert Step.objects.filter(solution__project=project).count() == steps
    assert StepAlternative.objects.filter(step__solution__project=project).count() == alternatives
    assert Suggestion.objects.filter(step__solution__project=project, source="import").count() == (
        labels
    )
    assert Annotation.objects.count() == 0


@pytest.mark.parametrize(
    "name",
    [
        "prm800k_sample.jsonl",
        "processbench_sample.jsonl",
        "math_shepherd_sample.jsonl",
        "prmbench_sample.jsonl",
    ],
)
def test_labels_as_annotations_and_none(name):
    _, solutions, _, labels, _ = expected(name)
    as_annotations = ProjectFactory()
    result = import_file(project=as_annotations, path=DATA / name, labels_as="annotations")
    assert (result.annotations_created, result.labels_created) == (solutions, labels)
    annotations = Annotation.objects.filter(solution__project=as_annotations)
    assert annotations.count() == solutions
    assert set(annotations.values_list("imported", "status", "annotator")) == {
        (True, "submitted", None)
    }
    assert StepLabel.objects.filter(annotation__in=annotations).count() == labels
    assert Suggestion.objects.count() == 0
    # Imported labels are not part of the human queue's overlap.
    assert set(
        Solution.objects.filter(project=as_annotations).values_list("submitted_count", flat=True)
    ) == {0}

    nothing = ProjectFactory()
    result = import_file(project=nothing, path=DATA / name, labels_as="none")
    assert result.labels_created == 0
    assert Solution.objects.filter(project=nothing).count() == solutions
    assert Annotation.objects.filter(solution__project=nothing).count() == 0
    assert Suggestion.objects.count() == 0


def test_prm800k_in_the_database():
    project = ProjectFactory()
    import_file(project=project, path=DATA / "prm800k_sample.jsonl", labels_as="suggestions")
    raws = raw_rows("prm800k_sample.jsonl")
    sols = list(Solution.objects.filter(project=project).order_by("id"))
    assert [s.external_id for s in sols] == [
        f"prm800k:{r['labeler']}:{r['timestamp']}" for r in raws
    ]
    # Line 2, position 5: 7 completions kept in order, the chosen one (3) marked and used.
    step = Step.objects.get(solution=sols[1], index=5)
    raw = raws[1]["label"]["steps"][5]
    alts = list(step.alternatives.order_by("position"))
    assert [(a.position, a.text, a.rating, a.flagged, a.is_chosen) for a in alts] == [
        (i, c["text"], c["rating"], c["flagged"], i == 3) for i, c in enumerate(raw["completions"])
    ]
    assert step.text == raw["completions"][3]["text"]
    suggestion = step.suggestions.get()
    assert (suggestion.source, suggestion.agent, suggestion.value) == (
        "import",
        f"prm800k:{raws[1]['labeler']}",
        raw["completions"][3]["rating"],
    )
    assert suggestion.evidence == {"file": "prm800k_sample.jsonl", "line": 2}
    # Line 1, position 1: the human completion is kept, marked human and chosen; no label.
    human_step = Step.objects.get(solution=sols[0], index=1)
    human = human_step.alternatives.get(is_human=True)
    assert human.text == raws[0]["label"]["steps"][1]["human_completion"]["text"] == human_step.text
    assert human.is_chosen and human.position == 5
    assert not human_step.suggestions.exists()
    # Line 3: the all-null final step is not a step, but the row keeps it.
    assert sols[2].steps.count() == 8
    assert sols[2].metadata["prm800k"]["trailing_steps"] == [raws[2]["label"]["steps"][8]]
    # Line 7 (phase 2): 13 steps, 7 rated, the last rated one wrong.
    values = list(
        Step.objects.filter(solution=sols[6])
        .order_by("index")
        .values_list("suggestions__value", flat=True)
    )
    assert values == [1, 0, 1, 1, 1, 1, -1] + [None] * 6


def test_prm800k_as_annotations_keep_labeler_time_and_finish_reason():
    project = ProjectFactory()
    import_file(project=project, path=DATA / "prm800k_sample.jsonl", labels_as="annotations")
    raws = raw_rows("prm800k_sample.jsonl")
    annotations = list(Annotation.objects.filter(solution__project=project).order_by("id"))
    assert [(a.external_annotator, a.finish_reason, a.time_spent_ms) for a in annotations] == [
        (r["labeler"], r["label"]["finish_reason"], r["label"]["total_time"]) for r in raws
    ]
    assert annotations[0].submitted_at == datetime.fromisoformat(raws[0]["timestamp"] + "+00:00")
    phase2 = annotations[6]
    ratings = list(phase2.labels.order_by("step__index").values_list("step__index", "rating"))
    assert ratings == [(0, 1), (1, 0), (2, 1), (3, 1), (4, 1), (5, 1), (6, -1)]


def test_problems_are_shared_across_files_within_a_project_not_across_projects():
    first, second = ProjectFactory(), ProjectFactory()
    import_file(project=first, path=DATA / "prm800k_mrmath_redundant_sample.jsonl")
    result = import_file(project=first, path=DATA / "prm800k_sample.jsonl")
    mrmath = {norm(r["question"]) for r in raw_rows("prm800k_mrmath_redundant_sample.jsonl")}
    prm800k = {norm(r["question"]["problem"]) for r in raw_rows("prm800k_sample.jsonl")}
    shared = len(mrmath & prm800k)
    assert shared > 0
    assert (result.problems_existing, result.problems_created) == (shared, len(prm800k) - shared)
    result = import_file(project=second, path=DATA / "prm800k_sample.jsonl")
    assert (result.problems_existing, result.problems_created) == (0, len(prm800k))


def test_reimport_creates_nothing(write_jsonl):
    project = ProjectFactory()
    for name in FILES:
        import_file(project=project, path=DATA / name)
    before = table_counts()
    for name in FILES:
        result = import_file(project=project, path=DATA / name)
        created = (
            result.problems_created,
            result.solutions_created,
            result.steps_created,
            result.alternatives_created,
            result.labels_created,
        )
        assert created == (0, 0, 0, 0, 0), name
        assert result.solutions_skipped == expected(name)[1]
    assert table_counts() == before


def test_problem_counts_existing_and_duplicates_within_a_file(write_jsonl):
    project = ProjectFactory()
    rows = [{"problem": "Same  problem", "steps": [f"s{i}"]} for i in range(3)]
    rows += [{"problem": "Same problem", "steps": ["s0"]}]  # same solution, whitespace aside
    result = import_file(project=project, path=write_jsonl(rows))
    assert (result.problems_created, result.problems_existing) == (1, 0)
    assert (result.solutions_created, result.solutions_skipped) == (3, 1)
    result = import_file(
        project=project, path=write_jsonl(rows[:1] + [{"problem": "Other", "steps": ["x"]}])
    )
    assert (result.problems_created, result.problems_existing) == (1, 1)


@pytest.mark.parametrize("labels_as", ["suggestions", "annotations"])
@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ("{not json", None),
        (json.dumps({"problem": "p"}), "steps"),
        (json.dumps({"problem": "p", "steps": ["a", 7]}), "steps[1]"),
    ],
)
def test_a_bad_line_imports_nothing_even_after_batches_were_written(
    write_jsonl, monkeypatch, labels_as, bad, field
):
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 1)  # every good line is written first
    project = ProjectFactory()
    good = [{"problem": f"p{i}", "steps": ["a", "b"], "labels": [1, -1]} for i in range(2)]
    path = write_jsonl([*good, bad, *good])
    calls = []
    with pytest.raises(ImportFileError) as exc:
        import_file(
            project=project, path=path, labels_as=labels_as, progress=lambda b, r: calls.append(r)
        )
    assert calls == [1, 2]  # two batches were written before line 3 failed
    assert (exc.value.file, exc.value.line, exc.value.field) == ("rows.jsonl", 3, field)
    assert set(table_counts().values()) == {0}


def test_a_bad_line_in_a_real_file(tmp_path):
    lines = (DATA / "processbench_sample.jsonl").read_text().splitlines()
    row = json.loads(lines[41])
    row["steps"][2] = None
    lines[41] = json.dumps(row)
    path = tmp_path / "pb.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ImportFileError) as exc:
        import_file(project=ProjectFactory(), path=path)
    assert str(exc.value) == "pb.jsonl:42: steps[2]: expected a string, got null"
    assert set(table_counts().values()) == {0}


def test_gzip_is_sniffed_not_guessed_from_the_name(tmp_path):
    plain = DATA / "prm800k_sample.jsonl"
    packed = tmp_path / "prm800k.jsonl"  # no .gz suffix on purpose
    with open(plain, "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    seen = []
    result = import_file(
        project=ProjectFactory(), path=packed, progress=lambda b, r: seen.append(b)
    )
    reference = import_file(project=ProjectFactory(), path=plain)
    assert result.as_dict() == reference.as_dict() | {"format": "prm800k"}
    assert result.solutions_created == 9
    assert seen[-1] == packed.stat().st_size  # progress counts compressed bytes


def test_file_object_and_progress(write_jsonl, monkeypatch):
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 2)
    path = write_jsonl([{"problem": f"p{i}", "steps": ["a"]} for i in range(5)])
    calls = []
    with open(path, "rb") as f:
        result = import_file(
            project=ProjectFactory(),
            path=f,
            filename="up.jsonl",
            progress=lambda b, r: calls.append((b, r)),
        )
    assert result.solutions_created == 5
    assert [r for _, r in calls] == [2, 4, 5]
    assert calls[-1][0] == path.stat().st_size
    assert [b for b, _ in calls] == sorted(b for b, _ in calls)


def test_steplab_solution_is_split_by_the_project_rule(write_jsonl):
    project = ProjectFactory(step_split="paragraph")
    import_file(
        project=project, path=write_jsonl([{"problem": "p", "solution": "one\nstill one\n\ntwo"}])
    )
    assert list(Step.objects.values_list("text", flat=True)) == ["one\nstill one", "two"]


def test_bad_arguments():
    from labeling.errors import ValidationFailed

    with pytest.raises(ValidationFailed, match="labels_as"):
        import_file(project=ProjectFactory(), path=DATA / "math500_sample.jsonl", labels_as="votes")
    with pytest.raises(ValidationFailed, match="format must be one of"):
        import_file(project=ProjectFactory(), path=DATA / "math500_sample.jsonl", fmt="csv")


def test_batch_size_does_not_change_the_result(monkeypatch):
    reference = import_file(
        project=ProjectFactory(), path=DATA / "prm800k_sample.jsonl", labels_as="annotations"
    )
    monkeypatch.setattr(parsing, "BATCH_SOLUTIONS", 2)
    small = import_file(
        project=ProjectFactory(), path=DATA / "prm800k_sample.jsonl", labels_as="annotations"
    )
    assert small == reference


def test_bulk_writes_use_a_bounded_number_of_queries(django_assert_max_num_queries):
    project = ProjectFactory()
    # 100 solutions with 708 steps and 518 labels: one batch, a handful of statements on
    # PostgreSQL; SQLite splits INSERTs at 999 variables, hence the margin.
    with django_assert_max_num_queries(40):
        result = import_file(project=project, path=DATA / "processbench_sample.jsonl")
    assert result.steps_created == 708
