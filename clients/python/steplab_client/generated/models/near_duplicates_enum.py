from enum import StrEnum


class NearDuplicatesEnum(StrEnum):
    KEEP = "keep"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
