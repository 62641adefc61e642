"""Engine registry: a run names its sources; each name maps to one engine instance, and a
run's chunks go to the most specialised queue its sources need.

Model backends (torch, transformers, httpx) are imported lazily by the engines, so the web
process can list and validate sources without them.
"""

from annotate.queues import Queue
from autolabel.engines.agent import AgentEngine
from autolabel.engines.answer import AnswerEngine
from autolabel.engines.base import Engine
from autolabel.engines.citation import CitationEngine
from autolabel.engines.code import CodeEngine
from autolabel.engines.consensus import ConsensusEngine
from autolabel.engines.graph import GraphEngine
from autolabel.engines.judge import JudgeEngine
from autolabel.engines.prm import PrmEngine
from autolabel.engines.rollout import RolloutEngine
from autolabel.engines.subgoal import SubgoalEngine
from autolabel.engines.symbolic import SymbolicEngine

ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        AnswerEngine(),
        SymbolicEngine(),
        RolloutEngine(),
        JudgeEngine(),
        CodeEngine(),
        AgentEngine(),
        GraphEngine(),
        CitationEngine(),
        SubgoalEngine(),
        PrmEngine(),
        ConsensusEngine(),
    )
}

QUEUE_RANK = [Queue.DEFAULT, Queue.ROLLOUTS, Queue.GPU]


def chunk_queue(sources: list[str]) -> str:
    """A chunk runs on the most specialised queue any of its sources needs; an engine that
    needs only CPU (`queue = Queue.DEFAULT`) has its chunks on the `autolabel` queue, machine
    work apart from the short tasks of `default` (annotate.queues)."""
    queue = max((ENGINES[s].queue for s in sources), key=QUEUE_RANK.index)
    return Queue.AUTOLABEL if queue == Queue.DEFAULT else queue
