from enum import StrEnum


class ExplorerSortEnum(StrEnum):
    AGREEMENT = "agreement"
    ANNOTATIONS = "annotations"
    CREATED = "created"
    PROBLEM = "problem"
    VALUE_1 = "-created"
    VALUE_3 = "-problem"
    VALUE_5 = "-annotations"
    VALUE_7 = "-agreement"

    def __str__(self) -> str:
        return str(self.value)
