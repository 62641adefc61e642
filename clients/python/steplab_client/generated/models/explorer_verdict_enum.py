from enum import StrEnum


class ExplorerVerdictEnum(StrEnum):
    ERROR = "error"
    NONE = "none"
    NO_ERROR = "no_error"

    def __str__(self) -> str:
        return str(self.value)
