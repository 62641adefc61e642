"""Beam search scored by the reward server (training/serve.py) instead of an in-process PRM."""

import json
import threading

import pytest

from autolabel.search import SearchConfig, beam_search
from autolabel.search.__main__ import main
from autolabel.search.remote import RemoteScorer
from training.serve import make_server

from .scripted import TableScorer, TreePolicy
from .test_beam import ANSWER_7, PROBLEM, SCORES, TREE, chars


@pytest.fixture
def reward_server():
    table = TableScorer(SCORES)
    srv = make_server(table.score_many, max_wait_ms=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_remote_scores_drive_the_same_search(reward_server):
    config = SearchConfig(beam_width=2, expansions=3, max_depth=5)
    scorer = RemoteScorer(reward_server.url, chunk=2)  # several requests per call
    remote = beam_search(PROBLEM, TreePolicy(PROBLEM, TREE, []), scorer, config, count_tokens=chars)
    local = beam_search(
        PROBLEM, TreePolicy(PROBLEM, TREE, []), TableScorer(SCORES), config, count_tokens=chars
    )
    assert remote.as_dict() == local.as_dict()
    assert remote.best.steps == ["b1", "b2", ANSWER_7]
    assert reward_server.batcher.items == 3 + 6 + 6  # every candidate prefix, once
    scorer.close()


def test_remote_errors_name_the_server(reward_server):
    scorer = RemoteScorer(reward_server.url + "/nowhere")
    with pytest.raises(RuntimeError, match="HTTP 404"):
        scorer.score_many([("p", ["a"])])


def test_cli_with_a_reward_url(reward_server, tmp_path):
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps({"problem": "What is 2 + 2?", "answer": "4"}) + "\n")
    out = tmp_path / "report.json"
    policy = json.dumps({"kind": "scripted", "default": 1.0})
    args = [str(problems), "--reward-url", reward_server.url, "--policy", policy]
    assert main([*args, "--max-depth", "3", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["problems"] == 1 and report["token_counter"] == "whitespace-words"
    assert report["rows"][0]["depth"] == 3 and report["rows"][0]["answer"] is None
    assert reward_server.batcher.items > 0
