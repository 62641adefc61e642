from enum import StrEnum


class UnsureEnum(StrEnum):
    DROP = "drop"
    KEEP = "keep"
    TRUNCATE = "truncate"

    def __str__(self) -> str:
        return str(self.value)
