from enum import StrEnum


class ExplorerListAnswer(StrEnum):
    CORRECT = "correct"
    UNKNOWN = "unknown"
    VALUE_0 = ""
    WRONG = "wrong"

    def __str__(self) -> str:
        return str(self.value)
