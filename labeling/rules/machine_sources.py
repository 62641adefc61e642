"""Which suggestion sources exist: the built-in ones (SuggestionSource) and the engine
plug-ins installed in this environment (entry point group ``steplab.engines``).

labeling imports no autolabel (ARCHITECTURE.md, "Imports point one way"), so autolabel
registers the plug-ins' names and labels here when its registry loads them
(autolabel.registry, at import and from AutolabelConfig.ready, in every web and worker
process). Every place that lists or checks a source name (export filters, the explorer's
verdict filter, consensus) asks machine_sources(); GET /api/machine-sources/ lists the same
names with their labels (machine_sources_listed). No Django model is imported at module level:
the registry imports this module in processes that never set Django up (the label-quality
harness).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# A source name is a slug that fits Suggestion.source.
SOURCE_MAX_LENGTH = 40
# At most this many names in any list of sources a client sends (built-ins + plug-ins).
SOURCES_MAX = 64

# name -> label, in the order the registry found them.
_plugin_sources: dict[str, str] = {}


def builtin_sources() -> tuple[str, ...]:
    from labeling.models.suggestion import SuggestionSource

    return tuple(SuggestionSource.values)


def plugin_sources_set(names: Mapping[str, str] | Iterable[str]) -> None:
    """The installed plug-ins' source names, with their labels when a mapping is given
    (replaces what was registered before). The registry has refused names that collide with
    a built-in source already."""
    labels = dict(names) if isinstance(names, Mapping) else {n: n for n in names}
    _plugin_sources.clear()
    _plugin_sources.update(labels)


def plugin_sources() -> tuple[str, ...]:
    return tuple(_plugin_sources)


def machine_sources() -> tuple[str, ...]:
    """Every source a suggestion may carry here: the built-ins, then the plug-ins."""
    builtin = builtin_sources()
    return (*builtin, *(n for n in _plugin_sources if n not in builtin))


def machine_sources_listed(default_order: Iterable[str]) -> list[dict[str, Any]]:
    """machine_sources() as a client lists them: `default_order` first (the export's default
    auto_sources, labeling.exporters.options.AUTO_PRIORITY, which imports this module), then the
    other built-ins, then the plug-ins; each with its label, whether it is a plug-in, and
    whether the default holds it."""
    from labeling.models.suggestion import SuggestionSource

    labels = dict(SuggestionSource.choices)
    default = [str(s) for s in default_order]
    names = [*default, *(n for n in machine_sources() if n not in default)]
    return [
        {
            "name": name,
            "label": labels.get(name) or _plugin_sources.get(name) or name,
            "plugin": name not in labels,
            "default": name in default,
        }
        for name in names
    ]
