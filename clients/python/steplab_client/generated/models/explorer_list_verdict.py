from enum import StrEnum


class ExplorerListVerdict(StrEnum):
    ERROR = "error"
    NONE = "none"
    NO_ERROR = "no_error"
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
