from autolabel.models.runs import (
    AutolabelItem,
    AutolabelRun,
    ItemStatus,
    RolloutCacheEntry,
    RunStatus,
)
from autolabel.models.training import (
    PrmKind,
    PrmModel,
    QueueOrder,
    QueuePriority,
    TrainingRun,
    TrainingStatus,
)

__all__ = [
    "AutolabelItem",
    "AutolabelRun",
    "ItemStatus",
    "PrmKind",
    "PrmModel",
    "QueueOrder",
    "QueuePriority",
    "RolloutCacheEntry",
    "RunStatus",
    "TrainingRun",
    "TrainingStatus",
]
