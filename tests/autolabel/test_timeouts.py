"""Hard time limits: pathological inputs come back unknown/None in time, in any thread."""

import threading
import time

import pytest

from autolabel import timeouts
from autolabel.answers import equivalent
from autolabel.symbolic import check_step

MARGIN_S = 1.0  # scheduling on a loaded 2-core machine, a worker replacement


def _in_thread(func, *args, **kwargs):
    box = {}

    def run():
        start = time.monotonic()
        box["result"] = func(*args, **kwargs)
        box["elapsed"] = time.monotonic() - start

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    return box["result"], box["elapsed"]


def _timed(func, *args, **kwargs):
    start = time.monotonic()
    result = func(*args, **kwargs)
    return result, time.monotonic() - start


def c_level_power(exponent: int) -> int:
    """Python int power runs in C: no signal interrupts it, only a kill does."""
    return pow(10, exponent).bit_length()


def slow_python_loop(seconds: float) -> int:
    end, n = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        n += 1
    return n


@pytest.mark.parametrize("runner", [_timed, _in_thread], ids=["main-thread", "other-thread"])
def test_answer_check_of_a_tower_of_powers_gives_none_in_time(runner):
    result, elapsed = runner(equivalent, "10^{10^{10}}", "1", timeout_s=1.0)
    assert result is None
    assert elapsed < 1.0 + MARGIN_S


@pytest.mark.parametrize("runner", [_timed, _in_thread], ids=["main-thread", "other-thread"])
@pytest.mark.parametrize(
    "text",
    [r"$10^{10^{10}} = 5$", r"$(10^{10})! = 3$", "10^10^10 = 7", r"$2^{2^{2^{2^{2}}}} = 4$"],
)
def test_step_check_of_huge_numbers_is_unknown_in_time(runner, text):
    verdict, elapsed = runner(check_step, text, timeout_s=1.0)
    assert verdict.verdict == "unknown"
    assert elapsed < 1.0 + MARGIN_S


@pytest.mark.parametrize("runner", [_timed, _in_thread], ids=["main-thread", "other-thread"])
def test_hard_limit_kills_work_stuck_in_c(runner):
    def call():
        try:
            timeouts.call_with_time_limit(c_level_power, 10**10, timeout_s=0.5)
        except timeouts.TimeLimitExceeded:
            return "timed out"
        return "finished"

    result, elapsed = runner(call)
    assert result == "timed out"
    assert elapsed < 0.5 + MARGIN_S
    # the killed worker is replaced: the next check works and is fast
    verdict, elapsed = runner(check_step, "3 * 4 = 12", timeout_s=2.0)
    assert verdict.verdict == "verified" and elapsed < 2.0


def test_soft_limit_keeps_the_worker():
    with pytest.raises(timeouts.TimeLimitExceeded):
        timeouts.call_with_time_limit(slow_python_loop, 5.0, timeout_s=0.5)
    assert timeouts.call_with_time_limit(slow_python_loop, 0.01, timeout_s=2.0) > 0


def test_errors_in_the_worker_are_reported():
    with pytest.raises(timeouts.WorkerError, match="ZeroDivisionError"):
        timeouts.call_with_time_limit(divmod, 1, 0, timeout_s=2.0)


def test_nested_soft_limits_in_the_main_thread():
    start = time.monotonic()
    with (
        pytest.raises(timeouts.TimeLimitExceeded),
        timeouts.soft_time_limit(0.3),
        timeouts.soft_time_limit(5.0),  # an inner limit never extends the outer
    ):
        slow_python_loop(3.0)
    assert time.monotonic() - start < 1.0


def test_many_threads_at_once():
    results: list[str] = []

    def work(i: int) -> None:
        results.append(check_step(f"{i} + {i} = {2 * i}", timeout_s=5.0).verdict)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results == ["verified"] * 6
