from enum import StrEnum


class ExportsListExportFormat(StrEnum):
    CHAT_TEMPLATE = "chat_template"
    DENSE_REWARDS = "dense_rewards"
    MATH_SHEPHERD = "math_shepherd"
    OPENRLHF = "openrlhf"
    PAIRWISE = "pairwise"
    PRM800K = "prm800k"
    PROCESSBENCH = "processbench"
    TRL = "trl"

    def __str__(self) -> str:
        return str(self.value)
