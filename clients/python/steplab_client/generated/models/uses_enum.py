from enum import StrEnum


class UsesEnum(StrEnum):
    NONE = "none"
    SERVER = "server"
    SERVER_LISTED = "server_listed"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
