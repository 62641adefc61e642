from enum import StrEnum


class KindEnum(StrEnum):
    IMPLICIT = "implicit"
    PAIRWISE = "pairwise"
    POINTWISE = "pointwise"

    def __str__(self) -> str:
        return str(self.value)
