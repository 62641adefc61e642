"""The embodied importer: episodes as steps with their signals, clear errors, atomic imports;
the demo project; the subgoal checker on the demo through an auto-label run."""

import io
import json
from pathlib import Path

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command

from labeling.importers import ImportFileError, detect_format, open_rows
from labeling.management.commands.load_demo import EMBODIED_PROJECT, _with_inline_images
from labeling.models import Problem, Project, Solution, Step
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

DEMO = Path(__file__).resolve().parents[2] / "labeling" / "demo" / "embodied_demo.jsonl"
PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8"
    "z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def _row(**extra) -> dict:
    row = {
        "id": "ep1",
        "task": "Put the mug in the drawer.",
        "initial_state": ["on(mug, table)", "hand_empty"],
        "goal": ["in(mug, drawer)"],
        "success": False,
        "steps": [
            {"kind": "plan", "text": "Grasp, then place."},
            {
                "kind": "action",
                "text": "grasp(mug)",
                "success": True,
                "preconditions": ["on(mug,  table)", "hand_empty"],
                "effects": ["holding(mug)", "not hand_empty"],
                "timestamp": 3.5,
                "images": [PNG],
            },
            {"kind": "subgoal", "text": "Mug in drawer", "success": False, "timestamp": 9},
        ],
        "labels": [1, 1, -1],
    }
    row.update(extra)
    return row


def _parse(tmp_path, rows, fmt="auto"):
    path = tmp_path / "episodes.jsonl"
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in rows))
    with open_rows(path, fmt=fmt, filename="episodes.jsonl") as stream:
        return list(stream), stream.format


def test_an_episode_becomes_steps_with_their_signals(tmp_path):
    [row], fmt = _parse(tmp_path, [_row()])
    assert fmt == "embodied" and detect_format(_row()) == "embodied"
    assert row.problem.text == "Put the mug in the drawer."
    assert row.problem.metadata == {
        "initial_state": ["on(mug, table)", "hand_empty"],
        "goal": ["in(mug, drawer)"],
    }
    [solution] = row.solutions
    assert solution.answer_correct is False and solution.external_id == "ep1"
    plan, grasp, subgoal = solution.steps
    assert plan.metadata == {"kind": "plan"}
    assert grasp.metadata["success"] is True
    assert grasp.metadata["preconditions"] == ["on(mug, table)", "hand_empty"]  # spaces folded
    assert grasp.metadata["effects"] == ["holding(mug)", "not hand_empty"]
    assert grasp.metadata["timestamp"] == 3.5
    [frame] = grasp.metadata["images"]
    assert frame["content_type"] == "image/png" and frame["media"] in row.media
    assert subgoal.metadata == {"kind": "subgoal", "success": False, "timestamp": 9}
    assert [s.label for s in solution.steps] == [1, 1, -1]


@pytest.mark.parametrize(
    ("change", "line", "field", "message"),
    [
        ({"task": ""}, 2, "task", "is empty"),
        ({"steps": []}, 2, "steps", "at least one step"),
        ({"steps": ["grasp"]}, 2, "steps[0]", "expected an object"),
        ({"steps": [{"kind": "jump", "text": "x"}]}, 2, "steps[0].kind", "expected one of plan"),
        ({"steps": [{"kind": "action", "text": " "}]}, 2, "steps[0].text", "is empty"),
        (
            {"steps": [{"kind": "action", "text": "x", "success": "yes"}]},
            2,
            "steps[0].success",
            "expected a bool",
        ),
        (
            {"steps": [{"kind": "action", "text": "x", "effects": "holding(mug)"}]},
            2,
            "steps[0].effects",
            "expected a list",
        ),
        (
            {"steps": [{"kind": "action", "text": "x", "preconditions": ["a", 3]}]},
            2,
            "steps[0].preconditions[1]",
            "expected a predicate string",
        ),
        (
            {"steps": [{"kind": "action", "text": "x", "timestamp": "3s"}]},
            2,
            "steps[0].timestamp",
            "expected seconds",
        ),
        (
            {"steps": [{"kind": "action", "text": "x", "reward": 1}]},
            2,
            "steps[0].reward",
            "unknown key",
        ),
        (
            {"steps": [{"kind": "action", "text": "x", "images": ["file:///etc/passwd"]}]},
            2,
            "steps[0].images[0]",
            "expected an http",
        ),
        ({"initial_state": "on(mug, table)"}, 2, "initial_state", "expected a list"),
        ({"success": 1}, 2, "success", "expected a bool"),
        ({"labels": [1, 1, 1, 1]}, 2, "labels", "4 labels for 3 steps"),
        ({"labels": [1, 2]}, 2, "labels[1]", "expected -1, 0 or 1"),
    ],
)
def test_bad_rows_name_file_line_and_field(tmp_path, change, line, field, message):
    with pytest.raises(ImportFileError) as info:
        _parse(tmp_path, [_row(id="ok"), _row(**change)], fmt="embodied")
    error = info.value
    assert (error.file, error.line, error.field) == ("episodes.jsonl", line, field)
    assert message in error.message


@pytest.mark.django_db
def test_a_bad_line_imports_nothing(tmp_path):
    project = ProjectFactory(domain="embodied")
    path = tmp_path / "episodes.jsonl"
    bad = _row(id="ep2", steps=[{"kind": "action", "text": "x", "success": "no"}])
    path.write_text(json.dumps(_row()) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ImportFileError) as info:
        import_file(project=project, path=path, fmt="embodied", labels_as="annotations")
    assert info.value.line == 2
    assert not Problem.objects.filter(project=project).exists()
    assert not Solution.objects.filter(project=project).exists()


@pytest.mark.django_db
def test_the_demo_imports_with_frames_and_outcomes(tmp_path):
    call_command("load_demo", stdout=io.StringIO())
    project = Project.objects.get(name=EMBODIED_PROJECT)
    assert project.domain == "embodied"
    # The six episodes written for steplab, then six real ALFWorld logs (alfworld format).
    assert project.solutions.count() == 12
    assert project.solutions.filter(source="alfworld/react-prompts").count() == 6
    outcomes = dict(project.solutions.values_list("external_id", "answer_correct"))
    assert outcomes["ep-mug-drawer-1"] is True and outcomes["ep-mug-drawer-2"] is False
    kinds = set(
        Step.objects.filter(solution__project=project).values_list("metadata__kind", flat=True)
    )
    assert kinds == {"plan", "action", "observation", "subgoal"}
    framed = Step.objects.filter(solution__project=project).exclude(metadata__images=None)
    assert framed.count() >= 5
    ref = framed.first().metadata["images"][0]
    assert default_storage.exists(f"media/{project.pk}/{ref['media']}")
    # Every demo line parses and carries one label per step (the precision measurement's data).
    with open_rows(_with_inline_images(DEMO, tmp_path), filename=DEMO.name) as rows:
        for row in rows:
            assert all(step.label is not None for step in row.solutions[0].steps)
