from enum import StrEnum


class ProblemDomainEnum(StrEnum):
    AGENT = "agent"
    CODE = "code"
    EMBODIED = "embodied"
    EVIDENCE = "evidence"
    GRAPH = "graph"
    MATH = "math"
    MULTIMODAL = "multimodal"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
