"""Which suggestion sources exist: the built-in ones (SuggestionSource) and the engine
plug-ins installed in this environment (entry point group ``steplab.engines``).

labeling imports no autolabel (ARCHITECTURE.md, "Imports point one way"), so autolabel
registers the plug-ins' names here when its registry loads them (autolabel.registry, at import
and from AutolabelConfig.ready, in every web and worker process). Every place that lists or
checks a source name (export filters, the explorer's verdict filter, consensus) asks
machine_sources(). No Django model is imported at module level: the registry imports this
module in processes that never set Django up (the label-quality harness).
"""

from __future__ import annotations

# A source name is a slug that fits Suggestion.source.
SOURCE_MAX_LENGTH = 40
# At most this many names in any list of sources a client sends (built-ins + plug-ins).
SOURCES_MAX = 64

_plugin_sources: list[str] = []


def builtin_sources() -> tuple[str, ...]:
    from labeling.models.suggestion import SuggestionSource

    return tuple(SuggestionSource.values)


def plugin_sources_set(names: list[str]) -> None:
    """The installed plug-ins' source names (replaces what was registered before). The
    registry has refused names that collide with a built-in source already."""
    _plugin_sources[:] = list(dict.fromkeys(names))


def plugin_sources() -> tuple[str, ...]:
    return tuple(_plugin_sources)


def machine_sources() -> tuple[str, ...]:
    """Every source a suggestion may carry here: the built-ins, then the plug-ins."""
    builtin = builtin_sources()
    return (*builtin, *(n for n in _plugin_sources if n not in builtin))
