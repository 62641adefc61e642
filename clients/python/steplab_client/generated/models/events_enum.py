from enum import StrEnum


class EventsEnum(StrEnum):
    ANNOTATION_SUBMITTED = "annotation.submitted"
    AUTOLABEL_RUN_FINISHED = "autolabel_run.finished"
    EXPORT_FAILED = "export.failed"
    EXPORT_READY = "export.ready"
    IMPORT_FINISHED = "import.finished"
    REVIEW_RESOLVED = "review.resolved"

    def __str__(self) -> str:
        return str(self.value)
