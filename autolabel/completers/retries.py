"""One POST to a model server with retries: timeouts, connection errors and the retryable
statuses (408, 429, 5xx) are tried again after a doubling backoff; after the last try the
caller learns why (`RetriesExhausted.last`). Any other status is the caller's to judge."""

from __future__ import annotations

import time
from typing import Any

import httpx

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
) -> httpx.Response:
    """The first answer that is not retryable (a success or a refusal)."""
    last = ""
    for attempt in range(max_retries + 1):
        if attempt:
            time.sleep(backoff_s * 2 ** (attempt - 1))
        try:
            reply = client.post(route, json=body)
        except httpx.TimeoutException as exc:
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
