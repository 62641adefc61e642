from enum import StrEnum


class ModeEnum(StrEnum):
    HASH = "hash"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
