"""The per-item sandbox budget (labeling/rules/code_tests.py): tests an imported problem carries
are bounded in the worker, for every run, whoever started it. Before, only a run's own
params.code.tests was capped (at creation, for non-staff): a problem with thousands of tests,
or tests that each ran to their timeout, held a worker for hours per item."""

import json
import time

import pytest

from autolabel.engines.base import SolutionInput
from autolabel.engines.code import CodeEngine
from autolabel.errors import ItemSkipped
from autolabel.models import ItemStatus, RunStatus
from autolabel.services import (
    autolabel_item_process,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
)
from labeling.models import Solution, Suggestion
from labeling.rules.code_tests import run_count
from labeling.services.imports import import_file
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

SQUARE = ["n = int(input())", "print(n * n)"]


def _import(tmp_path, rows):
    project = ProjectFactory(name="code", domain="code")
    path = tmp_path / "code.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    import_file(project=project, path=path, fmt="steplab", labels_as="none")
    return project


def _run(project, **params):
    run = autolabel_run_create(project=project, sources=["code"], params={"code": params})
    for chunk in autolabel_run_chunks(run=run):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    return autolabel_run_refresh(run=run)


def test_an_imported_problem_over_the_test_cap_is_skipped_in_words(tmp_path, sandbox, settings):
    """Imported while an operator allowed more; the cap lowered since: the item is not run."""
    settings.AUTOLABEL_LIMITS = {"code_tests": 1000}
    cases = [{"input": f"{i}\n", "output": f"{i * i}\n"} for i in range(300)]
    project = _import(tmp_path, [{"id": "many", "problem": "Square n.", "steps": SQUARE,
                                  "tests": cases}])  # fmt: skip
    settings.AUTOLABEL_LIMITS = {}
    started = time.monotonic()
    run = _run(project)
    assert time.monotonic() - started < 5  # 300 sandboxed runs would take far longer
    assert (run.status, run.done, run.failed) == (RunStatus.FAILED, 0, 1)  # its only item
    item = run.items.get()
    assert item.status == ItemStatus.FAILED
    assert item.error.startswith("skipped: over budget: 300 tests; at most 200")
    assert "AUTOLABEL_LIMITS['code_tests']" in item.error
    assert run.errors[0]["error"] == item.error  # the run's failures say so
    assert not Suggestion.objects.filter(source="code").exists()


def test_the_items_runs_share_one_wall_clock_budget(tmp_path, sandbox, settings):
    """Every test sleeps well within its own timeout; together they pass the item's budget:
    the item stops at the budget, and the test the budget cut short is no verdict."""
    steps = ["import time", "time.sleep(0.4)\nprint(int(input()) ** 2)"]
    cases = [{"input": f"{i}\n", "output": f"{i * i}\n"} for i in range(8)]
    project = _import(tmp_path, [{"id": "slow", "problem": "Square n.", "steps": steps,
                                  "tests": cases}])  # fmt: skip
    settings.AUTOLABEL_LIMITS = {"code_item_s": 1}
    started = time.monotonic()
    run = _run(project, all_tests=True)
    assert time.monotonic() - started < 3.5  # 8 × 0.4 s and more without the budget
    item = run.items.get()
    assert item.status == ItemStatus.FAILED, item.error
    assert item.error.startswith("skipped: over budget: its sandboxed runs took more than 1 s")
    assert not Suggestion.objects.filter(step__solution=item.solution_id).exists()
    # Within the budget the same item is labeled.
    settings.AUTOLABEL_LIMITS = {"code_item_s": 60}
    again = _run(project, all_tests=True)
    assert again.items.get().status == ItemStatus.DONE
    assert Solution.objects.get(pk=item.solution_id).answer_correct is True


def test_a_hanging_program_costs_the_budget_not_its_timeouts(sandbox):
    """Prefix runs count too: a solution of many steps that each loop to their timeout."""
    steps = tuple(f"x{i} = {i}\nwhile True: pass" for i in range(50))
    solution = SolutionInput(problem="p", gold_answer="", steps=steps, limits={"code_item_s": 1})
    started = time.monotonic()
    with pytest.raises(ItemSkipped, match="^skipped: over budget: its sandboxed runs"):
        CodeEngine()(solution, {"timeout_s": 30})
    assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    ("tests", "cap", "starts"),
    [
        ("assert True\n" * 201, "code_tests", "201 tests; at most 200"),
        ({"inputs": ["1"] * 201, "outputs": ["1"] * 201}, "code_tests", "201 tests"),
        ([{"input": "x" * 5_000_000, "output": ""}], "code_test_bytes", "5000"),
    ],
)
def test_tests_over_count_or_size_are_not_run(tests, cap, starts):
    solution = SolutionInput(problem="p", gold_answer="", steps=("print(1)",), tests=tests)
    with pytest.raises(ItemSkipped) as exc:
        CodeEngine()(solution, {})
    assert str(exc.value).startswith(f"skipped: over budget: {starts}")
    assert f"AUTOLABEL_LIMITS[{cap!r}]" in str(exc.value)


def test_the_count_is_the_sandboxed_runs():
    """Setup statements are not tests; code that does not parse runs nothing (its item fails
    in words at parse time)."""
    assert run_count("import math\ndef f(x):\n    return x\nassert f(1) == 1\nassert f(2)") == 2
    assert run_count({"code": "x = 1\nassert x"}) == 1
    assert run_count([{"input": "1"}] * 3) == 3
    assert run_count("assert (") == 0
