"""The PRM reward server: micro-batching across concurrent clients, the HTTP contract, the CLI."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import torch

from training.data import Tokenization
from training.model import load_model, load_tokenizer, save_prm
from training.score import PRMScorer
from training.serve import MicroBatcher, build_parser, make_server, prm_server

REPO = Path(__file__).resolve().parents[2]
ITEMS = [
    {"prompt": "What is 2 + 3?", "steps": ["add the two numbers", "so we get 5"]},
    {"prompt": "What is 2 + 3?", "steps": ["oops check result 6"]},
    {"prompt": "Problem 7: what is 7 + 7?", "steps": ["multiply by three", "then add", "so 9"]},
    {"prompt": "What is 1 + 1?", "steps": []},
]


@pytest.fixture(scope="module")
def tiny_prm(tiny_lm, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("serve-prm")
    torch.manual_seed(0)
    model = load_model(tiny_lm).eval()
    with torch.no_grad():  # a non-trivial head: steps get different scores
        for p in model.score.parameters():
            p.add_(torch.randn_like(p))
    save_prm(model, load_tokenizer(tiny_lm), out, settings=Tokenization(step_separator="\n"))
    return out


@pytest.fixture(scope="module")
def direct(tiny_prm) -> PRMScorer:
    return PRMScorer(tiny_prm, device="cpu")


@pytest.fixture
def server(tiny_prm):
    srv = prm_server(str(tiny_prm), device="cpu", max_batch=64, max_wait_ms=300)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def post(url: str, body, *, raw: bytes | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as reply:
        return json.loads(reply.read())


def assert_close(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g == pytest.approx(e, abs=1e-5)


# --- the batcher on its own ----------------------------------------------------------------


def test_batcher_groups_waiting_items_and_respects_max_batch():
    release = threading.Event()
    calls: list[list[tuple[str, list[str]]]] = []

    def score_many(items):
        calls.append(list(items))
        if len(calls) == 1:
            release.wait(10)  # hold the worker so that the other requests queue up
        return [[len(p) + len(s) for s in steps] for p, steps in items]

    batcher = MicroBatcher(score_many, max_batch=5, max_wait_s=0.0)
    first = [("a", ["x"])]
    requests = [[(f"p{i}", ["s" * j for j in range(1, i + 2)])] * 2 for i in range(4)]
    with ThreadPoolExecutor(5) as pool:
        head = pool.submit(batcher.score, first)
        while not calls:
            time.sleep(0.01)
        futures = [pool.submit(batcher.score, r) for r in requests]
        while len(batcher._queue) < 8:  # every request is queued behind the held batch
            time.sleep(0.01)
        release.set()
        assert head.result() == [[2]]
        results = [f.result() for f in futures]
    for request, result in zip(requests, results, strict=True):
        assert result == [[len(p) + len(s) for s in steps] for p, steps in request]
    # 8 queued items in passes of at most 5: 5 + 3, not one pass per request
    assert batcher.batch_sizes == [1, 5, 3]
    assert batcher.batches == 3 and batcher.items == 9
    batcher.close()


def test_batcher_waits_for_more_items_up_to_max_wait():
    sizes = []

    def score_many(items):
        sizes.append(len(items))
        return [[0.5] * len(s) for _, s in items]

    batcher = MicroBatcher(score_many, max_batch=100, max_wait_s=0.5)
    barrier = threading.Barrier(6)

    def client(i):
        barrier.wait()
        return batcher.score([(f"p{i}", ["a", "b"])])

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(client, range(6)))
    assert results == [[[0.5, 0.5]]] * 6
    assert sum(sizes) == 6 and len(sizes) <= 2  # one window, two at worst on a loaded machine
    batcher.close()


def test_a_failing_pass_fails_its_callers_and_the_batcher_goes_on():
    state = {"fail": True}

    def score_many(items):
        if state["fail"]:
            raise RuntimeError("CUDA out of memory")
        return [[1.0] * len(s) for _, s in items]

    batcher = MicroBatcher(score_many, max_batch=4, max_wait_s=0.0)
    with pytest.raises(RuntimeError, match="out of memory"):
        batcher.score([("p", ["a"])])
    state["fail"] = False
    assert batcher.score([("p", ["a", "b"])]) == [[1.0, 1.0]]
    batcher.close()


# --- the HTTP server with a real PRM -------------------------------------------------------


def test_concurrent_clients_get_the_scorers_rewards_in_shared_batches(server, direct):
    url = server.url + "/v1/rewards"
    requests = [[ITEMS[i % 3], ITEMS[(i + 1) % 4]] for i in range(8)]
    barrier = threading.Barrier(len(requests))

    def client(items):
        barrier.wait()
        return post(url, {"items": items})

    with ThreadPoolExecutor(len(requests)) as pool:
        replies = list(pool.map(client, requests))
    for items, (status, body) in zip(requests, replies, strict=True):
        assert status == 200
        expected = direct.score_many([(i["prompt"], i["steps"]) for i in items], batch_size=1)
        for got, want in zip(body["step_rewards"], expected, strict=True):
            assert_close(got, want)
        assert "rewards" not in body and body["aggregate"] == "none"
    health = get(server.url + "/health")
    assert health["items"] == 16
    # 8 requests arriving together share forward passes (max wait 300 ms)
    assert 1 <= health["batches"] <= 3
    assert health["batches"] == server.batcher.batches < len(requests)


def test_aggregates(server, direct):
    steps = direct.score_many([(i["prompt"], i["steps"]) for i in ITEMS])
    expected = {
        "min": [min(s) if s else 0.0 for s in steps],
        "last": [s[-1] if s else 0.0 for s in steps],
        "product": [float(torch.tensor(s).prod()) if s else 0.0 for s in steps],
    }
    for aggregate, want in expected.items():
        status, body = post(server.url + "/v1/rewards", {"items": ITEMS, "aggregate": aggregate})
        assert status == 200 and body["aggregate"] == aggregate
        assert_close(body["rewards"], want)
        assert body["step_rewards"][3] == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "must be a JSON object"),
        ({}, "items must be a non-empty list"),
        ({"items": []}, "items must be a non-empty list"),
        ({"items": [ITEMS[0]], "aggregate": "mean"}, "aggregate must be one of"),
        ({"items": [ITEMS[0]], "extra": 1}, "unknown fields: ['extra']"),
        ({"items": ["text"]}, "items[0] must be an object"),
        ({"items": [{"steps": ["a"]}]}, "items[0].prompt must be a string"),
        ({"items": [ITEMS[0], {"prompt": "p", "steps": "a"}]}, "items[1].steps must be a list"),
        ({"items": [{"prompt": "p", "steps": ["a", 3]}]}, "items[0].steps must be a list"),
        ({"items": [ITEMS[0]] * 1025}, "at most 1024 items"),
    ],
)
def test_bad_requests_get_a_400_that_says_why(server, body, message):
    status, reply = post(server.url + "/v1/rewards", body)
    assert status == 400
    assert reply["error"]["code"] == "invalid"
    assert message in reply["error"]["message"]
    assert server.batcher.items == 0


def test_not_json_and_unknown_routes(server):
    status, reply = post(server.url + "/v1/rewards", None, raw=b"{not json")
    assert status == 400 and "not JSON" in reply["error"]["message"]
    status, reply = post(server.url + "/v1/other", {"items": ITEMS})
    assert status == 404
    health = get(server.url + "/health")
    assert health["status"] == "ok" and health["step_separator"] == "\n"
    assert health["max_batch"] == 64 and health["batches"] == 0


def test_a_scoring_failure_is_a_500_and_the_server_stays_up():
    def score_many(items):
        if any(p == "boom" for p, _ in items):
            raise RuntimeError("scorer broke")
        return [[0.25] * len(s) for _, s in items]

    srv = make_server(score_many, max_wait_ms=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        status, reply = post(srv.url + "/v1/rewards", {"items": [{"prompt": "boom", "steps": []}]})
        assert status == 500 and "scorer broke" in reply["error"]["message"]
        status, reply = post(srv.url + "/v1/rewards", {"items": [{"prompt": "ok", "steps": ["a"]}]})
        assert status == 200 and reply["step_rewards"] == [[0.25]]
    finally:
        srv.shutdown()
        srv.server_close()


def test_binds_loopback_by_default():
    srv = make_server(lambda items: [[] for _ in items])
    try:
        assert srv.server_address[0] == "127.0.0.1"
    finally:
        srv.server_close()
    assert build_parser().parse_args(["--model", "m"]).host == "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cli_serves_the_model(tiny_prm, direct):
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "training.serve", "--model", str(tiny_prm)]
    command += ["--port", str(port), "--device", "cpu"]
    process = subprocess.Popen(command, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                health = get(f"http://127.0.0.1:{port}/health")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the server did not start: {process.stderr.read()}")
                time.sleep(0.2)
        assert health["model"] == str(tiny_prm)
        status, body = post(f"http://127.0.0.1:{port}/v1/rewards", {"items": ITEMS[:1]})
        assert status == 200
        assert_close(
            body["step_rewards"][0], direct.score_many([("What is 2 + 3?", ITEMS[0]["steps"])])[0]
        )
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_keep_alive_connections_survive_refusals_and_huge_bodies_are_refused():
    import http.client

    srv = make_server(lambda items: [[0.5] * len(s) for _, s in items], max_wait_ms=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    host, port = srv.server_address[:2]
    body = json.dumps({"items": [{"prompt": "p", "steps": ["a", "b"]}]})
    try:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        for route, status in [("/v1/nope", 404), ("/v1/rewards", 200)]:
            conn.request("POST", route, body=body, headers={"Content-Type": "application/json"})
            reply = conn.getresponse()
            data = json.loads(reply.read())
            assert reply.status == status, data
        assert data["step_rewards"] == [[0.5, 0.5]]  # the refused body did not leak into it
        conn.close()
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.putrequest("POST", "/v1/rewards")
        conn.putheader("Content-Length", str(64 << 20))
        conn.endheaders()
        reply = conn.getresponse()
        assert reply.status == 413
        assert json.loads(reply.read())["error"]["code"] == "too_large"
        conn.close()
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_burst_of_64_clients_connecting_at_once_is_served():
    # With socketserver's default listen backlog (5), most of these got connection resets.
    srv = make_server(lambda items: [[0.5] * len(s) for _, s in items], max_wait_ms=20)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    barrier = threading.Barrier(64)

    def client(i):
        barrier.wait()
        return post(srv.url + "/v1/rewards", {"items": [{"prompt": f"p{i}", "steps": ["a"]}]})

    try:
        with ThreadPoolExecutor(64) as pool:
            replies = list(pool.map(client, range(64)))
    finally:
        srv.shutdown()
        srv.server_close()
    assert [status for status, _ in replies] == [200] * 64
    assert srv.batcher.items == 64 and srv.batcher.batches < 64
