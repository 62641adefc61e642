from enum import StrEnum


class OrderEnum(StrEnum):
    DEFAULT = "default"
    PRM_ACTIVE = "prm_active"

    def __str__(self) -> str:
        return str(self.value)
