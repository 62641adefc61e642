"""A stand-in vLLM server on 127.0.0.1 answering /pooling and /classify in vLLM's documented
shapes: ``{"data": [{"index": i, "data": [[p0, p1], ...]}]}`` (one pair per step tag, STEP
pooling) and ``{"data": [{"index": i, "probs": [...], "num_classes": 2}]}``. A step that says
"oops" is wrong (P(correct) 0.1), any other right (0.9), so scores follow the steps' text."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SEPARATOR = "<extra_0>"


def p_correct(step: str) -> float:
    return 0.1 if "oops" in step else 0.9


@dataclass
class Stub:
    url: str = ""
    requests: list[tuple[str, dict]] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)  # answered first, one per request
    drop_one: bool = False  # one step score too few
    raw: bool = False  # logits, not probabilities
    # A request whose body mentions a key waits that many seconds before it is answered
    # (a slow server), or until the stub shuts down when it is None (a hanging one).
    delays: dict[str, float | None] = field(default_factory=dict)
    released: threading.Event = field(default_factory=threading.Event)

    def wait_if_told(self, raw: bytes) -> None:
        for key, seconds in self.delays.items():
            if key.encode() in raw:
                self.released.wait(seconds)

    def answer(self, route: str, body: dict) -> tuple[int, Any]:
        self.requests.append((route, body))
        if self.statuses:
            status = self.statuses.pop(0)
            return status, {"object": "error", "message": f"stub {status}", "code": status}
        if route == "/pooling" and "messages" in body:  # Qwen2ForProcessRewardModel, STEP
            steps = body["messages"][-1]["content"].split(SEPARATOR)[:-1]
            entries = [[[1 - p_correct(s), p_correct(s)] for s in steps]]
        elif route == "/pooling":  # Math-Shepherd: [P(+), P(-)] per " ки"
            entries = [
                [[p_correct(line), 1 - p_correct(line)] for line in text.split("\n")]
                for text in body["input"]
            ]
        elif route == "/classify":
            texts = [body["messages"][-1]["content"]] if "messages" in body else list(body["input"])
            last = [t.split("\n\n")[-1] for t in texts]
            return 200, {
                "object": "list",
                "data": [
                    {"index": i, "label": "1", "probs": [1 - p_correct(s), p_correct(s)]}
                    for i, s in enumerate(last)
                ],
            }
        else:
            return 404, {"detail": "Not Found"}
        if self.drop_one:
            entries = [e[:-1] for e in entries]
        if self.raw:
            entries = [[[3.5, -2.0] for _ in e] for e in entries]
        data = [{"index": i, "object": "pooling", "data": e} for i, e in enumerate(entries)]
        return 200, {"id": "pool-1", "object": "list", "data": data, "usage": {}}


@contextmanager
def vllm_stub() -> Iterator[Stub]:
    stub = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            stub.wait_if_told(raw)
            status, payload = stub.answer(self.path, json.loads(raw))
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        stub.released.set()
        server.shutdown()
        server.server_close()
