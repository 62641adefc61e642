from enum import StrEnum


class ExplorerBulkActionEnum(StrEnum):
    MARK_GOLD = "mark_gold"
    REQUEUE = "requeue"
    SEND_TO_REVIEW = "send_to_review"
    UNMARK_GOLD = "unmark_gold"

    def __str__(self) -> str:
        return str(self.value)
