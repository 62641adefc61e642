from enum import StrEnum


class ExplorerLabelStateEnum(StrEnum):
    IN_PROGRESS = "in_progress"
    LABELED = "labeled"
    REVIEWED = "reviewed"
    UNLABELED = "unlabeled"

    def __str__(self) -> str:
        return str(self.value)
