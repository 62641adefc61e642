"""The ProcessBench dev set (shared/data/processbench_dev.jsonl) split once, by problem.

Rows that share a problem always fall in the same part, so nothing learned from one wording of
a problem is measured on another solution of it. `develop` is the part checkers are tuned on
(read its refutations, write tests from its steps); `measure` is read only for the figures
reported at the end of a change, never to find what to fix. The split is a salted hash of the
problem's text with its whitespace folded: stable across runs, machines and row order, fixed
by this file (changing SALT or MEASURE_PER_MILLE would make a new split and void the
"never looked at" promise of the old measure part).
"""

from __future__ import annotations

import hashlib
import re

SALT = "steplab/issue-25/dev-split/v1"
MEASURE_PER_MILLE = 300  # about 30% of problems are measured only
DEVELOP = "develop"
MEASURE = "measure"
PARTS = (DEVELOP, MEASURE)


def _folded(problem: str) -> str:
    return re.sub(r"\s+", " ", problem).strip()


def part_of(problem: str) -> str:
    digest = hashlib.sha256(f"{SALT}\n{_folded(problem)}".encode()).digest()
    return MEASURE if int.from_bytes(digest[:8], "big") % 1000 < MEASURE_PER_MILLE else DEVELOP
