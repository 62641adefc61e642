from enum import StrEnum


class MyWorkRowOutputStatusEnum(StrEnum):
    SKIPPED = "skipped"
    SUBMITTED = "submitted"

    def __str__(self) -> str:
        return str(self.value)
