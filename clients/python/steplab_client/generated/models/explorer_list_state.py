from enum import StrEnum


class ExplorerListState(StrEnum):
    IN_PROGRESS = "in_progress"
    LABELED = "labeled"
    REVIEWED = "reviewed"
    UNLABELED = "unlabeled"
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
