from enum import StrEnum


class FinishReasonEnum(StrEnum):
    BAD_PROBLEM = "bad_problem"
    FOUND_ERROR = "found_error"
    GIVE_UP = "give_up"
    SOLUTION = "solution"

    def __str__(self) -> str:
        return str(self.value)
