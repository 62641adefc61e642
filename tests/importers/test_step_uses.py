"""`uses` in steplab imports: written to Step.uses (COPY path), checked per line, detected
when the file gives none; imported annotations carry no uses of their own."""

import pytest

from labeling.importers import ImportFileError
from labeling.models import Step, StepLabel
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

from .conftest import DATA, table_counts

pytestmark = pytest.mark.django_db


def _uses(project):
    return [
        (s.index, s.uses, s.uses_source)
        for s in Step.objects.filter(solution__project=project).order_by("solution_id", "index")
    ]


def test_uses_from_the_file_per_step_and_top_level(write_jsonl):
    project = ProjectFactory()
    path = write_jsonl(
        [
            {
                "problem": "p1",
                "steps": ["a", {"text": "b", "uses": [0]}, {"text": "c", "uses": [1, 0, 1]}],
            },
            {"problem": "p2", "steps": ["x", "y", "z"], "uses": [[], None, [0]], "labels": [1, 1]},
        ]
    )
    import_file(project=project, path=path, labels_as="annotations")
    assert _uses(project) == [
        (0, [], "import"),
        (1, [0], "import"),
        (2, [0, 1], "import"),
        (0, [], "import"),
        (1, [], "import"),
        (2, [0], "import"),
    ]
    # The imported labeler's annotation does not claim the file's dependencies as its own.
    assert set(StepLabel.objects.values_list("uses", flat=True)) == {None}


@pytest.mark.parametrize(
    ("row", "field", "words"),
    [
        ({"problem": "p", "steps": ["a", {"text": "b", "uses": [1]}]}, "steps[1].uses", "forward"),
        ({"problem": "p", "steps": ["a", "b"], "uses": [[], [2]]}, "uses[1]", "out of range"),
        ({"problem": "p", "steps": ["a", "b"], "uses": [[1], []]}, "uses[0]", "forward"),
        ({"problem": "p", "steps": ["a"], "uses": [[], []]}, "uses", "2 entries for 1 steps"),
        ({"problem": "p", "steps": ["a", "b"], "uses": [[], "0"]}, "uses[1]", "list"),
    ],
)
def test_bad_uses_fail_the_line_and_import_nothing(write_jsonl, row, field, words):
    project = ProjectFactory()
    good = {"problem": "fine", "steps": ["a", "b"], "uses": [[], [0]]}
    path = write_jsonl([good, row])
    before = table_counts()
    with pytest.raises(ImportFileError) as err:
        import_file(project=project, path=path)
    assert err.value.line == 2
    assert err.value.field == field
    assert words in str(err.value)
    assert err.value.file == "rows.jsonl"
    assert table_counts() == before


def test_detected_when_the_file_gives_none():
    project = ProjectFactory()
    import_file(project=project, path=DATA / "processbench_sample.jsonl")
    steps = Step.objects.filter(solution__project=project)
    detected = steps.filter(uses_source="detected")
    assert detected.exists()
    for step in detected:
        assert step.uses and all(0 <= k < step.index for k in step.uses)
    assert not steps.filter(uses_source="").exclude(uses=[]).exists()
    # gsm8k-35's total (step 3) adds the results of steps 0, 1 and 2.
    total = steps.get(solution__external_id="processbench:gsm8k-35", index=3)
    assert total.uses == [0, 1, 2]


def test_detection_can_be_turned_off_and_a_files_uses_still_count(write_jsonl):
    from django.core.management import call_command

    project = ProjectFactory()
    rows = [
        {"problem": "p", "steps": ["2 x 75 = 150 beans", "So 150 / 3 = 50"]},
        {"problem": "q", "steps": ["a", "b"], "uses": [[], [0]]},
    ]
    call_command(
        "import", str(write_jsonl(rows)), project=str(project.pk), no_detect_uses=True, verbosity=0
    )
    assert _uses(project) == [(0, [], ""), (1, [], ""), (0, [], "import"), (1, [0], "import")]
    again = ProjectFactory()
    import_file(project=again, path=write_jsonl(rows[:1], name="one.jsonl"))
    assert _uses(again) == [(0, [], ""), (1, [0], "detected")]
