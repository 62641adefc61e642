"""A real (tiny) transformers model through TransformersCompleter's normal loading path."""

import math

import pytest

from autolabel.completers import TransformersCompleter, completer_from_config
from autolabel.engines.base import SolutionInput
from autolabel.engines.rollout import RolloutEngine
from autolabel.prompts import rollout_prompt
from autolabel.rollouts import MemoryRolloutCache

from .tiny_model import BAD_STEP, GOLD, GOOD_STEPS, PROBLEM

STEPS = (GOOD_STEPS[0], GOOD_STEPS[1], BAD_STEP, GOOD_STEPS[2])


@pytest.fixture
def completer(tiny_model):
    return TransformersCompleter(tiny_model)


def test_loads_with_a_stable_id_and_the_chat_template(completer, tiny_model) -> None:
    assert (
        completer.id.startswith(f"hf:{tiny_model.name}@") and len(completer.id.split("@")[1]) == 12
    )
    assert TransformersCompleter(tiny_model).id == completer.id
    prompt = rollout_prompt(PROBLEM, STEPS[:1], tokenizer=completer.tokenizer).text
    assert prompt.startswith("<|im_start|>user\nWhat is 2 + 2?")
    assert prompt.endswith("<|im_start|>assistant\nWe add the numbers.\n")


def test_samples_n_texts_per_prompt_deterministically(completer) -> None:
    prompts = [rollout_prompt(PROBLEM, s, tokenizer=completer.tokenizer).text for s in ([], STEPS)]
    settings = {"n": 3, "temperature": 1.0, "top_p": 1.0, "max_tokens": 24, "stop": None}
    first = completer.complete(prompts, seed=7, **settings)
    assert [len(t) for t in first] == [3, 3]
    assert first == completer.complete(prompts, seed=7, **settings)
    # A prompt's texts do not depend on the other prompts in the call.
    assert completer.complete(prompts[1:], seed=7, **settings) == first[1:]
    assert "boxed{4}" in first[0][0] and "boxed{5}" in first[1][0]
    # Sampling from an unfamiliar prompt differs between seeds.
    odd = ["zq"]
    outs = {tuple(completer.complete(odd, seed=s, **settings)[0]) for s in range(4)}
    assert len(outs) > 1
    # ... and is reproduced by the same seed.
    assert completer.complete(odd, seed=2, **settings) == completer.complete(
        odd, seed=2, **settings
    )


def test_stop_strings_are_cut_and_greedy_decoding_works(completer) -> None:
    prompt = rollout_prompt(PROBLEM, [], tokenizer=completer.tokenizer).text
    [[full]] = completer.complete(
        [prompt], n=1, temperature=0.0, top_p=1.0, max_tokens=24, stop=None, seed=None
    )
    assert full == "The answer is \\boxed{4}."
    [[cut]] = completer.complete(
        [prompt], n=1, temperature=0.0, top_p=1.0, max_tokens=24, stop=["boxed"], seed=None
    )
    assert cut == "The answer is \\"


def test_chat_uses_the_template(completer) -> None:
    [[reply]] = completer.chat(
        [[{"role": "user", "content": f"{PROBLEM}\n\nPlease reason step by step, and put your "
           "final answer within \\boxed{}."}]],
        n=1, temperature=0.0, top_p=1.0, max_tokens=24, stop=None, seed=0,
    )  # fmt: skip
    assert reply == "The answer is \\boxed{4}."


@pytest.mark.parametrize("method", ["mc", "binary_search"])
def test_rollout_engine_end_to_end_finds_the_planted_error(tiny_model, method) -> None:
    params = {
        "backend": {"kind": "transformers", "path": str(tiny_model)},
        "method": method,
        "n": 4,
        "k": 4,
        "max_tokens": 24,
        "seed": 0,
    }
    result = RolloutEngine(cache=MemoryRolloutCache())(
        SolutionInput(PROBLEM, GOLD, STEPS, ""), params
    )
    values = {s.step_index: s.value for s in result.suggestions}
    if method == "mc":
        assert values == {0: 1, 1: 1, 2: -1, 3: -1}
        assert [s.evidence["correct"] for s in result.suggestions] == [4, 4, 0, 0]
    else:
        assert values == {0: 1, 1: 1, 2: -1}
        sampled = result.suggestions[0].evidence["solution_rollouts"]["sampled"]
        assert sampled <= 4 * math.ceil(math.log2(len(STEPS))) + 4
    completer = completer_from_config(params["backend"])
    assert result.agent == f"{method}:{completer.id}"
    assert "boxed{5}" in result.suggestions[2].evidence["sample_wrong"]


def test_gguf_path_needs_a_real_directory(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        TransformersCompleter(tmp_path / "missing" / "model.gguf")
