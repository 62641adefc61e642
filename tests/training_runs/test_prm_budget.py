"""The prm source's per-item wall budget (AUTOLABEL_LIMITS["prm_item_s"]), like the other
engines' (autolabel/deadline.py). Before, a chunk was scored at once with only the server's
per-request timeout and its retries: a hanging or slow vLLM server held the chunk (and raised
BackendUnavailable for all of it), and a local model had no bound at all. Now the item over
budget fails "skipped: over budget: ..." and the rest of the chunk is scored. The stub servers
listen on 127.0.0.1 only."""

from dataclasses import replace

import pytest

from autolabel.engines.base import SolutionInput
from autolabel.engines.prm import PrmEngine, clear_scorer_cache, scorer_of
from autolabel.errors import BackendUnavailable, ItemSkipped
from autolabel.models import ItemStatus
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.services import autolabel_run_create
from labeling.models import Solution, Suggestion
from tests.training_runs.vllm_stub import vllm_stub

STEPS = ("add the two numbers 3.", "then oops multiply by 4.", "check result so we 5.")
SERVED = "Qwen/Qwen2.5-Math-PRM-7B"


def solution(problem: str, item_s: float) -> SolutionInput:
    return SolutionInput(
        problem=problem, gold_answer="2", steps=STEPS, limits={"prm_item_s": item_s}
    )


@pytest.fixture(autouse=True)
def fresh_scorers():
    clear_scorer_cache()
    yield
    clear_scorer_cache()


@pytest.fixture
def stub():
    with vllm_stub() as server:
        yield server


def vllm_params(stub, **more) -> dict:
    base = {"convention": "qwen", "backend": "vllm", "url": stub.url, "model": SERVED}
    return {**base, "max_retries": 0, **more}


def test_a_hanging_server_fails_the_item_over_budget(stub):
    stub.delays = {"hang": None}
    with pytest.raises(ItemSkipped, match=r"^skipped: over budget: .*prm_item_s"):
        PrmEngine()(solution("hang here", 1.0), vllm_params(stub, timeout_s=20))
    assert len(stub.requests) == 0  # never answered


def test_a_slow_server_gets_no_retry_past_the_budget(stub):
    """Each try times out at 1 s of 6; the budget of 2.5 s ends the item, not 6 tries."""
    stub.delays = {"slow": 5.0}
    with pytest.raises(ItemSkipped, match="over budget"):
        PrmEngine()(solution("slow one", 2.5), vllm_params(stub, timeout_s=1, max_retries=5))
    assert len(stub.requests) <= 3


def test_a_slow_answer_within_the_budget_is_kept(stub):
    stub.delays = {"slow": 0.3}
    result = PrmEngine()(solution("slow one", 30.0), vllm_params(stub))
    assert [s.value for s in result.suggestions] == [1, -1, 1]


def test_a_prefetched_chunk_fails_only_the_hanging_item(stub):
    stub.delays = {"hang": None}
    engine = PrmEngine()
    params = vllm_params(stub, timeout_s=20)
    chunk = [solution(p, 1.0) for p in ("first", "hang here", "third")]
    assert engine.prefetch(chunk, params) == 3  # two scores and one failure kept
    assert [s.value for s in engine(chunk[0], params).suggestions] == [1, -1, 1]
    with pytest.raises(ItemSkipped, match="over budget"):
        engine(chunk[1], params)
    assert [s.value for s in engine(chunk[2], params).suggestions] == [1, -1, 1]
    assert len(stub.requests) == 2  # the hung one was not asked twice


def test_a_down_server_is_still_retried_by_the_task(stub):
    stub.statuses = [503] * 10
    engine = PrmEngine()
    chunk = [solution(p, 30.0) for p in ("a", "b")]
    assert engine.prefetch(chunk, vllm_params(stub)) == 0
    stub.statuses = [503]
    with pytest.raises(BackendUnavailable):
        engine(chunk[0], vllm_params(stub))


def test_a_run_skips_the_hanging_item_and_labels_the_rest(train_project, stub, settings):
    settings.AUTOLABEL_LIMITS = {"prm_item_s": 1}
    stub.delays = {"Problem 3:": None}
    ids = list(
        train_project.solutions.filter(annotations__isnull=True)
        .order_by("id")
        .values_list("pk", flat=True)
    )
    params = {"prm": vllm_params(stub, timeout_s=20)}
    run = autolabel_run_create(
        project=train_project, sources=["prm"], params=params, filter={"solution_ids": ids}
    )
    items = {i.solution_id: i for i in autolabel_chunk_process(run=run, solution_ids=ids)}
    hung = Solution.objects.get(pk__in=ids, problem__text__startswith="Problem 3:").pk
    assert items[hung].status == ItemStatus.FAILED
    assert items[hung].error.startswith("skipped: over budget:")
    assert "prm_item_s" in items[hung].error
    rest = [i for i in ids if i != hung]
    assert all(items[i].status == ItemStatus.DONE for i in rest), [items[i].error for i in rest]
    assert set(
        Suggestion.objects.filter(source="prm", step__solution_id__in=ids).values_list(
            "step__solution_id", flat=True
        )
    ) == set(rest)


# --- a local transformers PRM: stops at the first batch boundary past the deadline ----------


@pytest.fixture(scope="module")
def qwen_prm(tmp_path_factory: pytest.TempPathFactory):
    from tests.training.public_tiny import build_qwen_prm

    return build_qwen_prm(tmp_path_factory.mktemp("qwen-prm"))[0]


def slowed(params: dict, seconds_a_row: float) -> list[int]:
    """The loaded scorer's forward pass sleeps `seconds_a_row` per sequence; returns the
    batch sizes it ran."""
    import time

    _, scorer = scorer_of(params)
    forward, ran = scorer._scores, []

    def slow(batch, positions):
        ran.append(len(batch))
        time.sleep(seconds_a_row * len(batch))
        return forward(batch, positions)

    scorer._scores = slow
    return ran


def test_a_local_prm_past_its_budget_skips_the_item(qwen_prm):
    params = {"convention": "qwen", "path": str(qwen_prm)}
    slowed(params, 1.2)
    with pytest.raises(ItemSkipped, match="over budget"):
        PrmEngine()(solution("p", 1.0), params)


def test_a_local_prm_stops_at_the_batch_boundary_past_the_deadline(qwen_prm):
    from autolabel.deadline import ItemDeadline

    params = {"convention": "qwen", "path": str(qwen_prm)}
    ran = slowed(params, 0.6)
    _, scorer = scorer_of(params)
    items = [(f"problem {k}", list(STEPS)) for k in range(5)]
    deadline = ItemDeadline(1.0, limit="prm_item_s", spending="its scoring")
    with pytest.raises(ItemSkipped):
        scorer.score_many(items, batch_size=1, deadline=deadline)
    assert 1 <= len(ran) <= 2  # no pass started past the deadline (5 would take 3 s)


def test_a_prefetched_local_batch_over_budget_is_scored_item_by_item(qwen_prm):
    params = {"convention": "qwen", "path": str(qwen_prm), "batch_size": 3}
    # 1.0 s a row: 3.0 s for the batch, always over one item's 2.5; one item alone leaves 1.5 s
    # for the tiny model's own forward pass and the scorer, on a loaded CI machine too.
    ran = slowed(params, 1.0)
    engine = PrmEngine()
    chunk = [solution(f"problem {k}", 2.5) for k in range(3)]
    assert engine.prefetch(chunk, params) == 0
    for one in chunk:
        assert len(engine(replace(one), params).suggestions) == 3
    assert ran == [3, 1, 1, 1]
