from enum import StrEnum


class EngineParamTypeEnum(StrEnum):
    BOOL = "bool"
    CHOICE = "choice"
    FLOAT = "float"
    INT = "int"
    STRING = "string"

    def __str__(self) -> str:
        return str(self.value)
