"""Agreement and throughput metrics: SQL aggregation (queries.py) feeding small matrices to
the statistics (agreement.py, no Django)."""
