from enum import StrEnum


class RunStatusEnum(StrEnum):
    CANCELLED = "cancelled"
    DONE = "done"
    FAILED = "failed"
    PAUSED = "paused"
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
