"""The first-error binary search on its own: every position, every length, probe budget."""

import math

import pytest

from autolabel.rollouts import find_first_error


def _probe_counter(first_bad: int | None):
    probes: list[int] = []

    def is_bad(i: int) -> bool:
        probes.append(i)
        return first_bad is not None and i >= first_bad

    return is_bad, probes


@pytest.mark.parametrize("count", range(1, 14))
def test_finds_every_first_error_within_the_log_budget(count: int) -> None:
    for first_bad in [*range(count), None]:
        is_bad, probes = _probe_counter(first_bad)
        assert find_first_error(count, is_bad) == first_bad
        assert len(probes) <= math.ceil(math.log2(count + 1))
        assert len(set(probes)) == len(probes)


@pytest.mark.parametrize("count", range(1, 14))
def test_a_known_last_step_is_not_probed(count: int) -> None:
    for first_bad in range(count):  # the final answer is wrong: the last step is bad
        is_bad, probes = _probe_counter(first_bad)
        assert find_first_error(count, is_bad, last_good=False) == first_bad
        assert count - 1 not in probes
        assert len(probes) <= math.ceil(math.log2(count))
    is_bad, probes = _probe_counter(None)  # final answer right, no earlier error
    assert find_first_error(count, is_bad, last_good=True) is None
    assert count - 1 not in probes


def test_empty_solution_has_no_error() -> None:
    assert find_first_error(0, lambda i: pytest.fail("probed")) is None
