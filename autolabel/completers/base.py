"""What every text-completion backend offers: n sampled continuations per prompt."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from autolabel.deadline import ItemDeadline


class CompletionError(Exception):
    """A backend refused a request (a 4xx other than 408/429): retrying will not help."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class SamplingParams:
    """How continuations are sampled; part of every rollout's cache key and evidence."""

    n: int = 8
    temperature: float = 0.7
    top_p: float = 1.0
    max_tokens: int = 512
    stop: tuple[str, ...] | None = None
    seed: int | None = 0

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"n must be at least 1, got {self.n}")
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {self.max_tokens}")

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["stop"] = list(self.stop) if self.stop else None
        return data


@runtime_checkable
class Completer(Protocol):
    """A text-completion backend.

    ``id`` names the model (and its weights) stably across processes: it is part of the
    rollout cache key and of every suggestion's agent. ``complete`` returns ``n`` texts per
    prompt, each the continuation only (not the prompt), cut before any stop string.

    A caller that bounds an item's wall time passes ``deadline`` (autolabel.deadline) too,
    only when it has one: the backend gives each request or generate at most what is left
    and raises ``deadline.spent()`` (ItemSkipped) once nothing is, or a call ran out of it.
    """

    id: str

    def complete(
        self,
        prompts: list[str],
        *,
        n: int,
        temperature: float,
        top_p: float,
        max_tokens: int,
        stop: list[str] | None,
        seed: int | None,
        deadline: ItemDeadline | None = None,
    ) -> list[list[str]]: ...


@runtime_checkable
class ChatCompleter(Protocol):
    """A backend that answers chat conversations (the judge needs one)."""

    id: str

    def chat(
        self,
        conversations: list[list[dict[str, str]]],
        *,
        n: int,
        temperature: float,
        top_p: float,
        max_tokens: int,
        stop: list[str] | None,
        seed: int | None,
        deadline: ItemDeadline | None = None,
    ) -> list[list[str]]: ...


@dataclass(frozen=True)
class Sampling:
    """One ``complete`` / ``chat`` call's settings as the caller gave them (``stop`` as a list
    or None), and the item's deadline, if any. Not validated: that is SamplingParams' job for
    what a run stores."""

    n: int
    temperature: float
    top_p: float
    max_tokens: int
    stop: list[str] | None
    seed: int | None
    deadline: ItemDeadline | None = field(default=None, compare=False)


def _sampling(
    n: int,
    temperature: float,
    top_p: float,
    max_tokens: int,
    stop: list[str] | tuple[str, ...] | None,
    seed: int | None,
    deadline: ItemDeadline | None = None,
) -> Sampling:
    stop_list = list(stop) if stop else None
    return Sampling(n, temperature, top_p, max_tokens, stop_list, seed, deadline)


class SamplingCompleter:
    """The Completer protocol's ``complete`` signature and defaults, written once.

    A backend implements ``_complete(prompts, sampling)``; callers keep passing keywords.
    """

    id: str

    def complete(
        self,
        prompts: list[str],
        *,
        n: int = 1,
        temperature: float = 0.7,
        top_p: float = 1.0,
        max_tokens: int = 256,
        stop: list[str] | None = None,
        seed: int | None = None,
        deadline: ItemDeadline | None = None,
    ) -> list[list[str]]:
        sampling = _sampling(n, temperature, top_p, max_tokens, stop, seed, deadline)
        return self._complete(prompts, sampling)

    def _complete(self, prompts: list[str], sampling: Sampling) -> list[list[str]]:
        raise NotImplementedError


class SamplingChatCompleter(SamplingCompleter):
    """Adds ChatCompleter's ``chat`` (greedy and longer by default, for a judge's critique).

    A backend implements ``_chat(conversations, sampling)`` as well.
    """

    def chat(
        self,
        conversations: list[list[dict[str, str]]],
        *,
        n: int = 1,
        temperature: float = 0.0,
        top_p: float = 1.0,
        max_tokens: int = 1024,
        stop: list[str] | None = None,
        seed: int | None = None,
        deadline: ItemDeadline | None = None,
    ) -> list[list[str]]:
        sampling = _sampling(n, temperature, top_p, max_tokens, stop, seed, deadline)
        return self._chat(conversations, sampling)

    def _chat(
        self, conversations: list[list[dict[str, str]]], sampling: Sampling
    ) -> list[list[str]]:
        raise NotImplementedError


def truncate_at_stop(text: str, stop: list[str] | tuple[str, ...] | None) -> str:
    """``text`` cut before the earliest stop string (servers that leave it in, local decode)."""
    if not stop:
        return text
    cut = len(text)
    for marker in stop:
        if marker:
            found = text.find(marker)
            if found != -1:
                cut = min(cut, found)
    return text[:cut]


def derive_seed(seed: int, *parts: str) -> int:
    """A 31-bit seed for one prompt (or one request), so results do not depend on batching."""
    digest = hashlib.sha256("\x1f".join((str(seed), *parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def short_hash(*parts: str, length: int = 12) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:length]
