"""Score bins: a source's own score mapped to the measured probability that its verdict is right.

rollout, judge and prm give each verdict a number of their own (the share of rollouts reaching
the gold answer, the share of agreeing votes, the PRM's probability). The harness counts, per
agent, verdict kind and score bin (autolabel.quality.metrics.score_bin), how often the verdict
was right on known steps; :func:`fit_bins` makes that monotone in the score with isotonic
regression (pool adjacent violators, weighted by the bins' counts) and :func:`bin_for` finds
the bin of a new score. Pure Python.

Which way is monotone depends on what the raw score says (:data:`RAW_SCORE`): rollout's and
the prm's score is P(step correct), so a +1 is more often right the higher it is and a −1 the
lower it is (a −1 at 0.02 is surer than one at 0.45); the judge's is the share of votes for
the verdict it gives, so both kinds are more often right the higher it is.
"""

from __future__ import annotations

from typing import Any

# Source -> what its raw score is: "step correct" (P(step correct)) or "verdict" (agreement).
RAW_SCORE = {"rollout": "step correct", "prm": "step correct", "judge": "verdict"}


def increasing(source: str, kind: str) -> bool:
    """Whether P(verdict right) grows with the raw score for this source and verdict kind."""
    return not (RAW_SCORE.get(source) == "step correct" and kind == "-1")


def pool_adjacent_violators(
    points: list[tuple[float, int]], *, rising: bool = True
) -> list[tuple[float, int, int]]:
    """Isotonic regression of (rate, weight) points in score order: blocks (rate, weight,
    how many points) whose rates are monotone (non-decreasing if `rising`), each the weighted
    mean of the points it pools. Points of weight 0 are left out."""
    blocks: list[list[float]] = []  # [weighted sum, weight, points]
    for rate, weight in points:
        if weight <= 0:
            continue
        blocks.append([rate * weight, weight, 1])
        while len(blocks) > 1:
            (s1, w1, c1), (s2, w2, c2) = blocks[-2], blocks[-1]
            if (s1 / w1 <= s2 / w2) if rising else (s1 / w1 >= s2 / w2):
                break
            blocks[-2:] = [[s1 + s2, w1 + w2, c1 + c2]]
    return [(s / w, int(w), int(c)) for s, w, c in blocks]


def fit_bins(cells: list[dict[str, Any]], *, rising: bool = True) -> list[dict[str, Any]]:
    """Breakpoints from the harness's bins (`lo`, `hi`, `n`, `right` as a rate; any order):
    adjacent bins that violate monotonicity are pooled into one, whose `right` is their
    weighted rate and `n` their total; `lo`/`hi` span the pooled bins."""
    cells = sorted((c for c in cells if c.get("n")), key=lambda c: c["lo"])
    fitted = pool_adjacent_violators([(c["right"], c["n"]) for c in cells], rising=rising)
    out, start = [], 0
    for rate, n, count in fitted:
        pooled = cells[start : start + count]
        start += count
        out.append({"lo": pooled[0]["lo"], "hi": pooled[-1]["hi"], "right": round(rate, 4), "n": n})
    return out


def bin_for(bins: list[dict[str, Any]], score: float) -> dict[str, Any]:
    """The bin holding `score` (`lo` inclusive, `hi` exclusive but for the last bin's); a score
    below the first bin or above the last gets that bin, one between two bins (no data there)
    the nearer one, the lower on a tie. `bins` must not be empty."""
    ordered = sorted(bins, key=lambda b: b["lo"])
    for i, b in enumerate(ordered):
        if score < b["lo"]:
            if i == 0:
                return b
            before = ordered[i - 1]
            return before if score - before["hi"] <= b["lo"] - score else b
        if score < b["hi"]:
            return b
    return ordered[-1]
