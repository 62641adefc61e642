"""The OpenAI-compatible backend: protocol details against stub servers, errors, and a real
`transformers serve` with the tiny model."""

import time

import pytest

from autolabel.completers import CompletionError, OpenAICompatibleCompleter
from autolabel.engines.base import SolutionInput
from autolabel.engines.rollout import RolloutEngine
from autolabel.errors import BackendUnavailable
from autolabel.prompts import rollout_prompt
from autolabel.rollouts import MemoryRolloutCache

from .servers import StubServer, free_port
from .tiny_model import BAD_STEP, GOLD, GOOD_STEPS, PROBLEM

STANDARD = {"model", "prompt", "messages", "n", "temperature", "top_p", "max_tokens", "stop"}
STANDARD |= {"seed"}
SAMPLING = {"temperature": 0.7, "top_p": 1.0, "max_tokens": 32}


def completions(texts_for):
    """A handler answering /v1/completions with texts_for(body) as choices."""

    def handle(path, body):
        if path != "/v1/completions":
            return 404, {"detail": "Not Found"}
        texts = texts_for(body)
        return 200, {"choices": [{"index": i, "text": t} for i, t in enumerate(texts)]}

    return handle


def test_a_server_that_honours_n_gets_one_request_per_prompt() -> None:
    handler = completions(lambda b: [f"{b['prompt']}-{i}" for i in range(b.get("n", 1))])
    with StubServer(handler) as stub:
        completer = OpenAICompatibleCompleter(f"{stub.url}/v1/", "m", api_key="sk-test")
        out = completer.complete(["a", "b"], n=3, stop=None, seed=5, **SAMPLING)
    assert out == [["a-0", "a-1", "a-2"], ["b-0", "b-1", "b-2"]]
    assert len(stub.requests) == 2 and completer.honours_n is True
    for path, body in stub.requests:
        assert path == "/v1/completions" and set(body) <= STANDARD
        assert body["n"] == 3 and body["seed"] == 5 and body["model"] == "m"
        assert isinstance(body["prompt"], str) and "stop" not in body
    assert stub.headers[0]["Authorization"] == "Bearer sk-test"
    assert completer.id == f"openai:{stub.url}/m"


def test_a_server_that_ignores_n_gets_one_request_per_choice_with_distinct_seeds() -> None:
    handler = completions(lambda b: [f"seed{b.get('seed')} STOP tail"])
    with StubServer(handler) as stub:
        completer = OpenAICompatibleCompleter(stub.url, "m")
        first = completer.complete(["p"], n=3, stop=[" STOP"], seed=10, **SAMPLING)
        assert first == [["seed10", "seed11", "seed12"]]  # the stop string is cut off
        # The first request asks for n; the two missing choices run concurrently.
        assert stub.requests[0][1]["n"] == 3
        assert sorted(b.get("seed") for _, b in stub.requests) == [10, 11, 12]
        assert completer.honours_n is False
        stub.requests.clear()
        second = completer.complete(["p", "q"], n=2, stop=None, seed=0, **SAMPLING)
    assert second == [["seed0 STOP tail", "seed1 STOP tail"]] * 2
    assert len(stub.requests) == 4 and all("n" not in b for _, b in stub.requests)
    assert sorted(b["seed"] for _, b in stub.requests) == [0, 0, 1, 1]


def test_a_closed_port_raises_backend_unavailable_quickly() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    completer = OpenAICompatibleCompleter(url, "m", backoff_s=0.1)
    started = time.monotonic()
    with pytest.raises(BackendUnavailable, match=f"{url}/v1/completions") as info:
        completer.complete(["x"] * 6, n=4, stop=None, seed=0, **SAMPLING)
    assert time.monotonic() - started < 3
    assert "ConnectError" in str(info.value) and "3 tries" in str(info.value)


def test_5xx_is_retried_then_unavailable_and_4xx_is_a_completion_error() -> None:
    with StubServer(lambda path, body: (503, {"detail": "loading"})) as stub:
        completer = OpenAICompatibleCompleter(stub.url, "m", max_retries=2, backoff_s=0.01)
        with pytest.raises(BackendUnavailable, match="HTTP 503"):
            completer.complete(["x"], n=1, stop=None, seed=None, **SAMPLING)
        assert len(stub.requests) == 3
    with StubServer(lambda path, body: (422, {"detail": "Unexpected fields"})) as stub:
        completer = OpenAICompatibleCompleter(stub.url, "m", backoff_s=0.01)
        with pytest.raises(CompletionError, match="HTTP 422: .*Unexpected fields") as info:
            completer.complete(["x"], n=1, stop=None, seed=None, **SAMPLING)
        assert info.value.status == 422 and len(stub.requests) == 1


def test_a_slow_server_times_out_into_backend_unavailable() -> None:
    def slow(path, body):
        time.sleep(1.5)
        return 200, {"choices": [{"index": 0, "text": "late"}]}

    with StubServer(slow) as stub:
        completer = OpenAICompatibleCompleter(stub.url, "m", timeout_s=0.3, max_retries=0)
        started = time.monotonic()
        with pytest.raises(BackendUnavailable, match="timed out"):
            completer.complete(["x"], n=1, stop=None, seed=None, **SAMPLING)
        assert time.monotonic() - started < 1.4


def test_chat_falls_back_to_completions_without_a_chat_route() -> None:
    handler = completions(lambda b: ["\\boxed{1}\n### User: more"])
    with StubServer(handler) as stub:
        completer = OpenAICompatibleCompleter(stub.url, "m")
        messages = [{"role": "user", "content": "Which paragraph?"}]
        out = completer.chat([messages], n=1, stop=None, seed=0, **SAMPLING)
        completer.chat([messages], n=1, stop=None, seed=0, **SAMPLING)
    assert out == [["\\boxed{1}"]]  # cut at the plain template's next user turn
    paths = [p for p, _ in stub.requests]
    assert paths == ["/v1/chat/completions", "/v1/completions", "/v1/completions"]
    assert stub.requests[1][1]["prompt"] == "### User:\nWhich paragraph?\n\n### Assistant:\n"


# --- a real server ------------------------------------------------------------------------


@pytest.fixture
def served(served_model, tiny_model):
    return OpenAICompatibleCompleter(served_model, str(tiny_model), timeout_s=30)


def test_transformers_serve_completions_with_n_and_stop(served) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(served.model)
    prompt = rollout_prompt(PROBLEM, GOOD_STEPS[:1], tokenizer=tokenizer).text
    [texts] = served.complete([prompt], n=3, stop=None, seed=0, **SAMPLING)
    assert texts == ["The answer is \\boxed{4}."] * 3
    assert served.honours_n is False  # `transformers serve` returns one choice
    [[cut]] = served.complete([prompt], n=1, stop=["boxed"], seed=0, **SAMPLING)
    assert cut == "The answer is \\"  # the server leaves "boxed" at the end


def test_rollout_engine_through_transformers_serve(served_model, tiny_model) -> None:
    backend = {
        "kind": "openai",
        "base_url": served_model,
        "model": str(tiny_model),
        "tokenizer": str(tiny_model),  # its chat template formats the prompts
    }
    steps = (GOOD_STEPS[0], BAD_STEP, GOOD_STEPS[1])
    result = RolloutEngine(cache=MemoryRolloutCache())(
        SolutionInput(PROBLEM, GOLD, steps, ""),
        {"backend": backend, "n": 2, "max_tokens": 24, "seed": 1},
    )
    assert [s.value for s in result.suggestions] == [1, -1, -1]
    assert [s.evidence["correct"] for s in result.suggestions] == [2, 0, 0]
    assert result.agent == f"mc:openai:{served_model}/{tiny_model}"
