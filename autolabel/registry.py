"""Engine registry: a run names its sources; each name maps to one engine instance, and a
run's chunks go to the most specialised queue its sources need.

ENGINES holds the built-in engines and the engine plug-ins installed in this environment
(entry point group ``steplab.engines``, autolabel/plugins/): discovered when this module is
first imported, in the web process and in every worker alike. A plug-in that fails to load or
breaks the contract is logged and left out (PLUGIN_FAILURES), never an error here.

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
from autolabel.plugins.discovery import PluginFailure, plugins_discover
from autolabel.plugins.engine import PluginEngine
from labeling.rules.machine_sources import plugin_sources_set

BUILTIN_ENGINES: dict[str, Engine] = {
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

# Source names that are not engines but are taken (labeling's SuggestionSource: imported
# datasets and uploaded predictions) and the run-level params key: no plug-in may use them
# (tests/autolabel_plugins/test_registry.py checks this covers SuggestionSource).
TAKEN_NAMES = frozenset({"import", "prediction", "chunk_size"})

ENGINES: dict[str, Engine] = {}
PLUGINS: dict[str, PluginEngine] = {}
PLUGIN_FAILURES: list[PluginFailure] = []


def engines_load(points=None) -> None:
    """(Re)build ENGINES in place: the built-ins, then the plug-ins that load. `points`: the
    entry points to read (tests); None reads the environment's."""
    plugins, failures = plugins_discover({*BUILTIN_ENGINES, *TAKEN_NAMES}, points)
    PLUGINS.clear()
    PLUGINS.update({p.name: p for p in plugins})
    PLUGIN_FAILURES[:] = failures
    ENGINES.clear()
    ENGINES.update(BUILTIN_ENGINES)
    ENGINES.update(PLUGINS)
    plugin_sources_set({p.name: p.label for p in PLUGINS.values()})


def source_applies(name: str, domain: str) -> bool:
    """A plug-in that names domains applies only to them; built-ins follow DOMAIN_SOURCES."""
    plugin = PLUGINS.get(name)
    return plugin is not None and plugin.applies_to(domain)


engines_load()

QUEUE_RANK = [Queue.DEFAULT, Queue.ROLLOUTS, Queue.GPU]


class EngineMissing(LookupError):
    """A run names a source this process does not have (a plug-in installed on the web
    process but not on this worker, or uninstalled since the run was created)."""


def engine_for(name: str) -> Engine:
    engine = ENGINES.get(name)
    if engine is None:
        raise EngineMissing(
            f"source {name!r} is not installed in this process: install its engine plug-in "
            "in every web and worker environment (docs/plugins.md)"
        )
    return engine


def chunk_queue(sources: list[str]) -> str:
    """A chunk runs on the most specialised queue any of its sources needs; an engine that
    needs only CPU (`queue = Queue.DEFAULT`) has its chunks on the `autolabel` queue, machine
    work apart from the short tasks of `default` (annotate.queues). A source missing here
    counts as CPU-only: its items fail with the reason where they run."""
    queues = [ENGINES[s].queue if s in ENGINES else Queue.DEFAULT for s in sources]
    queue = max(queues or [Queue.DEFAULT], key=QUEUE_RANK.index)
    return Queue.AUTOLABEL if queue == Queue.DEFAULT else queue
