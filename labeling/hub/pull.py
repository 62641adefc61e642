"""One split of a Hub dataset as a JSON Lines file, for the import job to read.

Which files make the split: the dataset card's `configs` (its `data_files` per split, glob
patterns as `datasets` reads them) when the repo has them, else the Hub's usual layout (a file
or folder named after the split: `data/train-00000-of-00001.parquet`, `test.jsonl`,
`validation/0000.parquet`, under the config's folder for a named config). Parquet, JSON Lines
(gzipped or not) and JSON arrays are read; rows are written one JSON object a line, so an
error names the row of the split (line N = row N).
"""

from __future__ import annotations

import base64
import datetime
import decimal
import fnmatch
import gzip
import json
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

from django.conf import settings

from .connection import (
    CONFIG,
    REVISION,
    HubAuth,
    HubError,
    hub_api,
    hub_errors,
    name_check,
    repo_id_check,
    server_auth,
)

DATA_SUFFIXES = (".parquet", ".jsonl", ".jsonl.gz", ".json", ".ndjson")
SPLIT_NAME = CONFIG
MAX_FILES = 1000
CARD_MAX_BYTES = 1024 * 1024  # a dataset card is read whole to find its configs


@dataclass(frozen=True)
class HubSource:
    repo_id: str
    config: str = "default"
    split: str = "train"
    revision: str = "main"

    def checked(self) -> HubSource:
        repo_id_check(self.repo_id)
        name_check(self.config, CONFIG, "config")
        name_check(self.split, SPLIT_NAME, "split")
        name_check(self.revision, REVISION, "revision")
        return self

    def label(self) -> str:
        """How errors and the import list name it."""
        at = "" if self.revision == "main" else f"@{self.revision}"
        return f"hf://datasets/{self.repo_id}{at} ({self.config}/{self.split})"

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def _is_data(path: str) -> bool:
    return path.endswith(DATA_SUFFIXES)


def _card_patterns(api, source: HubSource, files: list[str]) -> tuple[list[str], list[str]] | None:
    """(patterns of the split, every split's name) from the card's configs, if it has any."""
    from huggingface_hub import DatasetCard, hf_hub_download

    if "README.md" not in files:
        return None
    with tempfile.TemporaryDirectory() as cache:
        path = hf_hub_download(
            source.repo_id,
            "README.md",
            repo_type="dataset",
            revision=source.revision,
            endpoint=api.endpoint,
            token=api.token,
            cache_dir=cache,
        )
        if Path(path).stat().st_size > CARD_MAX_BYTES:
            raise HubError(f"{source.repo_id}'s README.md is over {CARD_MAX_BYTES} bytes.")
        configs = DatasetCard(Path(path).read_text(encoding="utf-8")).data.configs or []
    if not configs:
        return None
    config = next((c for c in configs if c.get("config_name") == source.config), None)
    if config is None:
        names = ", ".join(str(c.get("config_name")) for c in configs)
        raise HubError(
            f"{source.repo_id} has no config {source.config!r}; it has: {names}.", field="config"
        )
    data_files = config.get("data_files", [])
    if isinstance(data_files, str | list) and not (
        isinstance(data_files, list) and data_files and isinstance(data_files[0], dict)
    ):
        entries = [{"split": "train", "path": data_files}]
    else:
        entries = data_files
    splits = [str(e.get("split", "train")) for e in entries]
    for entry in entries:
        if str(entry.get("split", "train")) == source.split:
            paths = entry.get("path", [])
            return ([paths] if isinstance(paths, str) else list(paths)), splits
    return [], splits


def _layout_split(path: str, config: str) -> str | None:
    """The split a file is in by the Hub's usual layout, None for a file of no split."""
    parts = PurePosixPath(path).parts
    if config != "default":
        if parts[0] != config:
            return None
        parts = parts[1:]
    for part in parts:
        stem = part.split(".", 1)[0]
        for split in ("train", "validation", "valid", "dev", "test"):
            if (
                stem == split
                or stem.startswith(f"{split}-")
                or stem.endswith(f"-{split}")
                or stem.startswith(f"{split}_")
            ):
                return "validation" if split in ("valid", "dev") else split
    return None


def split_files(api, source: HubSource) -> list[str]:
    files = api.list_repo_files(source.repo_id, repo_type="dataset", revision=source.revision)
    data = [f for f in files if _is_data(f)]
    found = _card_patterns(api, source, files)
    if found is not None:
        patterns, splits = found
        chosen = sorted({f for f in data for p in patterns if fnmatch.fnmatch(f, p)})
    else:
        layout = {f: _layout_split(f, source.config) for f in data}
        splits = sorted({s for s in layout.values() if s})
        chosen = sorted(f for f, s in layout.items() if s == source.split)
        if not splits and source.split == "train":  # one split, named by nothing
            chosen = sorted(data)
    if not chosen:
        have = ", ".join(sorted(set(splits))) or "no data files"
        raise HubError(
            f"{source.repo_id} ({source.config}) has no split {source.split!r}; it has: {have}.",
            field="split",
        )
    if len(chosen) > MAX_FILES:
        raise HubError(
            f"{source.repo_id}: the split has {len(chosen)} files, more than {MAX_FILES}."
        )
    return chosen


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, datetime.date | datetime.datetime | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


class _Budget:
    def __init__(self, out: IO[bytes], source: HubSource) -> None:
        self.out, self.source, self.rows, self.bytes = out, source, 0, 0
        self.limit = getattr(settings, "IMPORT_MAX_DECOMPRESSED_BYTES", 8 * 1024**3)

    def write(self, line: bytes) -> None:
        self.bytes += len(line) + 1
        if self.bytes > self.limit:
            raise HubError(
                f"{self.source.label()} is larger than the import limit ({self.limit} bytes)."
            )
        self.out.write(line.rstrip(b"\r\n") + b"\n")
        self.rows += 1


def _copy_rows(path: Path, name: str, budget: _Budget) -> None:
    if name.endswith(".parquet"):
        import pyarrow.parquet as pq

        for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
            for row in batch.to_pylist():
                budget.write(json.dumps(row, ensure_ascii=False, default=_plain).encode())
    elif name.endswith(".json"):
        if path.stat().st_size > 512 * 1024**2:
            raise HubError(f"{name}: a JSON array over 512 MB; use JSON Lines or Parquet.")
        rows = json.loads(path.read_bytes())
        for row in rows if isinstance(rows, list) else [rows]:
            budget.write(json.dumps(row, ensure_ascii=False).encode())
    else:
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rb") as f:
            for line in f:
                if line.strip():
                    budget.write(line)


def hub_split_write(
    source: HubSource, out: IO[bytes], *, auth: HubAuth | None = None
) -> dict[str, Any]:
    """Write the split's rows to `out`, read with `auth` (default: the server's HF_TOKEN);
    return {"files": [...], "rows": n, "bytes": n}."""
    from huggingface_hub import hf_hub_download

    source.checked()
    auth = auth or server_auth()
    api = hub_api(auth)
    budget = _Budget(out, source)
    with (
        hub_errors(source.repo_id, auth),
        tempfile.TemporaryDirectory(prefix="steplab-hub-") as cache,
    ):
        files = split_files(api, source)
        for name in files:
            path = hf_hub_download(
                source.repo_id,
                name,
                repo_type="dataset",
                revision=source.revision,
                endpoint=api.endpoint,
                token=auth.token or False,
                cache_dir=cache,
            )
            _copy_rows(Path(path), name, budget)
            Path(path).unlink(missing_ok=True)
    return {"files": files, "rows": budget.rows, "bytes": budget.bytes}
