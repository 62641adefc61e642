"""labeling.pg.read_ahead: items and the producer's error in order; stopped and closed on exit."""

import threading
import time

import pytest

from labeling.pg.read_ahead import read_ahead


def test_items_come_in_order_then_the_error_after_them():
    def items():
        yield from range(5)
        raise ValueError("line 6")

    seen = []
    with pytest.raises(ValueError, match="line 6"), read_ahead(items(), depth=2) as ahead:
        for item in ahead:
            seen.append(item)
    assert seen == [0, 1, 2, 3, 4]


def test_the_producer_runs_ahead_on_its_own_thread_by_at_most_depth():
    produced, threads = [], set()

    def items():
        for i in range(10):
            threads.add(threading.current_thread().name)
            produced.append(i)
            yield i

    with read_ahead(items(), depth=2) as ahead:
        assert next(ahead) == 0
        deadline = time.monotonic() + 5
        while len(produced) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)
        # one taken, two queued, one made and waiting for room: then the producer waits
        assert len(produced) == 4
    assert threads == {"read-ahead"}


def test_leaving_early_stops_the_thread_and_closes_the_items_there():
    closed = []

    def items():
        try:
            yield from range(1000)
        finally:
            closed.append(threading.current_thread().name)

    before = threading.active_count()
    with pytest.raises(RuntimeError), read_ahead(items()) as ahead:
        next(ahead)
        raise RuntimeError("the consumer fails")
    assert closed == ["read-ahead"]
    assert threading.active_count() == before
