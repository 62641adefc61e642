from enum import StrEnum


class ExplorerListVerdictSource(StrEnum):
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
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
