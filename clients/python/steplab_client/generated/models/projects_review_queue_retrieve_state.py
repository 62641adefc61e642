from enum import StrEnum


class ProjectsReviewQueueRetrieveState(StrEnum):
    ALL = "all"
    RESOLVED = "resolved"
    UNRESOLVED = "unresolved"

    def __str__(self) -> str:
        return str(self.value)
