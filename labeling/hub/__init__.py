"""The Hugging Face Hub: exports pushed to dataset repos (push.py), dataset splits fetched for
import (pull.py), both through huggingface_hub against `settings.HF_ENDPOINT` (connection.py).

A push writes one Parquet file per split under data/, the export's dataset card as README.md
(its `configs` naming those files) and a tag `export-<id>` on the commit, in a private repo
unless asked otherwise. A pull writes the rows of one config's split as JSON Lines, which the
ordinary import job then reads: the same format detection, errors and atomicity as a file.
"""
