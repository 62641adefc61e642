from enum import StrEnum


class StrategyEnum(StrEnum):
    EACH = "each"
    ROUND_ROBIN = "round_robin"
    WEIGHTED = "weighted"

    def __str__(self) -> str:
        return str(self.value)
