from enum import StrEnum


class TokenKindEnum(StrEnum):
    GIVEN = "given"
    NONE = "none"
    SERVER = "server"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
