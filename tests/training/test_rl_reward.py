"""examples/rl_reward.py: a TRL-style reward function against the running reward server."""

import importlib.util
import threading
from pathlib import Path

import pytest

from training.serve import prm_server

from .test_serve import direct, tiny_prm  # noqa: F401 - shared module fixtures

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_reward.py"


def load_example():
    spec = importlib.util.spec_from_file_location("rl_reward", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def url(tiny_prm):  # noqa: F811
    srv = prm_server(str(tiny_prm), device="cpu", max_batch=16, max_wait_ms=20)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.url
    srv.shutdown()
    srv.server_close()


PROMPT = "What is 2 + 3?"
COMPLETIONS = ["add the two numbers\nso we get 5\n", "oops check result 6", "\n\n"]


def test_string_prompts_and_completions(url, direct):  # noqa: F811
    module = load_example()
    reward = module.PRMReward(url, aggregate="min", empty_reward=-1.0)
    assert reward.separator == "\n"  # read from /health: the PRM's own separator
    assert reward.__name__ == "prm_min"
    got = reward(prompts=[PROMPT] * 3, completions=COMPLETIONS, answer=["5"] * 3)
    steps = direct.score_many(
        [(PROMPT, ["add the two numbers", "so we get 5"]), (PROMPT, ["oops check result 6"])]
    )
    assert len(got) == 3 and all(isinstance(r, float) for r in got)
    assert got[0] == pytest.approx(min(steps[0]), abs=1e-5)
    assert got[1] == pytest.approx(steps[1][0], abs=1e-5)
    assert got[2] == -1.0  # no step at all


def test_conversational_prompts_and_completions(url, direct):  # noqa: F811
    module = load_example()
    reward = module.PRMReward(url, aggregate="last")
    prompts = [[{"role": "system", "content": "Be brief."}, {"role": "user", "content": PROMPT}]]
    completions = [[{"role": "assistant", "content": COMPLETIONS[0]}]]
    got = reward(prompts=prompts, completions=completions)
    expected = direct.score_many([(PROMPT, ["add the two numbers", "so we get 5"])])[0][-1]
    assert got == [pytest.approx(expected, abs=1e-5)]


def test_bad_aggregate_is_refused_before_any_request():
    module = load_example()
    with pytest.raises(ValueError, match="aggregate"):
        module.PRMReward("http://127.0.0.1:9", aggregate="mean")
