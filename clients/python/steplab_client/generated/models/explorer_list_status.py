from enum import StrEnum


class ExplorerListStatus(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
