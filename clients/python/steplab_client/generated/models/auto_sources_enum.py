from enum import StrEnum


class AutoSourcesEnum(StrEnum):
    AGENT = "agent"
    CITATION = "citation"
    CODE = "code"
    CONSENSUS = "consensus"
    GRAPH = "graph"
    IMPORT = "import"
    JUDGE = "judge"
    PREDICTION = "prediction"
    PRM = "prm"
    ROLLOUT = "rollout"
    SUBGOAL = "subgoal"
    SYMBOLIC = "symbolic"

    def __str__(self) -> str:
        return str(self.value)
