"""A public PRM served by vLLM, through its pooling and classification routes.

vLLM serves a reward model with ``--runner pooling`` (older: ``--task reward``):

- Qwen2.5-Math-PRM (``Qwen2ForProcessRewardModel``, STEP pooling on ``<extra_0>``, softmax):
  ``POST /pooling {"model", "messages", "add_generation_prompt": false}``, the server renders
  the chat template; the answer ``{"data": [{"index": 0, "data": [[p0, p1], ...]}]}`` has one
  pair per step, P(correct) at index 1.
- Math-Shepherd (a causal LM served with ``--override-pooler-config '{"pooling_type": "STEP",
  "step_tag_id": 12902, "returned_token_ids": [648, 387]}'``): ``POST /pooling {"model",
  "input": [text, ...]}`` with training.public_prm's text; per step [P(+), P(-)], index 0.
- seq-cls: ``POST /classify {"model", "input": [text, ...]}`` (plain text, a batch) or
  ``{"model", "messages"}`` (chat, one prefix a request); ``{"data": [{"index", "probs"}]}``,
  probs[1] of two classes, probs[0] of one.

``positive_index`` overrides which entry of a pair is P(correct); ``task`` is sent as the
request's ``task`` (vLLM ≥ 0.11 may need ``"token_classify"`` for a PRM). Timeouts, connection
errors, 429 and 5xx are retried ``max_retries`` times, then raise BackendUnavailable (the Celery
task retries later); another 4xx, or an answer of the wrong shape, raises PoolingError naming the
URL, which fails the solution. The URL must be http(s) with a host and no credentials in it.

An item's scoring has a wall budget (``prm_item_s``, autolabel.deadline): every request's
timeout and retry backoff is cut to what is left, the caller stops waiting at the deadline, and
the item fails "skipped: over budget" (ItemSkipped). :meth:`VllmPoolingPRM.score_each` scores a
chunk with one budget per item (from when its first request starts; Math-Shepherd's batched
request: one per batch), so a hanging or slow answer for one fails that one, not the chunk.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any
from urllib.parse import urlsplit

import httpx

from autolabel.deadline import ItemDeadline
from autolabel.errors import BackendUnavailable
from training.public_prm import (
    Convention,
    prefix_messages,
    prefix_text,
    qwen_messages,
    shepherd_text,
    uses_chat,
)

from .openai_compat import normalize_base_url
from .retries import RetriesExhausted, post_with_retries

URL_MAX = 500
POSITIVE = {"qwen": 1, "math-shepherd": 0}
START_POLL_S = 0.05  # how often the caller looks whether a queued item's scoring has started
Scored = list[float] | Exception  # an item's scores, or why it has none


class PoolingError(ValueError):
    """The server refused a request or answered in a shape that is no PRM's."""


def check_url(url: Any) -> str:
    """http(s)://host[:port][/path], no user or password, at most URL_MAX characters."""
    if not isinstance(url, str) or not url or len(url) > URL_MAX:
        raise ValueError(f"url must be an http(s) URL of at most {URL_MAX} characters")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as exc:
        raise ValueError(f"url is not a valid URL: {exc}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"url must be http(s)://host..., got {url!r}")
    if parts.username or parts.password:
        raise ValueError("url must not carry a user or password (use api_key_env)")
    if parts.query or parts.fragment:
        raise ValueError("url must not have a query or fragment")
    return url.strip()


def _probability(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PoolingError(f"{where}: {value!r} is not a number")
    if not 0.0 <= value <= 1.0:
        raise PoolingError(
            f"{where}: {value!r} is not a probability (serve the model with softmax on)"
        )
    return float(value)


class VllmPoolingPRM:
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        convention: Convention,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        concurrency: int = 4,
        positive_index: int | None = None,
        task: str | None = None,
        api_key: str | None = None,
        backoff_s: float = 0.5,
    ) -> None:
        self.base_url = normalize_base_url(check_url(base_url))
        self.model = model
        self.convention = convention
        self.timeout_s = timeout_s
        self.max_retries = max(0, max_retries)
        self.backoff_s = backoff_s
        self.concurrency = max(1, concurrency)
        self.positive = (
            POSITIVE.get(convention.name, 1) if positive_index is None else positive_index
        )
        self.task = task
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(5.0, timeout_s)),
            follow_redirects=False,
        )

    def close(self) -> None:
        self._client.close()

    def _post(
        self, route: str, body: dict[str, Any], deadline: ItemDeadline | None = None
    ) -> list[dict[str, Any]]:
        """The answer's ``data`` list, in ``index`` order."""
        url = f"{self.base_url}{route}"
        body = {"model": self.model, **body}
        if self.task and route == "/pooling":
            body["task"] = self.task
        try:
            reply = post_with_retries(
                self._client,
                route,
                body,
                max_retries=self.max_retries,
                backoff_s=self.backoff_s,
                deadline=deadline,
                timeout_s=self.timeout_s,
            )
        except RetriesExhausted as exc:
            raise BackendUnavailable(f"PRM server {url} {exc}") from None
        if reply.status_code >= 400:
            raise PoolingError(f"{url} refused: HTTP {reply.status_code}: {reply.text[:500]}")
        try:
            data = reply.json().get("data")
        except (ValueError, AttributeError) as exc:
            raise PoolingError(f"{url} answered without a JSON object: {exc}") from exc
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise PoolingError(f"{url} answered without a data list")
        return sorted(data, key=lambda d: d.get("index", 0))

    def _pairs(self, entry: dict[str, Any], steps: int, where: str) -> list[float]:
        pairs = entry.get("data")
        if not isinstance(pairs, list) or len(pairs) != steps:
            got = len(pairs) if isinstance(pairs, list) else "no"
            raise PoolingError(
                f"{where}: {got} step scores for {steps} steps (is the server's pooling STEP "
                "on this convention's tag?)"
            )
        out = []
        for k, pair in enumerate(pairs):
            if not isinstance(pair, list) or len(pair) <= self.positive:
                raise PoolingError(f"{where}: step {k}: {pair!r} has no entry {self.positive}")
            out.append(_probability(pair[self.positive], f"{where}: step {k}"))
        return out

    def _probs(self, entry: dict[str, Any], where: str) -> float:
        probs = entry.get("probs")
        if not isinstance(probs, list) or not 1 <= len(probs) <= 2:
            raise PoolingError(f"{where}: probs {probs!r} are not one or two classes")
        return _probability(probs[0] if len(probs) == 1 else probs[self.positive], where)

    # --- per convention -----------------------------------------------------------------

    def _qwen(
        self, problem: str, steps: Sequence[str], deadline: ItemDeadline | None = None
    ) -> list[float]:
        body = {
            "messages": qwen_messages(self.convention, problem, steps),
            "add_generation_prompt": False,
        }
        (entry, *_) = self._post("/pooling", body, deadline) or [{}]
        return self._pairs(entry, len(steps), f"{self.base_url}/pooling")

    def _shepherd(
        self, items: Sequence[tuple[str, Sequence[str]]], deadline: ItemDeadline | None = None
    ) -> list[list[float]]:
        texts = [shepherd_text(self.convention, p, s)[0] for p, s in items]
        data = self._post("/pooling", {"input": texts}, deadline)
        if len(data) != len(texts):
            raise PoolingError(f"{self.base_url}/pooling: {len(data)} answers for {len(texts)}")
        where = f"{self.base_url}/pooling"
        return [self._pairs(d, len(s), where) for d, (_, s) in zip(data, items, strict=True)]

    def _prefixes(
        self, problem: str, steps: Sequence[str], deadline: ItemDeadline | None = None
    ) -> list[float]:
        where = f"{self.base_url}/classify"
        if uses_chat(self.convention, None):
            scores = []
            for i in range(len(steps)):
                body = {"messages": prefix_messages(self.convention, problem, steps[: i + 1])}
                (entry, *_) = self._post("/classify", body, deadline) or [{}]
                scores.append(self._probs(entry, where))
            return scores
        texts = [prefix_text(self.convention, problem, steps[: i + 1]) for i in range(len(steps))]
        data = self._post("/classify", {"input": texts}, deadline)
        if len(data) != len(texts):
            raise PoolingError(f"{where}: {len(data)} answers for {len(texts)} prefixes")
        return [self._probs(d, where) for d in data]

    def _groups(
        self, items: Sequence[tuple[str, Sequence[str]]], batch_size: int | None
    ) -> list[list[int]]:
        """The items scored together: a Math-Shepherd batch, else one item a request group."""
        todo = [i for i, (_, steps) in enumerate(items) if steps]
        if self.convention.name != "math-shepherd":
            return [[i] for i in todo]
        size = max(1, batch_size or 8)
        return [todo[start : start + size] for start in range(0, len(todo), size)]

    def _score_group(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        group: list[int],
        deadline: ItemDeadline | None,
    ) -> list[list[float]]:
        if self.convention.name == "math-shepherd":
            return self._shepherd([items[i] for i in group], deadline)
        one = self._qwen if self.convention.name == "qwen" else self._prefixes
        return [one(*items[group[0]], deadline)]

    def _gather(
        self,
        groups: list[list[int]],
        work: Callable[[list[int], ItemDeadline], list[list[float]]],
        new_deadline: Callable[[], ItemDeadline],
    ) -> list[list[list[float]] | Exception]:
        """Each group's scores, or its error, with its own deadline from when it starts; the
        caller stops waiting for a group at its deadline (a request in flight then ends by its
        cut timeout, without holding up the rest)."""
        deadlines: dict[int, ItemDeadline] = {}
        down: list[BackendUnavailable] = []

        def run(k: int) -> list[list[float]]:
            deadlines[k] = new_deadline()
            if down:  # fail fast: a down server must not cost every queued group its retries
                raise down[0]
            try:
                return work(groups[k], deadlines[k])
            except BackendUnavailable as exc:
                down.append(exc)
                raise

        pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="prm-pool")
        futures = [pool.submit(run, k) for k in range(len(groups))]
        out = [self._wait(future, lambda k=k: deadlines.get(k)) for k, future in enumerate(futures)]
        pool.shutdown(wait=False)
        return out

    @staticmethod
    def _wait(
        future: Future[list[list[float]]], deadline: Callable[[], ItemDeadline | None]
    ) -> list[list[float]] | Exception:
        while True:
            started = deadline()
            if started is None and not future.done():
                time.sleep(START_POLL_S)  # still queued behind other groups
                continue
            try:
                left = None if started is None else started.remaining()
                return future.result(timeout=None if left is None or math.isinf(left) else left)
            except FutureTimeout:
                assert started is not None
                return started.spent()
            except Exception as exc:  # noqa: BLE001 - the group's own failure, kept as it is
                return exc

    def score_each(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        batch_size: int | None = None,
        *,
        new_deadline: Callable[[], ItemDeadline],
    ) -> list[Scored]:
        """Each item's scores or why it has none (ItemSkipped over its budget, PoolingError,
        BackendUnavailable), each group of items under its own ``new_deadline()``."""
        groups = self._groups(items, batch_size)
        found = self._gather(
            groups, lambda group, d: self._score_group(items, group, d), new_deadline
        )
        results: list[Scored] = [[] for _ in items]
        for group, scores in zip(groups, found, strict=True):
            for j, i in enumerate(group):
                results[i] = scores if isinstance(scores, Exception) else scores[j]
        return results

    def score_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        batch_size: int | None = None,
        deadline: ItemDeadline | None = None,
    ) -> list[list[float]]:
        """Scores for (problem, steps) pairs, in their order; a solution with no steps gets [].
        With a ``deadline``, all of them within it; the first failure raises."""
        each = deadline or ItemDeadline(None, limit="prm_item_s", spending="its scoring")
        scored = self.score_each(items, batch_size, new_deadline=lambda: each)
        for result in scored:
            if isinstance(result, Exception):
                raise result
        return scored  # type: ignore[return-value]

    def score(
        self, problem: str, steps_list: Sequence[Sequence[str]], batch_size: int | None = None
    ) -> list[list[float]]:
        return self.score_many([(problem, steps) for steps in steps_list], batch_size)
