from enum import StrEnum


class UsesEnum(StrEnum):
    NONE = "none"
    SERVER = "server"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
