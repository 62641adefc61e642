from autolabel.models.runs import (
    AutolabelItem,
    AutolabelRun,
    ItemStatus,
    RolloutCacheEntry,
    RunStatus,
)
from autolabel.models.training import (
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
    "PrmModel",
    "QueueOrder",
    "QueuePriority",
    "RolloutCacheEntry",
    "RunStatus",
    "TrainingRun",
    "TrainingStatus",
]
