from enum import StrEnum


class RoleEnum(StrEnum):
    ADMIN = "admin"
    ANNOTATOR = "annotator"
    REVIEWER = "reviewer"

    def __str__(self) -> str:
        return str(self.value)
