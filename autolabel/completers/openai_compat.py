"""Completion servers that speak the OpenAI protocol: vLLM, SGLang, ``transformers serve``.

Only standard fields are sent (``transformers serve`` answers unknown ones with 422), one
prompt string per request. Servers that ignore ``n`` (``transformers serve`` returns one
choice) get the missing choices as separate requests, each with its own seed, a few at a
time; once a server has ignored ``n`` it gets single requests from then on. A stop string
the server leaves at the end of the text is cut off here.

``transformers serve`` samples only when the model's ``generation_config.json`` says
``do_sample: true`` (most instruct checkpoints do); otherwise it decodes greedily whatever
the temperature.

Connection errors, timeouts, 429 and 5xx replies are retried ``max_retries`` times with a
short backoff, then raise :class:`autolabel.errors.BackendUnavailable` naming the URL, so
the Celery task retries later. Other 4xx replies raise :class:`CompletionError`.

A call with an item's deadline (autolabel.deadline) returns by it: every request's timeout and
backoff is cut to what is left, the caller stops waiting for the requests at the deadline
(those queued are cancelled, one in flight ends by its cut timeout), and the call raises the
item's ItemSkipped ("skipped: over budget").
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from typing import Any

import httpx

from autolabel.deadline import ItemDeadline
from autolabel.errors import BackendUnavailable

from .base import CompletionError, Sampling, SamplingChatCompleter, truncate_at_stop
from .retries import RetriesExhausted, post_with_retries

_Request = Callable[[int, int | None], list[str]]  # (n, seed) -> texts


def _choice_text(choice: dict[str, Any]) -> str:
    return choice.get("text") or ""


def _message_text(choice: dict[str, Any]) -> str:
    return (choice.get("message") or {}).get("content") or ""


# A server without a chat route, or a model without a chat template (vLLM says 400).
_NO_CHAT_STATUS = {400, 404, 405, 501}


def normalize_base_url(base_url: str) -> str:
    url = base_url.strip().rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


class OpenAICompatibleCompleter(SamplingChatCompleter):
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        concurrency: int = 4,
        tokenizer: Any = None,
        backoff_s: float = 0.5,
    ) -> None:
        self.base_url = normalize_base_url(base_url)
        self.model = model
        self.id = f"openai:{self.base_url}/{model}"
        # Optional: a local tokenizer whose chat template formats rollout prompts.
        self.tokenizer = tokenizer
        self.max_retries = max(0, max_retries)
        self.backoff_s = backoff_s
        self.concurrency = max(1, concurrency)
        self.timeout_s = timeout_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(5.0, timeout_s)),
        )
        self._honours_n: bool | None = None  # learned from the first multi-choice reply
        self._chat_supported: bool | None = None
        self._lock = threading.Lock()

    @property
    def honours_n(self) -> bool | None:
        """Whether the server returned n choices for one request (None: not seen yet)."""
        return self._honours_n

    def close(self) -> None:
        self._client.close()

    # --- HTTP ---------------------------------------------------------------------------

    def _post(
        self, route: str, body: dict[str, Any], deadline: ItemDeadline | None = None
    ) -> dict[str, Any]:
        url = f"{self.base_url}{route}"
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
            raise BackendUnavailable(f"completion backend {url} {exc}") from None
        if reply.status_code >= 400:
            raise CompletionError(
                f"{url} refused the request: HTTP {reply.status_code}: {reply.text[:500]}",
                status=reply.status_code,
            )
        try:
            return reply.json()
        except ValueError as exc:
            raise BackendUnavailable(f"{url} answered with invalid JSON: {exc}") from exc

    def _sampling_body(self, sampling: Sampling) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
        }
        if sampling.n > 1:
            body["n"] = sampling.n
        if sampling.stop:
            body["stop"] = list(sampling.stop)
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        return body

    # --- n choices per prompt, absorbing servers that ignore n ---------------------------

    def _run(
        self,
        requests: list[_Request],
        *,
        n: int,
        seed: int | None,
        deadline: ItemDeadline | None = None,
    ) -> list[list[str]]:
        """n texts per request, from one n-choice request each where the server honours n,
        else from single requests with seeds seed, seed+1, ... (choice j uses seed + j)."""
        pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="completer")

        def result(future: Future[list[str]]) -> list[str]:
            if deadline is None:
                return future.result()
            try:
                return future.result(timeout=deadline.wait_s())
            except FutureTimeout:
                raise deadline.spent() from None

        try:
            texts: list[list[str]] = [[] for _ in requests]
            if n == 1 or self._honours_n is not False:
                firsts = [pool.submit(request, n, seed) for request in requests]
                texts = [result(future) for future in firsts]
                if n > 1 and self._honours_n is None:
                    with self._lock:
                        self._honours_n = all(len(t) >= n for t in texts)
            extras = [
                [
                    pool.submit(request, 1, None if seed is None else seed + j)
                    for j in range(len(texts[i]), n)
                ]
                for i, request in enumerate(requests)
            ]
            for i, futures in enumerate(extras):
                for future in futures:
                    texts[i].extend(result(future))
        except BaseException:
            # Fail fast: a down server must not cost every queued request its retries.
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        return [t[:n] for t in texts]

    def _sample(
        self,
        route: str,
        field: str,
        payloads: list[Any],
        text_of: Callable[[dict[str, Any]], str],
        sampling: Sampling,
    ) -> list[list[str]]:
        """n texts per payload (a prompt or a conversation) sent as `field` to `route`."""
        stop = sampling.stop

        def for_payload(payload: Any) -> _Request:
            def request(k: int, request_seed: int | None) -> list[str]:
                body = self._sampling_body(replace(sampling, n=k, seed=request_seed))
                body[field] = payload
                data = self._post(route, body, sampling.deadline)
                choices = sorted(data.get("choices") or [], key=lambda c: c.get("index", 0))
                return [truncate_at_stop(text_of(c), stop) for c in choices]

            return request

        requests = [for_payload(p) for p in payloads]
        return self._run(requests, n=sampling.n, seed=sampling.seed, deadline=sampling.deadline)

    # --- the Completer and ChatCompleter calls (signatures in SamplingChatCompleter) -------

    def _complete(self, prompts: list[str], sampling: Sampling) -> list[list[str]]:
        return self._sample("/v1/completions", "prompt", prompts, _choice_text, sampling)

    def _chat(
        self, conversations: list[list[dict[str, str]]], sampling: Sampling
    ) -> list[list[str]]:
        """Chat completions; falls back to completions over a rendered prompt when the
        server has no chat route (or the model no chat template)."""
        if self._chat_supported is False:
            return self._chat_via_completions(conversations, sampling)
        try:
            result = self._sample(
                "/v1/chat/completions", "messages", conversations, _message_text, sampling
            )
        except CompletionError as exc:
            if self._chat_supported or exc.status not in _NO_CHAT_STATUS:
                raise
            self._chat_supported = False
            return self._chat(conversations, sampling)
        self._chat_supported = True
        return result

    def _chat_via_completions(
        self, conversations: list[list[dict[str, str]]], sampling: Sampling
    ) -> list[list[str]]:
        from autolabel.prompts import default_stop, render_chat

        prompts = [render_chat(c, tokenizer=self.tokenizer) for c in conversations]
        stop = list(sampling.stop or default_stop(self.tokenizer) or []) or None
        return self._complete(prompts, replace(sampling, stop=stop))
