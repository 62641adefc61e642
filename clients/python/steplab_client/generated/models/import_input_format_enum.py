from enum import StrEnum


class ImportInputFormatEnum(StrEnum):
    ALFWORLD = "alfworld"
    AUTO = "auto"
    EMBODIED = "embodied"
    FINQA = "finqa"
    GRAPHSILO = "graphsilo"
    GSM8K = "gsm8k"
    MATH = "math"
    MATH_SHEPHERD = "math_shepherd"
    MESSAGES = "messages"
    PRM800K = "prm800k"
    PRM800K_MRMATH = "prm800k_mrmath"
    PRMBENCH = "prmbench"
    PROCESSBENCH = "processbench"
    STEPLAB = "steplab"
    TRL = "trl"

    def __str__(self) -> str:
        return str(self.value)
