"""Engine registry: a run names its sources; each name maps to one engine instance."""

from autolabel.engines.answer import AnswerEngine
from autolabel.engines.base import Engine
from autolabel.engines.symbolic import SymbolicEngine

ENGINES: dict[str, Engine] = {engine.name: engine for engine in (AnswerEngine(), SymbolicEngine())}
