from enum import StrEnum


class DomainEnum(StrEnum):
    AGENT = "agent"
    CODE = "code"
    EMBODIED = "embodied"
    EVIDENCE = "evidence"
    GRAPH = "graph"
    MATH = "math"
    MIXED = "mixed"
    MULTIMODAL = "multimodal"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
