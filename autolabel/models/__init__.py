from autolabel.models.runs import (
    AutolabelItem,
    AutolabelRun,
    ItemStatus,
    RolloutCacheEntry,
    RunStatus,
)

__all__ = [
    "AutolabelItem",
    "AutolabelRun",
    "ItemStatus",
    "RolloutCacheEntry",
    "RunStatus",
]
