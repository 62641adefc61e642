"""The prm source with a public PRM: its convention's params, a vLLM server's pooling and
classify answers, and a run that writes suggestions (a tiny Qwen2.5-Math-PRM-shaped model in
the worker, and a stand-in vLLM server on 127.0.0.1)."""

from pathlib import Path

import pytest

from autolabel.completers.vllm_pooling import PoolingError
from autolabel.engines.base import SolutionInput
from autolabel.engines.prm import PrmEngine, clear_scorer_cache
from autolabel.errors import BackendUnavailable
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.services import autolabel_run_create
from labeling.errors import ValidationFailed
from labeling.models import Solution, Suggestion
from tests.training_runs.vllm_stub import vllm_stub

STEPS = ("add the two numbers 3.", "then oops multiply by 4.", "check result so we 5.")
SOLUTION = SolutionInput(problem="Problem 1: what is 1 + 1?", gold_answer="2", steps=STEPS)
SERVED = "Qwen/Qwen2.5-Math-PRM-7B"


@pytest.fixture(autouse=True)
def fresh_scorers():
    clear_scorer_cache()
    yield
    clear_scorer_cache()


@pytest.fixture(scope="module")
def qwen_prm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.training.public_tiny import build_qwen_prm

    return build_qwen_prm(tmp_path_factory.mktemp("qwen-prm"))[0]


@pytest.fixture
def stub():
    with vllm_stub() as server:
        yield server


def vllm_params(stub, convention: str = "qwen", **more) -> dict:
    return {
        "convention": convention,
        "backend": "vllm",
        "url": stub.url,
        "model": SERVED,
        "max_retries": 0,
        **more,
    }


def test_qwen_on_a_vllm_server(stub):
    params = vllm_params(stub, task="token_classify", threshold=0.5)
    result = PrmEngine()(SOLUTION, params)
    assert result.agent == f"prm:qwen:{SERVED}"
    assert [s.value for s in result.suggestions] == [1, -1, 1]
    assert [s.evidence["probability"] for s in result.suggestions] == pytest.approx([0.9, 0.1, 0.9])
    assert result.suggestions[0].evidence["convention"] == "qwen"
    assert result.suggestions[0].evidence["calibration"] == {"measured": False}
    assert result.solution_evidence["first_error"] == 1
    ((route, body),) = stub.requests
    assert route == "/pooling"
    assert (body["model"], body["task"], body["add_generation_prompt"]) == (
        SERVED,
        "token_classify",
        False,
    )
    system, user, assistant = body["messages"]
    assert system["content"].startswith("Please reason step by step")
    assert user == {"role": "user", "content": SOLUTION.problem}
    assert assistant["content"] == "".join(f"{s}<extra_0>" for s in STEPS)


def test_math_shepherd_on_a_vllm_server_in_one_batch(stub):
    engine = PrmEngine()
    params = vllm_params(stub, "math-shepherd", batch_size=8)
    solutions = [SOLUTION, SolutionInput(problem="p", gold_answer="", steps=STEPS[:2])]
    assert engine.prefetch(solutions, params) == 2
    ((route, body),) = stub.requests
    assert route == "/pooling"
    assert (
        body["input"][1]
        == "p Step 1: add the two numbers 3. ки\nStep 2: then oops multiply by 4. ки"
    )
    values = [[s.value for s in engine(s, params).suggestions] for s in solutions]
    assert values == [[1, -1, 1], [1, -1]]
    assert len(stub.requests) == 1  # __call__ took the prefetched scores


@pytest.mark.parametrize("template, requests", [("plain", 1), ("chat", 3)])
def test_seq_cls_on_a_vllm_server(stub, template, requests):
    params = vllm_params(stub, "seq-cls", template=template)
    result = PrmEngine()(SOLUTION, params)
    assert [s.value for s in result.suggestions] == [1, -1, 1]
    assert {route for route, _ in stub.requests} == {"/classify"}
    assert len(stub.requests) == requests  # plain: one batch of 3 prefixes; chat: one each


def test_a_server_that_is_down_is_retried_by_the_task(stub):
    stub.statuses = [503, 503]
    with pytest.raises(BackendUnavailable, match="unavailable after 2 tries: HTTP 503"):
        PrmEngine()(SOLUTION, vllm_params(stub, max_retries=1))
    assert len(stub.requests) == 2


@pytest.mark.parametrize(
    "setup, message",
    [
        ({"statuses": [400]}, "refused: HTTP 400"),
        ({"drop_one": True}, "2 step scores for 3 steps"),
        ({"raw": True}, "is not a probability"),
    ],
)
def test_a_wrong_answer_fails_the_solution(stub, setup, message):
    for key, value in setup.items():
        setattr(stub, key, value)
    with pytest.raises(PoolingError, match=message):
        PrmEngine()(SOLUTION, vllm_params(stub))


@pytest.mark.parametrize(
    "params, message",
    [
        ({"convention": "bogus", "path": "."}, "convention must be one of"),
        ({"convention": "math-shepherd", "path": ".", "system": "x"}, "system do not apply"),
        ({"convention": "qwen", "backend": "vllm", "model": "m"}, "needs a url"),
        ({"convention": "qwen", "backend": "vllm", "url": "http://h:8000"}, "needs a model"),
        ({"convention": "qwen", "backend": "vllm", "url": "file:///etc", "model": "m"}, "http"),
        (
            {"convention": "qwen", "backend": "vllm", "url": "http://u:p@h/", "model": "m"},
            "user or password",
        ),
        ({"backend": "vllm", "url": "http://h", "model": "m"}, "pick its convention"),
        ({"convention": "qwen", "path": ".", "batch_size": 5000}, "batch_size"),
        ({"convention": "qwen", "path": ".", "max_length": 8}, "max_length"),
        ({"convention": "qwen", "path": ".", "dtype": "int4"}, "dtype"),
        ({"convention": "seq-cls", "path": ".", "template": "jinja"}, "template"),
        ({"convention": "math-shepherd", "path": ".", "step_tag": ""}, "step_tag"),
        (
            {"convention": "qwen", "backend": "vllm", "url": "http://h", "model": "m", "task": 1},
            "task",
        ),
        ({"convention": "qwen", "path": "/nonexistent"}, "not a saved model"),
    ],
)
def test_run_creation_checks_public_prm_params(train_project, params, message):
    with pytest.raises(ValidationFailed, match=message):
        autolabel_run_create(project=train_project, sources=["prm"], params={"prm": params})
    assert not train_project.autolabel_runs.exists()


def _run_and_process(project, params: dict) -> tuple[list[int], list]:
    ids = list(
        project.solutions.filter(annotations__isnull=True)
        .order_by("id")
        .values_list("pk", flat=True)
    )
    run = autolabel_run_create(
        project=project, sources=["prm"], params={"prm": params}, filter={"solution_ids": ids}
    )
    items = autolabel_chunk_process(run=run, solution_ids=ids)
    return ids, items


def test_a_run_with_a_registered_public_prm_in_the_worker_writes_suggestions(
    train_project, qwen_prm
):
    """A public PRM registered by path (the Training tab) and read by its convention (the
    Auto-label tab's "Reads as")."""
    from training_runs.services import prm_model_register

    model = prm_model_register(project=train_project, name="qwen-prm-7b", path=str(qwen_prm))
    ids, items = _run_and_process(
        train_project, {"model_id": model.pk, "convention": "qwen", "batch_size": 4}
    )
    assert len(items) == len(ids) == 6
    assert all(item.status == "done" for item in items), [i.error for i in items]
    rows = Suggestion.objects.filter(step__solution_id__in=ids, source="prm")
    steps = sum(Solution.objects.get(pk=i).steps.count() for i in ids)
    assert rows.count() == steps
    assert {r.agent for r in rows} == {"prm:qwen:qwen-prm-7b"}
    assert all(r.value in (-1, 1) and 0 < r.score < 1 for r in rows)
    assert {r.evidence["convention"] for r in rows} == {"qwen"}
    summary = Solution.objects.get(pk=ids[0]).metadata["prm"]
    assert summary["model"] == "qwen-prm-7b"


def test_a_run_with_a_public_prm_on_a_vllm_server(train_project, stub):
    ids, items = _run_and_process(train_project, vllm_params(stub))
    assert all(item.status == "done" for item in items), [i.error for i in items]
    rows = Suggestion.objects.filter(step__solution_id__in=ids, source="prm")
    assert rows.exists()
    for row in rows.select_related("step"):
        assert row.value == (-1 if "oops" in row.step.text else 1)
    assert len(stub.requests) == len(ids)  # one conversation per solution


def test_the_label_quality_harness_evaluates_a_public_prm(stub):
    """bench/label_quality.py's --prm-convention / --prm-url, on the public samples."""
    import json

    from autolabel.quality.harness import default_files, evaluate
    from bench.label_quality import parse_args, source_params

    served = json.dumps({"prm": {"model": SERVED, "max_retries": 0}})
    args = parse_args(
        ["--sources", "prm", "--prm-convention", "qwen", "--prm-url", stub.url, "--params", served]
    )
    params = source_params(args)
    assert params["prm"] == {
        "model": SERVED,
        "max_retries": 0,
        "convention": "qwen",
        "backend": "vllm",
        "url": stub.url,
    }
    report = evaluate(default_files(), ["prm"], params=params, limit=2)
    row = report["results"]["prm"]["all"]
    assert row["errors"] == {}
    assert row["solutions"] == 2 * len(default_files())
    assert row["coverage"] == 1.0
    assert len(stub.requests) == row["solutions"]


def test_label_quality_reads_a_local_public_prm_by_its_convention():
    from bench.label_quality import parse_args, source_params

    args = parse_args(["--sources", "prm", "--prm", "/m", "--prm-convention", "math-shepherd"])
    assert source_params(args)["prm"] == {
        "convention": "math-shepherd",
        "path": "/m",
        "device": "cpu",
    }


def test_a_chunk_with_one_input_past_max_length_scores_the_rest(qwen_prm):
    from training.public_scorer import InputTooLong

    engine = PrmEngine()
    params = {"convention": "qwen", "path": str(qwen_prm), "max_length": 200}
    long = SolutionInput(problem="what is 1 + 1? " * 40, gold_answer="2", steps=STEPS)
    assert engine.prefetch([SOLUTION, long, SOLUTION], params) == 2
    assert [s.value for s in engine(SOLUTION, params).suggestions]
    with pytest.raises(InputTooLong, match="more than max_length 200"):
        engine(long, params)
