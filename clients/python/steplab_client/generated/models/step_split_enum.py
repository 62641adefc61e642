from enum import StrEnum


class StepSplitEnum(StrEnum):
    LINE = "line"
    PARAGRAPH = "paragraph"
    REGEX = "regex"
    SENTENCE = "sentence"
    STEP_MARKER = "step_marker"
    STEP_TAGS = "step_tags"

    def __str__(self) -> str:
        return str(self.value)
