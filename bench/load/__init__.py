"""Load test: simulated annotators through the real HTTP API (see bench/load/run.py)."""
