"""Agreement statistics on compact count matrices; no Django, no per-label objects.

Inputs are what SQL aggregation returns: per-unit value counts (a "profile") with the number
of units sharing it, or a confusion matrix per rater pair.
"""

from collections import defaultdict
from collections.abc import Sequence

import krippendorff
import numpy as np


def expand_profiles(profiles: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Units × values count matrix from distinct profiles and how many units have each."""
    return np.repeat(np.asarray(profiles, dtype=float), np.asarray(weights, dtype=int), axis=0)


def krippendorff_alpha(
    value_counts: np.ndarray, *, level: str, value_domain: Sequence[float]
) -> float | None:
    """Krippendorff's alpha from a units × values count matrix (the `krippendorff` package).

    None when fewer than two pairable values exist or every pairable value is the same
    (expected disagreement 0: alpha is undefined).
    """
    counts = np.asarray(value_counts, dtype=float)
    pairable = counts[counts.sum(axis=1) >= 2]
    if pairable.size == 0 or np.count_nonzero(pairable.sum(axis=0)) < 2:
        return None
    return float(
        krippendorff.alpha(
            value_counts=pairable, value_domain=list(value_domain), level_of_measurement=level
        )
    )


def fleiss_kappa(profiles: np.ndarray, weights: np.ndarray | None = None) -> float | None:
    """Fleiss' kappa for units rated by the same number of raters m (rows sum to m).

    `profiles`: units × categories counts; `weights`: how many units share each row (default
    one each), so SQL can send distinct profiles only. None when undefined.
    """
    table = np.asarray(profiles, dtype=float)
    w = np.ones(len(table)) if weights is None else np.asarray(weights, dtype=float)
    if len(table) == 0 or w.sum() == 0:
        return None
    m = table.sum(axis=1)
    if not np.all(m == m[0]) or m[0] < 2:
        raise ValueError("Fleiss' kappa needs the same number (≥ 2) of ratings per unit.")
    m = m[0]
    n_units = w.sum()
    p_j = (w[:, None] * table).sum(axis=0) / (n_units * m)
    p_i = ((table**2).sum(axis=1) - m) / (m * (m - 1))
    p_bar = float((w * p_i).sum() / n_units)
    p_e = float((p_j**2).sum())
    if p_e == 1.0:
        return None
    return (p_bar - p_e) / (1 - p_e)


def cohen_kappa(confusion: np.ndarray) -> float | None:
    """Cohen's kappa from a square confusion matrix of two raters' counts. None if undefined."""
    c = np.asarray(confusion, dtype=float)
    n = c.sum()
    if n == 0:
        return None
    p_o = np.trace(c) / n
    p_e = float((c.sum(axis=0) * c.sum(axis=1)).sum() / n**2)
    if p_e == 1.0:
        return None
    return float((p_o - p_e) / (1 - p_e))


def pairwise_agreement(value_counts: np.ndarray) -> float | None:
    """Share of ordered rater pairs within a unit that gave the same value."""
    c = np.asarray(value_counts, dtype=float)
    m = c.sum(axis=1)
    pairs = (m * (m - 1)).sum()
    if pairs == 0:
        return None
    return float((c * (c - 1)).sum() / pairs)


class CoincidenceAccumulator:
    """Krippendorff's coincidence matrix summed unit by unit, in O(values²) memory.

    For a very large number of units whose values come from a wide domain (first-error
    indices), this replaces handing the package a units × values matrix that it expands to
    units × values² floats. Nominal alpha from it equals `krippendorff.alpha(...,
    level_of_measurement="nominal")` (the tests check this against the package).

    Kept as integers: per (c, k, m), the sum over units of m raters of n_c·n_k (less n_c when
    c = k), and the units per m; the floats (each numerator over m − 1) are summed only when
    asked, in sorted order. So two accumulators that hold the same integers answer the same
    floats, however their units came in (the partial aggregates add and remove solutions:
    services/projects/metrics_parts.py).
    """

    def __init__(self) -> None:
        self.numerators: dict[tuple[object, object, int], int] = defaultdict(int)
        self.units_by_raters: dict[int, int] = defaultdict(int)

    def add(self, counts: dict[object, int], sign: int = 1) -> None:
        """One unit's value counts; `sign` -1 takes a unit added before away again."""
        m = sum(counts.values())
        if m < 2:
            return
        self._move(self.units_by_raters, m, sign)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                self._move(self.numerators, (c, k, m), sign * (n_c * n_k - (n_c if c == k else 0)))

    @staticmethod
    def _move(table: dict, key: object, by: int) -> None:
        total = table.get(key, 0) + by
        if total:
            table[key] = total
        else:
            table.pop(key, None)

    def merge(self, other: "CoincidenceAccumulator") -> None:
        for m, units in other.units_by_raters.items():
            self._move(self.units_by_raters, m, units)
        for key, value in other.numerators.items():
            self._move(self.numerators, key, value)

    @property
    def units(self) -> int:
        return sum(self.units_by_raters.values())

    def coincidences(self) -> dict[tuple[object, object], float]:
        o: dict[tuple[object, object], float] = defaultdict(float)
        for (c, k, m), value in sorted(self.numerators.items(), key=_numerator_order):
            o[(c, k)] += value / (m - 1)
        return o

    def pairwise_agreement(self) -> float | None:
        pairs = sum(m * (m - 1) * units for m, units in self.units_by_raters.items())
        agreeing = sum(value for (c, k, _), value in self.numerators.items() if c == k)
        return agreeing / pairs if pairs else None

    def nominal_alpha(self) -> float | None:
        o = self.coincidences()
        n_c: dict[object, float] = defaultdict(float)
        for (c, _), value in o.items():
            n_c[c] += value
        n = sum(n_c.values())
        observed = sum(v for (c, k), v in o.items() if c != k)
        expected = sum(n_c[c] * n_c[k] for c in n_c for k in n_c if c != k)
        if n < 2 or expected == 0:
            return None
        return 1 - (n - 1) * observed / expected


def _numerator_order(item: tuple) -> tuple:
    (c, k, m), _ = item
    return (m, str(type(c)), c, str(type(k)), k)
