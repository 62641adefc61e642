"""A TRL-style reward function backed by steplab's PRM reward server (training/serve.py).

    python -m training.serve --model runs/prm --port 8100       # in another shell

    from rl_reward import PRMReward
    reward = PRMReward("http://127.0.0.1:8100", aggregate="min")
    trainer = GRPOTrainer(model=..., reward_funcs=[reward], ...)  # TRL

TRL's GRPOTrainer calls each reward function as ``f(prompts=..., completions=..., **columns)``
and wants one float per completion; prompts and completions are strings, or chat messages
(lists of ``{"role", "content"}``) for conversational datasets. Each completion is split into
steps on the PRM's step separator (read from the server's /health unless given), the prompt is
the last user message's text, and the reward is the aggregate (min by default: a solution is
as good as its weakest step) of the PRM's step rewards. A completion with no step gets
``empty_reward``. Standard library only, so it runs inside any trainer's environment.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Sequence
from typing import Any


def message_text(value: Any) -> str:
    """A string as is; chat messages: the last user message (prompts) or the last message."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(m, dict) for m in value):
        users = [m for m in value if m.get("role") == "user"]
        return str((users or value)[-1].get("content") or "")
    raise TypeError(f"expected a string or a list of chat messages, got {type(value).__name__}")


def split_steps(text: str, separator: str) -> list[str]:
    return [s.strip() for s in text.split(separator) if s.strip()]


class PRMReward:
    """One float per completion from the PRM reward server."""

    def __init__(
        self,
        url: str,
        *,
        aggregate: str = "min",
        separator: str | None = None,
        empty_reward: float = 0.0,
        timeout_s: float = 120.0,
    ) -> None:
        if aggregate not in ("min", "last", "product"):
            raise ValueError("aggregate must be min, last or product")
        self.url = url.rstrip("/")
        self.aggregate = aggregate
        self.empty_reward = empty_reward
        self.timeout_s = timeout_s
        self.separator = separator or self._get("/health")["step_separator"]
        self.__name__ = f"prm_{aggregate}"  # TRL logs each reward function under its name

    def _get(self, route: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + route, timeout=self.timeout_s) as reply:
            return json.loads(reply.read())

    def _post(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url + route,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=self.timeout_s) as reply:
            return json.loads(reply.read())

    def __call__(
        self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any
    ) -> list[float]:
        steps = [split_steps(message_text(c), self.separator) for c in completions]
        items = [
            {"prompt": message_text(p), "steps": s} for p, s in zip(prompts, steps, strict=True)
        ]
        reply = self._post("/v1/rewards", {"items": items, "aggregate": self.aggregate})
        return [
            float(r) if s else self.empty_reward
            for r, s in zip(reply["rewards"], steps, strict=True)
        ]


if __name__ == "__main__":
    import sys

    reward = PRMReward(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8100")
    print(reward(["What is 2 + 2?"] * 2, ["2 + 2 = 4.\nSo \\boxed{4}.", "2 + 2 = 5.\nSo 5."]))
