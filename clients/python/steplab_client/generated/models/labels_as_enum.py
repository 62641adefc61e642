from enum import StrEnum


class LabelsAsEnum(StrEnum):
    ANNOTATIONS = "annotations"
    NONE = "none"
    SUGGESTIONS = "suggestions"

    def __str__(self) -> str:
        return str(self.value)
