"""Engine plug-ins: auto-label engines other packages add through the entry point group
``steplab.engines`` (docs/plugins.md). What a plug-in imports from steplab is here and in
autolabel.engines.base; neither imports Django."""

from autolabel.plugins.schema import Param, ParamError

__all__ = ["Param", "ParamError"]
