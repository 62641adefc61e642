"""A step scorer that asks a reward server (training/serve.py) instead of loading the PRM."""

from __future__ import annotations

from collections.abc import Sequence

import httpx


class RemoteScorer:
    """``score_many`` over HTTP: POST /v1/rewards, at most ``chunk`` items per request."""

    def __init__(self, url: str, *, timeout_s: float = 300.0, chunk: int = 512) -> None:
        self.url = url.rstrip("/")
        self.chunk = max(1, chunk)
        self._client = httpx.Client(timeout=timeout_s)

    def score_many(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(items), self.chunk):
            body = {
                "items": [
                    {"prompt": prompt, "steps": list(steps)}
                    for prompt, steps in items[start : start + self.chunk]
                ]
            }
            reply = self._client.post(f"{self.url}/v1/rewards", json=body)
            if reply.status_code != 200:
                raise RuntimeError(f"{self.url}: HTTP {reply.status_code}: {reply.text[:300]}")
            out.extend(reply.json()["step_rewards"])
        return out

    def close(self) -> None:
        self._client.close()
