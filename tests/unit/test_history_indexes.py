"""LabelHistory, written on every draft save and submit, keeps one index led by solution_id
(the (solution, id) one its reads use), not a second on solution_id alone (migration 0022)."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_history_has_one_index_led_by_solution():
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "labeling_labelhistory")
    led_by_solution = sorted(
        tuple(c["columns"])
        for c in constraints.values()
        if c["index"] and c["columns"] and c["columns"][0] == "solution_id"
    )
    assert led_by_solution == [("solution_id", "id")]
