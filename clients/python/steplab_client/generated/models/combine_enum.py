from enum import StrEnum


class CombineEnum(StrEnum):
    MAJORITY = "majority"
    PER_ANNOTATION = "per_annotation"

    def __str__(self) -> str:
        return str(self.value)
