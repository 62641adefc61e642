from enum import StrEnum


class DependencyPolicyEnum(StrEnum):
    INHERIT = "inherit"
    KEEP = "keep"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
