"""Serve a trained PRM over HTTP: step rewards for RL, micro-batched across clients.

    python -m training.serve --model DIR [--host 127.0.0.1] [--port 8100]
        [--max-batch 32] [--max-wait-ms 10] [--device cuda] [--max-items 1024]

    POST /v1/rewards
      {"items": [{"prompt": "...", "steps": ["...", "..."]}, ...], "aggregate": "min"}
    →  {"step_rewards": [[0.97, 0.12], ...], "rewards": [0.12, ...], "aggregate": "min"}
    GET /health
    →  {"status": "ok", "model": DIR, "step_separator": "\\n", "batches": 3, "items": 70, ...}

A reward is the PRM's probability that the step is correct (training.score.PRMScorer), one
per step of each item. ``aggregate`` is ``none`` (the default: no ``rewards``), ``min``,
``last`` or ``product``; an item with no steps gets ``[]`` and aggregate 0.0. Bad input gets
400 ``{"error": {"code": "invalid", "message": ...}}``.

Items from concurrent requests share forward passes: one thread owns the model and takes
pending items from a queue, up to ``max_batch`` at a time, waiting at most ``max_wait_ms`` after
the first one for more to arrive (a request larger than ``max_batch`` spans several passes).
``/health`` counts the passes (``batches``) and the items scored. The server binds 127.0.0.1
unless told otherwise: it has no authentication.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Items = Sequence[tuple[str, Sequence[str]]]
ScoreMany = Callable[[Items], list[list[float]]]

AGGREGATES: dict[str, Callable[[Sequence[float]], float]] = {
    "min": lambda s: min(s) if s else 0.0,
    "last": lambda s: s[-1] if s else 0.0,
    "product": lambda s: math.prod(s) if s else 0.0,
}
MAX_BODY_BYTES = 32 << 20


class BadRequest(ValueError):
    pass


@dataclass
class _Request:
    items: list[tuple[str, list[str]]]
    future: Future = field(default_factory=Future)
    results: list[list[float] | None] = field(default_factory=list)
    remaining: int = 0


class MicroBatcher:
    """One worker thread runs ``score_many`` on batches of items from many callers."""

    def __init__(self, score_many: ScoreMany, *, max_batch: int = 32, max_wait_s: float = 0.01):
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self.score_many = score_many
        self.max_batch = max_batch
        self.max_wait_s = max(0.0, max_wait_s)
        self.batches = 0  # forward passes (score_many calls)
        self.items = 0  # items scored
        self.batch_sizes: list[int] = []
        self._queue: deque[tuple[_Request, int]] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="reward-batcher", daemon=True)
        self._thread.start()

    def score(self, items: list[tuple[str, list[str]]]) -> list[list[float]]:
        """Scores for ``items``, in order; blocks until they are computed."""
        if not items:
            return []
        request = _Request(items=items, results=[None] * len(items), remaining=len(items))
        with self._cond:
            if self._closed:
                raise RuntimeError("the batcher is closed")
            self._queue.extend((request, i) for i in range(len(items)))
            self._cond.notify()
        return request.future.result()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=5)

    def _take(self) -> list[tuple[_Request, int]] | None:
        with self._cond:
            while not self._queue and not self._closed:
                self._cond.wait()
            if not self._queue:
                return None
            deadline = time.monotonic() + self.max_wait_s
            while len(self._queue) < self.max_batch and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            count = min(self.max_batch, len(self._queue))
            return [self._queue.popleft() for _ in range(count)]

    def _run(self) -> None:
        while (batch := self._take()) is not None:
            try:
                scores = self.score_many([req.items[i] for req, i in batch])
                if len(scores) != len(batch):
                    raise RuntimeError(f"scorer gave {len(scores)} results for {len(batch)} items")
            except BaseException as exc:  # noqa: BLE001 - every waiting caller must hear of it
                for request in {id(req): req for req, _ in batch}.values():
                    if not request.future.done():
                        request.future.set_exception(exc)
                continue
            self.batches += 1
            self.items += len(batch)
            self.batch_sizes.append(len(batch))
            for (request, i), item_scores in zip(batch, scores, strict=True):
                if request.future.done():  # failed in an earlier batch
                    continue
                request.results[i] = [float(s) for s in item_scores]
                request.remaining -= 1
                if request.remaining == 0:
                    request.future.set_result(request.results)


def parse_request(body: Any, *, max_items: int) -> tuple[list[tuple[str, list[str]]], str]:
    """(items, aggregate) from a decoded request body, or BadRequest naming the field."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = set(body) - {"items", "aggregate"}
    if unknown:
        raise BadRequest(f"unknown fields: {sorted(unknown)}")
    aggregate = body.get("aggregate", "none")
    if aggregate != "none" and aggregate not in AGGREGATES:
        raise BadRequest(f"aggregate must be one of none, {', '.join(AGGREGATES)}")
    raw = body.get("items")
    if not isinstance(raw, list) or not raw:
        raise BadRequest("items must be a non-empty list")
    if len(raw) > max_items:
        raise BadRequest(f"at most {max_items} items per request, got {len(raw)}")
    items = []
    for k, item in enumerate(raw):
        if not isinstance(item, dict):
            raise BadRequest(f"items[{k}] must be an object with prompt and steps")
        prompt, steps = item.get("prompt"), item.get("steps")
        if not isinstance(prompt, str):
            raise BadRequest(f"items[{k}].prompt must be a string")
        if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
            raise BadRequest(f"items[{k}].steps must be a list of strings")
        items.append((prompt, steps))
    return items, aggregate


class RewardServer(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's default backlog is 5: a burst of RL workers connecting at once got
    # connection resets. The kernel caps this at net.core.somaxconn.
    request_queue_size = 1024

    def __init__(
        self,
        address: tuple[str, int],
        batcher: MicroBatcher,
        *,
        info: dict[str, Any] | None = None,
        max_items: int = 1024,
    ) -> None:
        super().__init__(address, RewardHandler)
        self.batcher = batcher
        self.info = info or {}
        self.max_items = max_items

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def server_close(self) -> None:
        super().server_close()
        self.batcher.close()


class RewardHandler(BaseHTTPRequestHandler):
    server: RewardServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass  # one line per request would drown the trainer's log

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, code: str, message: str) -> None:
        self._send(status, {"error": {"code": code, "message": message}})

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self.path.split("?")[0] != "/health":
            return self._error(404, "not_found", f"no route {self.path}")
        batcher = self.server.batcher
        self._send(
            200,
            {
                "status": "ok",
                **self.server.info,
                "max_batch": batcher.max_batch,
                "max_wait_ms": batcher.max_wait_s * 1000,
                "batches": batcher.batches,
                "items": batcher.items,
            },
        )

    def do_POST(self) -> None:  # noqa: N802
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.close_connection = True  # the body's end is unknown: drop the connection
            return self._error(400, "invalid", "bad Content-Length")
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            return self._error(413, "too_large", f"the body is over {MAX_BODY_BYTES} bytes")
        raw = self.rfile.read(length)  # read even when refused: the connection is kept alive
        if self.path.split("?")[0] != "/v1/rewards":
            return self._error(404, "not_found", f"no route {self.path}")
        try:
            body = json.loads(raw or b"null")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return self._error(400, "invalid", f"the body is not JSON: {exc}")
        try:
            items, aggregate = parse_request(body, max_items=self.server.max_items)
        except BadRequest as exc:
            return self._error(400, "invalid", str(exc))
        try:
            step_rewards = self.server.batcher.score(items)
        except Exception as exc:  # noqa: BLE001 - the client gets the reason, the server lives
            return self._error(500, "scoring_failed", f"{type(exc).__name__}: {exc}")
        payload: dict[str, Any] = {"step_rewards": step_rewards, "aggregate": aggregate}
        if aggregate != "none":
            payload["rewards"] = [AGGREGATES[aggregate](s) for s in step_rewards]
        self._send(200, payload)


def make_server(
    score_many: ScoreMany,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    max_batch: int = 32,
    max_wait_ms: float = 10.0,
    max_items: int = 1024,
    info: dict[str, Any] | None = None,
) -> RewardServer:
    """A server bound to (host, port) (0: any free port); run it with ``serve_forever()``."""
    batcher = MicroBatcher(score_many, max_batch=max_batch, max_wait_s=max_wait_ms / 1000)
    return RewardServer((host, port), batcher, info=info, max_items=max_items)


def prm_server(model: str, *, device: str | None = None, **options: Any) -> RewardServer:
    """A server for the PRM in ``model`` (a trained PRM directory of any kind: pointwise,
    pairwise or implicit, as training.scorers.load_scorer reads it)."""
    from training.scorers import load_scorer

    scorer = load_scorer(model, device=device)

    def score_many(items: Items) -> list[list[float]]:
        return scorer.score_many(items, batch_size=max(1, len(items)))  # one forward pass

    info = {"model": str(model), "step_separator": scorer.settings.step_separator}
    return make_server(score_many, info=info, **options)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.serve", description=__doc__)
    parser.add_argument("--model", required=True, help="trained PRM directory")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--max-batch", type=int, default=32, help="items per forward pass")
    parser.add_argument("--max-wait-ms", type=float, default=10.0)
    parser.add_argument("--max-items", type=int, default=1024, help="items per request")
    parser.add_argument("--device", default=None, help="default: cuda if available")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    server = prm_server(
        args.model,
        device=args.device,
        host=args.host,
        port=args.port,
        max_batch=args.max_batch,
        max_wait_ms=args.max_wait_ms,
        max_items=args.max_items,
    )
    print(f"serving {args.model} at {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
