"""Reasoning (`<think>`) steps after the import: exports say which steps were thinking where the
format can; splitting keeps the flag; a merge across the end of the reasoning is refused."""

import io
import json

import pytest

from labeling.errors import ValidationFailed
from labeling.exporters.source import project_has_thinking
from labeling.models import Step, StepSplit
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.imports import import_file
from labeling.services.labeling.resegment import step_merge, step_split
from labeling.services.queue.claim import task_claim_next
from tests.exports.conftest import read_rows
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

ROW = {
    "problem": "What is 2 + 3?",
    "answer": "5",
    "solution": "<think>\nTwo plus three.\nThat is five.\n</think>\nAdd them: 5.\nAnswer: 5",
    "labels": [1, 1, 1, 1],
}


def _project(labels_as: str):
    project = ProjectFactory(
        name=f"Reasoning {labels_as}", step_split=StepSplit.LINE, allow_resegment=True
    )
    data = (json.dumps(ROW) + "\n").encode()
    import_file(project=project, path=io.BytesIO(data), filename="r.jsonl", labels_as=labels_as)
    return project


@pytest.fixture
def project():
    return _project("annotations")


def _export(project, fmt: str, file_type: str = "jsonl", **options) -> list[dict]:
    export = export_create(
        project=project, created_by=None, format=fmt, file_type=file_type, **options
    )
    export = export_build(export=export)
    assert export.status == "done", export.error
    return read_rows(export)


def test_the_import_stores_the_flag(project):
    steps = Step.objects.filter(solution__project=project).order_by("index")
    assert [(s.text, s.thinking) for s in steps] == [
        ("Two plus three.", True),
        ("That is five.", True),
        ("Add them: 5.", False),
        ("Answer: 5", False),
    ]
    assert project_has_thinking(project_id=project.pk)
    assert not project_has_thinking(project_id=ProjectFactory(name="Plain").pk)


@pytest.mark.parametrize("file_type", ["jsonl", "parquet"])
def test_trl_and_processbench_rows_say_which_steps_were_thinking(project, file_type):
    (trl,) = _export(project, "trl", file_type)
    assert trl["completions"] == ["Two plus three.", "That is five.", "Add them: 5.", "Answer: 5"]
    assert trl["thinking"] == [True, True, False, False]
    (pb,) = _export(project, "processbench", file_type)
    assert pb["thinking"] == [True, True, False, False]


@pytest.mark.parametrize("source", ["imported", "annotations"])
def test_one_annotations_labels_keep_the_thinking_flags(project, source):
    # One annotation per solution takes the single-annotation path (labels._from_one).
    (trl,) = _export(project, "trl", filters={"label_source": source})
    assert trl["thinking"] == [True, True, False, False]


def test_prm800k_steps_say_which_were_thinking(project):
    (row,) = _export(project, "prm800k")
    assert [s["thinking"] for s in row["label"]["steps"]] == [True, True, False, False]
    assert row["label"]["steps"][0]["completions"][0]["text"] == "Two plus three."


def test_a_project_without_reasoning_steps_exports_no_thinking_column():
    plain = ProjectFactory(name="Plain")
    data = json.dumps({"problem": "1+1?", "steps": ["1+1=2"], "labels": [1]}) + "\n"
    import_file(
        project=plain, path=io.BytesIO(data.encode()), filename="p.jsonl", labels_as="annotations"
    )
    (row,) = _export(plain, "trl")
    assert "thinking" not in row


@pytest.fixture
def draft():
    project = _project("none")  # no imported annotation: the draft may resegment
    user = UserFactory()
    MembershipFactory(project=project, user=user)
    return task_claim_next(project=project, user=user).annotation, user


def test_a_split_reasoning_step_gives_two_reasoning_steps(draft):
    annotation, user = draft
    first = Step.objects.get(solution_id=annotation.solution_id, index=0)
    step_split(
        annotation=annotation,
        user=user,
        version=annotation.version,
        step_id=first.pk,
        offset=len("Two plus"),
    )
    steps = Step.objects.filter(solution_id=annotation.solution_id).order_by("index")
    assert [(s.text, s.thinking) for s in steps][:3] == [
        ("Two plus", True),
        ("three.", True),
        ("That is five.", True),
    ]


def test_reasoning_and_answer_steps_do_not_merge(draft):
    annotation, user = draft
    last_thought = Step.objects.get(solution_id=annotation.solution_id, index=1)
    with pytest.raises(ValidationFailed) as refused:
        step_merge(
            annotation=annotation, user=user, version=annotation.version, step_id=last_thought.pk
        )
    assert refused.value.details["field"] == "step_id"
    first = Step.objects.get(solution_id=annotation.solution_id, index=0)
    step_merge(annotation=annotation, user=user, version=annotation.version, step_id=first.pk)
    merged = Step.objects.get(pk=first.pk)
    assert (merged.text, merged.thinking) == ("Two plus three.\nThat is five.", True)


@pytest.mark.parametrize("fmt", ["trl", "processbench"])
def test_an_exported_thinking_list_imports_back_as_reasoning_steps(project, fmt):
    (row,) = _export(project, fmt)
    again = ProjectFactory(name=f"Round trip {fmt}")
    data = (json.dumps(row) + "\n").encode()
    import_file(project=again, path=io.BytesIO(data), filename="back.jsonl", fmt=fmt)
    steps = Step.objects.filter(solution__project=again).order_by("index")
    assert [s.thinking for s in steps] == [True, True, False, False]


def test_a_bad_thinking_list_names_its_field():
    from labeling.importers import ImportFileError

    bad = {"prompt": "p", "completions": ["a", "b"], "labels": [True, True]}
    for thinking, field in [([True], "thinking"), ([True, "no"], "thinking[1]")]:
        data = (json.dumps({**bad, "thinking": thinking}) + "\n").encode()
        with pytest.raises(ImportFileError) as error:
            import_file(
                project=ProjectFactory(name=f"Bad {field}"),
                path=io.BytesIO(data),
                filename="bad.jsonl",
                fmt="trl",
            )
        assert (error.value.line, error.value.field) == (1, field)
