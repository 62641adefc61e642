"""training.compare's table with the judge source's critic as the generative row.

    python -m autolabel.judge.compare FILE --prm pointwise=runs/prm [--prm ...] \\
        --judge-base-url URL --judge-model NAME [--judge-votes 1] [--out report.json]

Same arguments and output as `python -m training.compare`; training imports no autolabel, so
this hands it the critic (autolabel.judge.processbench.judge_from_settings) as a callable.
"""

from __future__ import annotations

import sys

from autolabel.judge.processbench import judge_from_settings
from training import compare


def main(argv: list[str] | None = None) -> int:
    return compare.main(
        argv, make_judge=judge_from_settings, prog="python -m autolabel.judge.compare"
    )


if __name__ == "__main__":
    sys.exit(main())
