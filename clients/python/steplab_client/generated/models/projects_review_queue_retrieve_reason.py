from enum import StrEnum


class ProjectsReviewQueueRetrieveReason(StrEnum):
    AUTO_CONFLICT = "auto_conflict"
    DISAGREEMENT = "disagreement"
    GOLD_FAILURE = "gold_failure"
    REST = "rest"
    SINGLE_ANNOTATOR = "single_annotator"
    UNSURE = "unsure"

    def __str__(self) -> str:
        return str(self.value)
