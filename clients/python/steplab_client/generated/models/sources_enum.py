from enum import StrEnum


class SourcesEnum(StrEnum):
    AGENT = "agent"
    ANSWER = "answer"
    CITATION = "citation"
    CODE = "code"
    CONSENSUS = "consensus"
    GRAPH = "graph"
    JUDGE = "judge"
    PRM = "prm"
    ROLLOUT = "rollout"
    SUBGOAL = "subgoal"
    SYMBOLIC = "symbolic"

    def __str__(self) -> str:
        return str(self.value)
