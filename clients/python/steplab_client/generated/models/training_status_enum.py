from enum import StrEnum


class TrainingStatusEnum(StrEnum):
    CANCELLED = "cancelled"
    DONE = "done"
    FAILED = "failed"
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
