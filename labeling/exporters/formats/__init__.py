"""Export formats: each turns SolutionRecords into rows of one dataset layout."""

from .base import Format, Row, Stats
from .chat_template import ChatTemplateFormat
from .dense_rewards import DenseRewardsFormat
from .math_shepherd import MathShepherdFormat
from .openrlhf import OpenRlhfFormat
from .pairwise import PairwiseFormat
from .prm800k import Prm800kFormat
from .processbench import ProcessBenchFormat
from .trl import TrlFormat

FORMATS: dict[str, type[Format]] = {
    cls.name: cls
    for cls in (
        TrlFormat,
        Prm800kFormat,
        MathShepherdFormat,
        ProcessBenchFormat,
        PairwiseFormat,
        DenseRewardsFormat,
        OpenRlhfFormat,
        ChatTemplateFormat,
    )
}

# The format names, for the API schema's one ExportFormatEnum (input and output).
FORMAT_NAMES = tuple(FORMATS)

__all__ = ["FORMAT_NAMES", "FORMATS", "Format", "Row", "Stats"]
