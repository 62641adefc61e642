from enum import StrEnum


class StepSplitEnum(StrEnum):
    LINE = "line"
    PARAGRAPH = "paragraph"
    REGEX = "regex"
    STEP_MARKER = "step_marker"

    def __str__(self) -> str:
        return str(self.value)
