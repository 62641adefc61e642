"""labeling.pg.gc_pause: the collector is off inside, back on after the last of nested blocks."""

import gc
import threading

from labeling.pg.gc_pause import gc_paused


def test_nested_and_concurrent_pauses_share_one_and_restore_it():
    assert gc.isenabled()
    inner_entered, release = threading.Event(), threading.Event()

    def other() -> None:
        with gc_paused():
            inner_entered.set()
            release.wait(5)

    with gc_paused():
        assert not gc.isenabled()
        thread = threading.Thread(target=other)
        thread.start()
        inner_entered.wait(5)
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's block is still open
    release.set()
    thread.join()
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled():
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_exception_still_restores_the_collector():
    try:
        with gc_paused():
            raise KeyError
    except KeyError:
        pass
    assert gc.isenabled()
