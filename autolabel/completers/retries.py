"""One POST to a model server with retries: timeouts, connection errors and the retryable
statuses (408, 429, 5xx) are tried again after a doubling backoff; after the last try the
caller learns why (`RetriesExhausted.last`). Any other status is the caller's to judge.

With an item's ``deadline`` (autolabel.deadline), every try's timeout and every backoff is cut
to what is left, and a try that timed out on the cut timeout, or no time left for the next,
raises the item's ItemSkipped instead."""

from __future__ import annotations

import time
from typing import Any

import httpx

from autolabel.deadline import ItemDeadline

RETRYABLE_STATUS = {408, 429, 500, 502, 503, 504}


class RetriesExhausted(Exception):
    def __init__(self, tries: int, last: str) -> None:
        super().__init__(f"unavailable after {tries} tries: {last}")
        self.tries, self.last = tries, last


def post_with_retries(
    client: httpx.Client,
    route: str,
    body: dict[str, Any],
    *,
    max_retries: int,
    backoff_s: float,
    deadline: ItemDeadline | None = None,
    timeout_s: float = 60.0,
) -> httpx.Response:
    """The first answer that is not retryable (a success or a refusal). ``timeout_s`` is the
    client's own timeout, which the deadline cuts."""
    last = ""
    for attempt in range(max_retries + 1):
        if attempt:
            pause = backoff_s * 2 ** (attempt - 1)
            time.sleep(pause if deadline is None else min(pause, deadline.left()))
        given = timeout_s if deadline is None else deadline.cut(timeout_s)
        try:
            if deadline is None:
                reply = client.post(route, json=body)
            else:
                timeout = httpx.Timeout(given, connect=min(5.0, given))
                reply = client.post(route, json=body, timeout=timeout)
        except httpx.TimeoutException as exc:
            if deadline is not None:
                deadline.raise_if_cut(True, given, timeout_s)
            last = f"timed out ({type(exc).__name__})"
            continue
        except httpx.TransportError as exc:
            last = f"{type(exc).__name__}: {exc}"
            continue
        if reply.status_code in RETRYABLE_STATUS:
            last = f"HTTP {reply.status_code}: {reply.text[:300]}"
            continue
        return reply
    raise RetriesExhausted(max_retries + 1, last)
