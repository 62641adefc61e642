"""The code source end to end: a steplab file with a problem's tests → a run → suggestions."""

import json

import pytest

from autolabel.engines.base import TESTS_PASS
from autolabel.models import RunStatus
from autolabel.services import (
    autolabel_item_process,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
)
from labeling.models import Solution, Suggestion
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

TESTS = [{"input": "3\n", "output": "9\n"}, {"input": "-2\n", "output": "4\n"}]
ROWS = [
    {  # right: +1 on the last step
        "id": "right",
        "problem": "Print the square of the integer n read from stdin.",
        "steps": ["Read n.", "```python\nn = int(input())\n```", "```python\nprint(n * n)\n```"],
        "tests": TESTS,
    },
    {  # wrong output: −1 on the last step, with the failing case
        "id": "wrong",
        "problem": "Print the square of the integer n read from stdin.",
        "steps": ["n = int(input())", "print(n + n)"],
    },
    {  # a crash in the middle: −1 on the step that raises, as the traceback says
        "id": "crash",
        "problem": "Print the square of the integer n read from stdin.",
        "steps": ["n = int(input())", "squares = {}\nprint(squares[n])", "print(n * n)"],
    },
    {  # split function body, unfenced: indentation survives the import
        "id": "split",
        "problem": "Print the square of the integer n read from stdin.",
        "steps": ["def square(x):", "    return x * x", "print(square(int(input())))"],
    },
]


def _import(tmp_path, rows) -> "ProjectFactory":
    project = ProjectFactory(name="code", domain="code")
    path = tmp_path / "code.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab", labels_as="none")
    return project


def _values(solution: Solution) -> dict[int, int]:
    rows = Suggestion.objects.filter(step__solution=solution, source="code")
    return dict(rows.values_list("step__index", "value"))


def test_code_run_labels_each_solution_from_the_problems_tests(tmp_path, sandbox):
    project = _import(tmp_path, ROWS)  # one problem: the tests came with its first row
    run = autolabel_run_create(project=project, sources=["code"])
    for chunk in autolabel_run_chunks(run=run):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    run = autolabel_run_refresh(run=run)
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 4, 0)

    by_id = {s.external_id: s for s in Solution.objects.filter(project=project)}
    # Passing tests are evidence on the last step ("tests pass"), not a +1 rating.
    assert _values(by_id["right"]) == {2: None} and by_id["right"].answer_correct is True
    assert _values(by_id["wrong"]) == {1: -1} and by_id["wrong"].answer_correct is False
    assert _values(by_id["crash"]) == {1: -1} and by_id["crash"].answer_correct is False
    assert _values(by_id["split"]) == {2: None}
    passed = Suggestion.objects.get(step__solution=by_id["right"], source="code")
    assert passed.evidence["kind"] == TESTS_PASS

    crash = Suggestion.objects.get(step__solution=by_id["crash"], source="code")
    assert crash.agent == "sandbox/python" and crash.evidence["error_in_step"] == 1
    assert "KeyError" in crash.evidence["traceback"]
    wrong = Suggestion.objects.get(step__solution=by_id["wrong"], source="code")
    assert wrong.evidence["failures"][0]["stdout"] == "6\n"


def test_code_run_without_tests_only_reports_crashes(tmp_path, sandbox):
    rows = [{**r, "tests": None, "problem": "No tests here."} for r in ROWS[1:3]]
    project = _import(tmp_path, [{**rows[0], "steps": ["x = 1", "print(x)"]}, rows[1]])
    run = autolabel_run_create(project=project, sources=["code"])
    for chunk in autolabel_run_chunks(run=run):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    by_id = {s.external_id: s for s in Solution.objects.filter(project=project)}
    assert _values(by_id["wrong"]) == {}  # clean code, nothing to compare against
    # Needs input nobody gives: inconclusive, never a false −1.
    assert _values(by_id["crash"]) == {}
