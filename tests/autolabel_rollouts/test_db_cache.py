"""The database-backed rollout cache: what the engine uses under Django."""

import pytest

from autolabel.completers import completer_from_config
from autolabel.engines.base import SolutionInput
from autolabel.engines.rollout import RolloutEngine
from autolabel.models import RolloutCacheEntry
from autolabel.rollouts import CachedRollouts, RolloutKey
from autolabel.rollouts.db_cache import DbRolloutCache

BACKEND = {"kind": "scripted", "rules": [["WRONG", 0.0]], "default": 0.8}
SOLUTION = SolutionInput("Q?", "12", ("a", "b", "WRONG c", "d"), "")


@pytest.mark.django_db
def test_engine_uses_the_database_cache_under_django() -> None:
    params = {"backend": BACKEND, "n": 6, "seed": 1}
    first = RolloutEngine()(SOLUTION, params)
    assert RolloutCacheEntry.objects.count() == 4
    row = RolloutCacheEntry.objects.order_by("id").first()
    assert row.completer.startswith("scripted:") and row.params["n"] == 6
    assert len(row.texts) == 6 and row.correct["gold"] == "12" and len(row.correct["values"]) == 6
    assert len(row.key) == 64 and len(row.prefix_hash) == 64
    completer = completer_from_config(BACKEND, gold="12")
    assert completer.samples == 24
    # A new engine (another worker) reads the same rows: nothing is sampled again.
    second = RolloutEngine()(SOLUTION, params)
    assert completer.samples == 24
    assert [s.value for s in second.suggestions] == [s.value for s in first.suggestions]
    assert [s.value for s in first.suggestions] == [1, 1, -1, -1]
    assert all(s.evidence["cached"] for s in second.suggestions)
    assert RolloutCacheEntry.objects.count() == 4


@pytest.mark.django_db
def test_put_twice_updates_one_row() -> None:
    cache = DbRolloutCache()
    key = RolloutKey("m", {"n": 1}, "ab" * 32)
    assert cache.get(key) is None
    cache.put(key, CachedRollouts(("x",), (True,), "1", "g1"))
    cache.put(key, CachedRollouts(("x",), (False,), "2", "g1"))
    assert RolloutCacheEntry.objects.count() == 1
    assert cache.get(key) == CachedRollouts(("x",), (False,), "2", "g1")
