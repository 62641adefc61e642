"""Talking to PostgreSQL fast: the few paths where the ORM's own cost shows.

Use these where the Python around a statement costs more than PostgreSQL spends on it: a path
that runs on every request of the labeling loop (a claim, a draft save, a submit) or on every
row of a bulk job (imports, exports, the stored review reasons, operators' refreshes), and
only where a measurement showed it (docs/benchmarks.md, bench/). Everywhere else the ORM is
enough, and clearer: admin pages, settings, one-off writes, anything that runs once per user
action outside the loop. Each module's docstring says what it saves and what it costs; the
PostgreSQL-only statements fall back to the plain ORM or plain SQL on SQLite.

    compiled.py       the loop's hot statements and querysets compiled once with stand-ins
    writes_joined.py  writes whose results nobody reads, held back and sent as one statement
    rows_insert.py    multi-row INSERT / upsert written directly (`unnest` of arrays)
    claim_keys.py     the PRM active-learning claim order's sort keys and the index serving them
    db_retry.py       a transaction run again after a deadlock or a serialization failure
    id_ranges.py      a project's solutions walked in bounded id ranges, one transaction each
    read_ahead.py     the next batches read or parsed on a second thread (imports, exports)
    gc_pause.py       Python's cyclic garbage collector paused around a bulk import or export
    arrays.py         array parameters as one literal (an import's lookups of many ids)
    analyze.py        ANALYZE of the tables a bulk import grew past autovacuum's rule, at its end
"""
