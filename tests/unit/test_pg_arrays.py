"""labeling/pg/arrays.py: an array literal reads back as the values it was written from."""

import pytest
from django.db import connection

from labeling.pg.arrays import int_array, text_array

TEXTS = ["", "a", "NULL", "null", 'say "hi"', "back\\slash", "\\", '\\"', "{braces}", "a,b"]
TEXTS += [" spaced ", "tab\there", "line\nbreak", "quote'single", "日本語", "sha256:ab12"]


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL arrays")
def test_the_literals_read_back_as_their_values():
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::text[], %s::bigint[]", [text_array(TEXTS), int_array([])])
        texts, empty = cursor.fetchone()
        assert texts == TEXTS and empty == []
        ints = [0, -1, 2**63 - 1, -(2**63), 42]
        cursor.execute("SELECT %s::bigint[]", [int_array(ints)])
        assert cursor.fetchone()[0] == ints
        cursor.execute("SELECT %s::text[]", [text_array([])])
        assert cursor.fetchone()[0] == []
