"""An example steplab engine plug-in: steps that hedge ("I think", "probably") flagged."""

from steplab_hedges.engine import HedgeEngine, hedges_in

__all__ = ["HedgeEngine", "hedges_in"]
