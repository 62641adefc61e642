import json

import pytest

from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus
from autolabel.services import (
    autolabel_item_process,
    autolabel_run_cancel,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
)
from autolabel.symbolic import check_step
from labeling.errors import Conflict, ValidationFailed
from labeling.models import Solution, Suggestion
from tests.conftest import PROCESSBENCH

pytestmark = pytest.mark.django_db


def _some(project, n=15) -> dict:
    ids = Solution.objects.filter(project=project).order_by("id").values_list("id", flat=True)
    return {"solution_ids": list(ids[:n])}


def _run_inline(run):
    for chunk in autolabel_run_chunks(run=run, size=25):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    return autolabel_run_refresh(run=run)


def test_symbolic_and_answer_run_fills_suggestions_and_answers(pb_project):
    run = autolabel_run_create(project=pb_project, sources=["answer", "symbolic"])
    assert run.total == 100
    run = _run_inline(run)
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 100, 0)

    # Every verified/refuted step verdict became exactly one suggestion, nothing else.
    # A verified step is evidence ("checks out", no rating), a refuted one a −1.
    expected: dict[str, int] = {"verified": 0, "refuted": 0}
    for solution in Solution.objects.filter(project=pb_project).prefetch_related("steps"):
        texts = [s.text for s in solution.steps.order_by("index")]
        for i, text in enumerate(texts):
            verdict = check_step(text, previous_steps=texts[:i], problem=solution.problem.text)
            if verdict.verdict in expected:
                expected[verdict.verdict] += 1
    symbolic = Suggestion.objects.filter(step__solution__project=pb_project, source="symbolic")
    assert symbolic.count() == sum(expected.values()) == run.suggestions_written
    assert expected["verified"] > 0
    checks_out = symbolic.filter(value__isnull=True)
    assert checks_out.count() == expected["verified"]
    assert {s.evidence["kind"] for s in checks_out} == {"checks out"}
    assert all(s.evidence["claims"] for s in checks_out)
    assert symbolic.filter(value=-1).count() == expected["refuted"]
    assert not symbolic.filter(value=1).exists()
    refuted = symbolic.filter(value=-1).first()
    assert refuted is None or refuted.evidence["failed"]

    # The answer check agrees with ProcessBench's final_answer_correct on most rows.
    rows = {f"processbench:{r['id']}": r for r in map(json.loads, PROCESSBENCH.open())}
    checked = Solution.objects.filter(project=pb_project, answer_correct__isnull=False)
    assert checked.count() >= 80
    agree = sum(
        rows[s.external_id]["final_answer_correct"] == s.answer_correct
        for s in checked
        if s.external_id in rows
    )
    assert agree / checked.count() > 0.9


def test_redelivered_chunk_changes_nothing(pb_project):
    run = autolabel_run_create(project=pb_project, sources=["symbolic"], filter=_some(pb_project))
    run = _run_inline(run)
    before = list(Suggestion.objects.order_by("id").values_list("id", "value", "updated_at"))
    for item in AutolabelItem.objects.filter(run=run)[:10]:
        assert autolabel_item_process(run=run, solution_id=item.solution_id) is None
    assert list(Suggestion.objects.order_by("id").values_list("id", "value", "updated_at")) == (
        before
    )


def test_a_second_run_upserts_instead_of_duplicating(pb_project):
    some = _some(pb_project)
    _run_inline(autolabel_run_create(project=pb_project, sources=["symbolic"], filter=some))
    count = Suggestion.objects.count()
    assert count > 0
    _run_inline(autolabel_run_create(project=pb_project, sources=["symbolic"], filter=some))
    assert Suggestion.objects.count() == count


def test_engine_error_fails_only_that_item(pb_project, monkeypatch):
    from autolabel.registry import ENGINES

    run = autolabel_run_create(project=pb_project, sources=["symbolic"], filter=_some(pb_project))
    victim = run.items.order_by("solution_id").first().solution_id
    real = ENGINES["symbolic"]

    class Exploding:
        name, queue = real.name, real.queue

        def __call__(self, solution, params):
            if solution.problem == Solution.objects.get(pk=victim).problem.text:
                raise ZeroDivisionError("boom")
            return real(solution, params)

    monkeypatch.setitem(ENGINES, "symbolic", Exploding())
    run = _run_inline(run)
    assert (run.done, run.failed, run.status) == (14, 1, RunStatus.DONE)
    assert run.errors == [{"solution_id": victim, "error": "ZeroDivisionError: boom"}]
    assert AutolabelItem.objects.get(run=run, solution_id=victim).status == ItemStatus.FAILED


def test_unknown_source_and_cancel(pb_project):
    with pytest.raises(ValidationFailed):
        autolabel_run_create(project=pb_project, sources=["nope"])
    run = autolabel_run_create(
        project=pb_project, sources=["symbolic"], filter={"solution_ids": []}
    )
    run = autolabel_run_cancel(run=run)
    assert run.status == RunStatus.CANCELLED
    assert autolabel_run_cancel(run=run).status == RunStatus.CANCELLED  # idempotent
    AutolabelRun.objects.filter(pk=run.pk).update(status=RunStatus.DONE)
    with pytest.raises(Conflict):
        autolabel_run_cancel(run=run)


def test_rollout_binary_search_run_with_a_scripted_backend(db):
    """The rollout engine through the orchestrator: evidence carries counts and the method."""
    from tests.factories import ProjectFactory, SolutionFactory

    project = ProjectFactory()
    for _ in range(3):
        SolutionFactory(problem__project=project, problem__answer="4", steps=4)
    params = {
        "rollout": {
            "backend": {"kind": "scripted", "default": 1.0, "name": "always-right"},
            "method": "binary_search",
            "k": 4,
        }
    }
    run = _run_inline(autolabel_run_create(project=project, sources=["rollout"], params=params))
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 3, 0), run.errors
    rollouts = Suggestion.objects.filter(source="rollout")
    assert rollouts.exists()
    assert rollouts.first().evidence["method"] == "binary_search"
    assert not rollouts.filter(value=-1).exists()  # every rollout succeeds: no error found


def test_a_model_source_without_a_backend_is_refused_up_front(pb_project):
    with pytest.raises(ValidationFailed, match="params.judge.backend"):
        autolabel_run_create(project=pb_project, sources=["judge"], params={"judge": {}})
    with pytest.raises(ValidationFailed, match="needs"):
        autolabel_run_create(
            project=pb_project,
            sources=["rollout"],
            params={"rollout": {"backend": {"kind": "openai"}}},
        )


def test_consensus_runs_after_the_sources_it_combines(db):
    """Two scripted rollout agents stand in for MC and judge: required = two rollout runs."""
    from tests.factories import ProjectFactory, SolutionFactory, SuggestionFactory

    project = ProjectFactory()
    agree = SolutionFactory(problem__project=project, steps=3)
    differ = SolutionFactory(problem__project=project, steps=3)
    for solution, judge_error in ((agree, 1), (differ, 2)):
        steps = list(solution.steps.order_by("index"))
        for i, step in enumerate(steps[:2]):
            SuggestionFactory(step=step, source="rollout", agent="mc", value=1 if i < 1 else -1)
        for i, step in enumerate(steps[: judge_error + 1]):
            value = -1 if i == judge_error else 1
            SuggestionFactory(step=step, source="judge", agent="critic", value=value)
    run = _run_inline(autolabel_run_create(project=project, sources=["consensus"]))
    assert (run.done, run.failed) == (2, 0), run.errors
    got = Suggestion.objects.filter(source="consensus")
    assert sorted(got.values_list("step__solution_id", "step__index", "value")) == [
        (agree.id, 0, 1),
        (agree.id, 1, -1),
    ]
    agree.refresh_from_db()
    differ.refresh_from_db()
    assert agree.metadata["consensus"]["consensus"] is True
    assert differ.metadata["consensus"]["consensus"] is False
    assert differ.metadata["consensus"]["first_errors"] == {"rollout": 1, "judge": 2}
