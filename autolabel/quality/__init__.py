"""The label-quality harness: labeled public files in, the auto-label sources run as the
workers run them (no database), per-source metrics out. CLI: bench/label_quality.py."""
