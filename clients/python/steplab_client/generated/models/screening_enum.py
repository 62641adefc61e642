from enum import StrEnum


class ScreeningEnum(StrEnum):
    FAILED = "failed"
    NOT_REQUIRED = "not_required"
    PASSED = "passed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
