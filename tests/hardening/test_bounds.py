"""The harness's own bound: a call that does not return in time fails, and the next one runs."""

import threading

import pytest

from tests.hardening.bounds import Hang, bounded


def test_a_call_that_does_not_return_in_time_is_a_hang_and_the_next_call_still_runs() -> None:
    never = threading.Event()
    with pytest.raises(Hang, match=r"the stuck call did not return within 0\.2 s"):
        bounded(lambda: never.wait(30), 0.2, "the stuck call")
    assert bounded(lambda: 42, 5).value == 42
    assert isinstance(bounded(lambda: 1 // 0, 5).error, ZeroDivisionError)
    never.set()
