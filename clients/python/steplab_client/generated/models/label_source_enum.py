from enum import StrEnum


class LabelSourceEnum(StrEnum):
    ANNOTATIONS = "annotations"
    AUTO_ANY = "auto_any"
    AUTO_CONSENSUS = "auto_consensus"
    FINAL = "final"
    HUMAN = "human"
    IMPORTED = "imported"
    REVIEWED = "reviewed"

    def __str__(self) -> str:
        return str(self.value)
