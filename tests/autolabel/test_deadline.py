"""ItemDeadline (autolabel/deadline.py): the one per-item budget every engine uses."""

import time

import pytest

from autolabel.deadline import ItemDeadline
from autolabel.errors import ItemSkipped


def test_a_call_gets_what_is_left():
    deadline = ItemDeadline(10, limit="rollout_item_s", spending="its rollouts")
    assert 9 < deadline.cut(60) <= 10 and deadline.cut(2) == 2
    assert 9 < deadline.wait_s() <= 10
    deadline.raise_if_cut(True, 2, 2)  # its own timeout: the call's verdict, not the budget's
    with pytest.raises(ItemSkipped, match=r"^skipped: over budget: its rollouts took more than"):
        deadline.raise_if_cut(True, 1.5, 2)  # the cut timeout ran out: the item's budget did


def test_spent_refuses_every_call():
    deadline = ItemDeadline(0.05, limit="judge_item_s", spending="its judge calls")
    time.sleep(0.06)
    for call in (deadline.check, deadline.left, deadline.wait_s, lambda: deadline.cut(5)):
        with pytest.raises(ItemSkipped, match=r"AUTOLABEL_LIMITS\['judge_item_s'\]"):
            call()


def test_no_budget_waits_as_long_as_it_takes():
    deadline = ItemDeadline(None, limit="code_item_s", spending="its runs")
    assert deadline.wait_s() is None and deadline.cut(5) == 5
    deadline.check()
    deadline.raise_if_cut(True, 5, 5)
