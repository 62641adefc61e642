"""The rollout cache: sampled continuations keyed by (completer id, sampling params, prefix).

Grading is stored with the texts together with the gold answer and grader version it was
computed against; a reader with another gold answer or grader regrades the cached texts
instead of resampling.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from typing import Any, Protocol


def prefix_hash(prompt: str) -> str:
    return hashlib.sha256(prompt.encode()).hexdigest()


@dataclass(frozen=True)
class RolloutKey:
    completer: str
    params: dict[str, Any]  # SamplingParams.as_dict()
    prefix_hash: str

    @property
    def digest(self) -> str:
        blob = json.dumps([self.completer, self.params, self.prefix_hash], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()


@dataclass(frozen=True)
class CachedRollouts:
    texts: tuple[str, ...]
    correct: tuple[bool | None, ...]
    gold: str
    grader: str


class RolloutCache(Protocol):
    def get(self, key: RolloutKey) -> CachedRollouts | None: ...

    def put(self, key: RolloutKey, entry: CachedRollouts) -> None: ...


class MemoryRolloutCache:
    """A dict, for tests, benchmarks and processes without a database."""

    def __init__(self) -> None:
        self._entries: dict[str, CachedRollouts] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: RolloutKey) -> CachedRollouts | None:
        with self._lock:
            return self._entries.get(key.digest)

    def put(self, key: RolloutKey, entry: CachedRollouts) -> None:
        with self._lock:
            self._entries[key.digest] = entry
