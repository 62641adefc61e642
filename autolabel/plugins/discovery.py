"""Finding the installed engine plug-ins: the entry point group ``steplab.engines``.

Each entry point loads an engine object (anything callable with a `name`), an engine class, or
a factory (a function without a `name` that returns the engine). What the registry needs from
it: `name` (a slug that no built-in source has), `queue` (default, rollouts or gpu; "default"
when left out), `params` (the schema, autolabel/plugins/schema.py; none when left out),
optional `label`, `description`, `domains` and `needs_suggestions`. A plug-in that fails to
load or breaks one of these is logged with the reason and skipped; discovery itself never
raises, so a broken package cannot stop the web process or a worker from starting.
Pure Python: no Django.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from autolabel.plugins.engine import PluginEngine
from autolabel.plugins.schema import ParamError, schema_of

log = logging.getLogger(__name__)

GROUP = "steplab.engines"
NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
QUEUES = ("default", "rollouts", "gpu")
LABEL_MAX = 100
DESCRIPTION_MAX = 1000
DOMAINS_MAX = 20


@dataclass(frozen=True)
class PluginFailure:
    entry_point: str
    distribution: str
    error: str


class PluginRefused(Exception):
    pass


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    if dist is None:
        return "unknown distribution"
    return f"{dist.metadata['Name']} {dist.version}"


def _instance(loaded: Any) -> Any:
    """The engine an entry point names: the object, an instance of the class, or what the
    factory returns."""
    if isinstance(loaded, type):
        return loaded()
    if callable(loaded) and not hasattr(loaded, "name"):
        return loaded()
    return loaded


def _text(engine: Any, key: str, default: str, limit: int) -> str:
    value = getattr(engine, key, default)
    if not isinstance(value, str) or len(value) > limit:
        raise PluginRefused(f"{key} must be a string of at most {limit} characters")
    return value


def _plugin(point: EntryPoint, reserved: set[str]) -> PluginEngine:
    engine = _instance(point.load())
    name = getattr(engine, "name", None)
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise PluginRefused(
            f"name {name!r} must be a slug (lowercase letters, digits, - and _; at most 40 "
            "characters, a letter first)"
        )
    if name in reserved:
        raise PluginRefused(f"name {name!r} is a built-in source's; choose another")
    if not callable(engine):
        raise PluginRefused("the engine must be callable as engine(solution, params)")
    queue = getattr(engine, "queue", "default")
    queue = getattr(queue, "value", queue)  # a Queue member
    if queue not in QUEUES:
        raise PluginRefused(f"queue must be one of {', '.join(QUEUES)}, got {queue!r}")
    try:
        schema = schema_of(getattr(engine, "params", None))
    except ParamError as exc:
        raise PluginRefused(f"params: {exc}") from exc
    domains = getattr(engine, "domains", ())
    if isinstance(domains, str) or not isinstance(domains, list | tuple | frozenset | set):
        raise PluginRefused("domains must be a list of domain names")
    if len(domains) > DOMAINS_MAX or not all(isinstance(d, str) and d for d in domains):
        raise PluginRefused(f"domains must be at most {DOMAINS_MAX} domain names")
    needs = getattr(engine, "needs_suggestions", False)
    if not isinstance(needs, bool):
        raise PluginRefused("needs_suggestions must be true or false")
    return PluginEngine(
        name=name,
        queue=str(queue),
        engine=engine,
        schema=schema,
        label=_text(engine, "label", name, LABEL_MAX) or name,
        description=_text(engine, "description", "", DESCRIPTION_MAX),
        domains=tuple(sorted(set(domains))),
        distribution=_distribution(point),
        entry_point=f"{point.name} = {point.value}",
        needs_suggestions=needs,
    )


def plugins_discover(
    reserved: set[str], points: Iterable[EntryPoint] | None = None
) -> tuple[list[PluginEngine], list[PluginFailure]]:
    """The installed plug-ins that load and keep the contract, and why the others did not.
    `reserved`: the built-in names. Two plug-ins with one name: the first (by entry point
    name, then distribution) wins and the other is refused."""
    if points is None:
        try:
            points = entry_points(group=GROUP)
        except Exception as exc:  # a broken metadata file elsewhere in site-packages
            log.error("steplab.engines: could not list entry points: %s", exc)
            return [], [PluginFailure("", "", f"could not list entry points: {exc}")]
    loaded: list[PluginEngine] = []
    failures: list[PluginFailure] = []
    taken = set(reserved)
    ordered = sorted(points, key=lambda p: (p.name, _distribution(p), p.value))
    for point in ordered:
        where = f"{point.name} = {point.value}"
        try:
            plugin = _plugin(point, taken)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - any plug-in bug is skipped
            reason = str(exc) if isinstance(exc, PluginRefused) else f"{type(exc).__name__}: {exc}"
            failures.append(PluginFailure(where, _distribution(point), reason[:1000]))
            log.error(
                "steplab.engines: skipped plug-in %s (%s): %s", where, _distribution(point), reason
            )
            continue
        taken.add(plugin.name)
        loaded.append(plugin)
        log.info("steplab.engines: loaded %s from %s", plugin.name, plugin.distribution)
    return loaded, failures
