"""The statistics on count tables, against values worked out by hand (and Wikipedia's)."""

import numpy as np
import pytest

from labeling.metrics.agreement import (
    CoincidenceAccumulator,
    cohen_kappa,
    expand_profiles,
    fleiss_kappa,
    krippendorff_alpha,
    pairwise_agreement,
)


def test_fleiss_kappa_wikipedia_example():
    # Fleiss (1971) as worked on Wikipedia: 10 subjects, 14 raters, 5 categories -> 0.210.
    table = np.array(
        [
            [0, 0, 0, 0, 14],
            [0, 2, 6, 4, 2],
            [0, 0, 3, 5, 6],
            [0, 3, 9, 2, 0],
            [2, 2, 8, 1, 1],
            [7, 7, 0, 0, 0],
            [3, 2, 6, 3, 0],
            [2, 5, 3, 2, 2],
            [6, 5, 2, 1, 0],
            [0, 2, 2, 3, 7],
        ]
    )
    assert fleiss_kappa(table) == pytest.approx(0.2099, abs=1e-4)


def test_fleiss_kappa_weighted_profiles_equal_expanded_rows():
    profiles = np.array([[0, 0, 3], [0, 1, 2], [3, 0, 0]])
    weights = np.array([2, 1, 2])
    assert fleiss_kappa(profiles, weights) == pytest.approx(47 / 62)
    assert fleiss_kappa(expand_profiles(profiles, weights)) == pytest.approx(47 / 62)
    with pytest.raises(ValueError):
        fleiss_kappa(np.array([[0, 0, 3], [0, 0, 2]]))


def test_cohen_kappa_by_hand():
    # a: 1,1,-1,1,1,1,-1  b: 1,1,-1,1,-1,1,-1 -> p_o 6/7, p_e 26/49, kappa 16/23
    confusion = np.array([[2, 0, 0], [0, 0, 0], [1, 0, 4]])
    assert cohen_kappa(confusion) == pytest.approx(16 / 23)
    assert cohen_kappa(np.array([[3, 0], [0, 0]])) is None  # one category only: undefined
    assert cohen_kappa(np.zeros((2, 2))) is None


def test_krippendorff_ordinal_by_hand():
    # Value counts per step over (-1, 0, +1); worked through the coincidence matrix: 40/57.
    units = expand_profiles(
        np.array([[0, 0, 3], [0, 1, 2], [3, 0, 0], [0, 0, 2], [1, 0, 1]]),
        np.array([2, 1, 2, 1, 1]),
    )
    alpha = krippendorff_alpha(units, level="ordinal", value_domain=[-1, 0, 1])
    assert alpha == pytest.approx(40 / 57)
    assert pairwise_agreement(units) == pytest.approx(28 / 34)


def test_krippendorff_undefined_cases():
    assert (
        krippendorff_alpha(np.array([[0, 0, 1]]), level="ordinal", value_domain=[-1, 0, 1]) is None
    )
    assert (
        krippendorff_alpha(np.array([[0, 0, 3]]), level="ordinal", value_domain=[-1, 0, 1]) is None
    )


def test_streamed_nominal_alpha_equals_the_krippendorff_package():
    rng = np.random.default_rng(7)
    domain = [-1, 0, 1, 2, 3, 5, 8]
    units = []
    acc = CoincidenceAccumulator()
    for _ in range(300):
        raters = rng.integers(1, 5)
        values = rng.choice(domain, size=raters, p=[0.4, 0.2, 0.1, 0.1, 0.1, 0.05, 0.05])
        counts = {int(v): int((values == v).sum()) for v in set(values.tolist())}
        acc.add(counts)
        units.append([counts.get(v, 0) for v in domain])
    expected = krippendorff_alpha(np.array(units), level="nominal", value_domain=domain)
    assert acc.nominal_alpha() == pytest.approx(expected, abs=1e-12)
    assert acc.pairwise_agreement() == pytest.approx(pairwise_agreement(np.array(units)))
    assert acc.units == sum(1 for u in units if sum(u) >= 2)


def test_streamed_alpha_by_hand():
    # s1: three say 2; s2: none vs 1; s3: three say 1 -> 12/19 (tests/metrics fixture).
    acc = CoincidenceAccumulator()
    for counts in ({2: 3}, {-1: 1, 1: 1}, {1: 3}, {4: 1}):
        acc.add(counts)
    assert acc.units == 3
    assert acc.nominal_alpha() == pytest.approx(12 / 19)
    assert CoincidenceAccumulator().nominal_alpha() is None
