from enum import StrEnum


class LabelScaleEnum(StrEnum):
    BINARY = "binary"
    PRM800K = "prm800k"

    def __str__(self) -> str:
        return str(self.value)
