"""The rollout cache in the database (autolabel.models.RolloutCacheEntry): shared by workers."""

from __future__ import annotations

from .cache import CachedRollouts, RolloutKey


class DbRolloutCache:
    def get(self, key: RolloutKey) -> CachedRollouts | None:
        from autolabel.models import RolloutCacheEntry

        row = RolloutCacheEntry.objects.filter(key=key.digest).only("texts", "correct").first()
        if row is None:
            return None
        graded = row.correct or {}
        return CachedRollouts(
            texts=tuple(row.texts),
            correct=tuple(graded.get("values") or ()),
            gold=graded.get("gold", ""),
            grader=graded.get("grader", ""),
        )

    def put(self, key: RolloutKey, entry: CachedRollouts) -> None:
        from autolabel.models import RolloutCacheEntry

        # update_or_create: a concurrent writer of the same key wrote the same sampling;
        # the unique key makes the loser's insert an update, not a duplicate.
        RolloutCacheEntry.objects.update_or_create(
            key=key.digest,
            defaults={
                "completer": key.completer[:300],
                "params": key.params,
                "prefix_hash": key.prefix_hash,
                "texts": list(entry.texts),
                "correct": {
                    "gold": entry.gold,
                    "grader": entry.grader,
                    "values": list(entry.correct),
                },
            },
        )
