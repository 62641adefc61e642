from enum import StrEnum


class ExplorerAnswerEnum(StrEnum):
    CORRECT = "correct"
    UNKNOWN = "unknown"
    WRONG = "wrong"

    def __str__(self) -> str:
        return str(self.value)
