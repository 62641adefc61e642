"""The per-item wall budget of the model engines (rollout_item_s, judge_item_s in
AUTOLABEL_LIMITS; autolabel/deadline.py): a model server that is slow or never answers costs an
item its budget, and the item is skipped in words. Before, each request waited its own timeout
(up to 300 s for a run, retried up to 5 times), so one stuck server held the chunk for hours."""

import threading
import time

import pytest

from autolabel.deadline import ItemDeadline
from autolabel.engines.base import SolutionInput
from autolabel.engines.judge import JUDGE_ITEM_S, JudgeEngine
from autolabel.engines.rollout import ROLLOUT_ITEM_S, RolloutEngine
from autolabel.errors import ItemSkipped
from autolabel.limits import DEFAULTS

from .servers import StubServer

STEPS = ("Let x = 2.", "Then 2x = 4.", "So x + 1 = 3.")


def _solution(**limits):
    return SolutionInput("Solve 2x = 4; what is x + 1?", "3", STEPS, "", limits=limits)


class Slow:
    """A model server that answers every request after `delay_s` (a hung one: never, until the
    test ends), counting the requests it got."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s, self.requests, self.done = delay_s, 0, threading.Event()

    def __call__(self, path, body):
        self.requests += 1
        self.done.wait(self.delay_s)
        text = "So the answer is $\\boxed{3}$."
        if path == "/v1/chat/completions":
            choice = {"index": 0, "message": {"role": "assistant", "content": "\\boxed{-1}"}}
        else:
            choice = {"index": 0, "text": text}
        return 200, {"choices": [choice] * body.get("n", 1)}


def _backend(stub):
    return {"kind": "openai", "base_url": stub.url, "model": "m", "timeout_s": 120,
            "max_retries": 3}  # fmt: skip


@pytest.fixture
def serve():
    """Starts a Slow server; its waiting handlers are released when the test ends."""
    started: list[tuple[StubServer, Slow]] = []

    def start(delay_s):
        slow = Slow(delay_s)
        started.append((StubServer(slow).__enter__(), slow))
        return started[-1]

    yield start
    for stub, slow in started:
        slow.done.set()
        stub.__exit__(None, None, None)


def test_the_defaults_are_the_engines_own():
    assert DEFAULTS["rollout_item_s"] == ROLLOUT_ITEM_S
    assert DEFAULTS["judge_item_s"] == JUDGE_ITEM_S


@pytest.mark.parametrize("method", ["mc", "binary_search"])
def test_a_hung_server_costs_the_rollout_budget_not_its_timeouts(serve, method):
    stub, _ = serve(3600)
    params = {"backend": _backend(stub), "method": method, "n": 2, "cache": False}
    started = time.monotonic()
    with pytest.raises(ItemSkipped) as exc:
        RolloutEngine()(_solution(rollout_item_s=0.5), params)
    assert time.monotonic() - started < 5  # 120 s × 4 tries without the budget
    assert str(exc.value).startswith(
        "skipped: over budget: its rollouts took more than 0.5 s together "
        "(AUTOLABEL_LIMITS['rollout_item_s']"
    )


def test_slow_probes_share_one_budget(serve):
    """Binary search: each probe answers well within its timeout; together they pass the item's
    budget, and no probe starts after it."""
    from autolabel.rollouts.grading import grade

    grade("$\\boxed{3}$", "3")  # the answer checker's first use imports sympy (seconds)
    stub, slow = serve(0.4)
    params = {"backend": _backend(stub), "method": "binary_search", "k": 1, "cache": False}
    steps = tuple(f"Step {i}: 1 + {i} = {i + 1}." for i in range(16))
    solution = SolutionInput("What is 1 + 2?", "3", steps, "", limits={"rollout_item_s": 1.0})
    started = time.monotonic()
    with pytest.raises(ItemSkipped, match="its rollouts took more than 1 s"):
        RolloutEngine()(solution, params)
    assert time.monotonic() - started < 4 and slow.requests <= 3
    # With room for them, the same probes label the item.
    result = RolloutEngine()(
        SolutionInput("What is 1 + 2?", "3", steps, "", limits={"rollout_item_s": 60}), params
    )
    assert result.suggestions


def test_a_hung_critic_costs_the_judge_budget(serve):
    stub, slow = serve(3600)
    started = time.monotonic()
    with pytest.raises(ItemSkipped) as exc:
        JudgeEngine()(_solution(judge_item_s=0.5), {"backend": _backend(stub), "votes": 3})
    assert time.monotonic() - started < 5
    assert str(exc.value).startswith(
        "skipped: over budget: its judge calls took more than 0.5 s together "
        "(AUTOLABEL_LIMITS['judge_item_s']"
    )
    assert slow.requests >= 1


def test_within_its_budget_the_judge_labels(serve):
    stub, _ = serve(0.05)
    result = JudgeEngine()(_solution(judge_item_s=30), {"backend": _backend(stub)})
    assert [s.value for s in result.suggestions] == [1, 1, 1]


def test_a_local_model_stops_at_the_budget(tiny_model):
    """transformers: a model that rambles to max_tokens (no end-of-text) is stopped at the
    deadline (generate's max_time), and the cut text is no sample; a call waiting for the model
    while another item's generate holds it gives up at its deadline too."""
    from autolabel.completers import TransformersCompleter

    completer = TransformersCompleter(tiny_model)
    completer.model.generation_config.eos_token_id = None  # it never ends on its own
    ask = {"n": 4, "max_tokens": 200, "temperature": 1.0}
    started = time.monotonic()
    completer.complete(["What is 2 + 2?"] * 4, **ask)
    unbounded = time.monotonic() - started
    deadline = ItemDeadline(unbounded / 4, limit="rollout_item_s", spending="its rollouts")
    started = time.monotonic()
    with pytest.raises(ItemSkipped, match="its rollouts took more than"):
        completer.complete(["What is 2 + 2?"] * 4, deadline=deadline, **ask)
    assert time.monotonic() - started < unbounded * 0.75
    with completer._lock:  # another item's generate
        deadline = ItemDeadline(0.2, limit="rollout_item_s", spending="its rollouts")
        with pytest.raises(ItemSkipped):
            completer.complete(["What is 2 + 2?"], deadline=deadline, **ask)


@pytest.mark.django_db
def test_a_runs_item_past_its_budget_fails_in_words(serve, settings):
    """Through a run: the item fails with the reason, the chunk moves on, nothing is stored."""
    from autolabel.models import ItemStatus
    from autolabel.services import (
        autolabel_item_process,
        autolabel_run_chunks,
        autolabel_run_create,
        autolabel_run_refresh,
    )
    from labeling.models import Suggestion
    from tests.factories import SolutionFactory

    stub, _ = serve(3600)
    first = SolutionFactory(steps=2)
    SolutionFactory(problem__project=first.project, steps=2)
    settings.AUTOLABEL_LIMITS = {"rollout_item_s": 0.4}
    run = autolabel_run_create(
        project=first.project,
        sources=["rollout"],
        params={"rollout": {"backend": _backend(stub), "n": 2, "cache": False}},
    )
    started = time.monotonic()
    for chunk in autolabel_run_chunks(run=run):
        for solution_id in chunk:
            autolabel_item_process(run=run, solution_id=solution_id)
    run = autolabel_run_refresh(run=run)
    assert time.monotonic() - started < 5
    assert run.failed == 2 and all(i.status == ItemStatus.FAILED for i in run.items.all())
    error = run.items.first().error
    assert error.startswith("skipped: over budget: its rollouts took more than 0.4 s together")
    assert run.errors[0]["error"] == error
    assert not Suggestion.objects.filter(source="rollout").exists()


def test_no_budget_is_no_limit(serve):
    """A deadline without seconds (a caller outside a run) waits for the server as before."""
    from autolabel.completers import OpenAICompatibleCompleter

    stub, _ = serve(0.05)
    unbounded = ItemDeadline(None, limit="rollout_item_s", spending="its rollouts")
    completer = OpenAICompatibleCompleter(stub.url, "m")
    out = completer.complete(["p"], n=2, max_tokens=8, deadline=unbounded)
    assert len(out[0]) == 2
