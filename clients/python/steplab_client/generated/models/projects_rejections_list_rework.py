from enum import StrEnum


class ProjectsRejectionsListRework(StrEnum):
    DRAFT = "draft"

    def __str__(self) -> str:
        return str(self.value)
