"""Export decontamination: leave out problems that are in a benchmark the user names.

`filters.decontaminate` lists up to SETS_MAX benchmark sets, each a JSONL file in
settings.BENCHMARK_DIR (`{"file": "math500.jsonl"}`) or a Hub dataset split
(`{"hub": "HuggingFaceH4/MATH-500", "config": "default", "split": "test"}`, fetched with
labeling.hub.pull). A row's problem is its `problem` field, else `question`. An exported
problem that equals a benchmark problem after normalization, or is a near-duplicate of one
(near_dups: a reworded copy), is left out with all its solutions; the card counts them per
benchmark.
"""

import json
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.conf import settings

from labeling.errors import DomainError, ValidationFailed
from labeling.rules.near_dups import NearIndex

SETS_MAX = 5
ROWS_MAX = 200_000  # benchmark rows read per set
FILE_BYTES_MAX = 512 * 1024 * 1024
PROBLEM_CHARS_MAX = 20_000  # longer benchmark problems are cut to this for matching
_PART = r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}"
_FILE_NAME = re.compile(rf"^{_PART}(/{_PART}){{0,3}}$")
AT = "filters.decontaminate"


@dataclass(frozen=True)
class Benchmark:
    file: str = ""
    hub: str = ""
    config: str = "default"
    split: str = "test"

    @property
    def label(self) -> str:
        return self.file or f"hf://datasets/{self.hub} ({self.config}/{self.split})"

    def as_dict(self) -> dict[str, str]:
        if self.file:
            return {"file": self.file}
        return {"hub": self.hub, "config": self.config, "split": self.split}


def benchmark_dir() -> Path:
    return Path(settings.BENCHMARK_DIR)


def _file_path(name: str, at: str) -> Path:
    if not _FILE_NAME.match(name) or ".." in name.split("/"):
        raise ValidationFailed(
            f"{at}.file must be a file name inside the benchmark folder (letters, digits, "
            f"'.', '_', '-', up to 3 sub-folders); got {name!r}.",
            field=f"{at}.file",
        )
    path = benchmark_dir() / name
    if not path.is_file():
        raise ValidationFailed(
            f"{at}.file: no benchmark file {name!r} in the benchmark folder "
            f"(settings BENCHMARK_DIR).",
            field=f"{at}.file",
        )
    if path.stat().st_size > FILE_BYTES_MAX:
        raise ValidationFailed(
            f"{at}.file: {name!r} is over {FILE_BYTES_MAX // 2**20} MiB.", field=f"{at}.file"
        )
    return path


def benchmarks_from(raw: Any) -> tuple[Benchmark, ...]:
    """Validate `filters.decontaminate`; file sets must exist now (export creation)."""
    if raw is None or raw == []:
        return ()
    if not isinstance(raw, list | tuple):
        raise ValidationFailed(f"{AT} must be a list of benchmark sets.", field=AT)
    if len(raw) > SETS_MAX:
        raise ValidationFailed(f"{AT}: at most {SETS_MAX} benchmark sets.", field=AT)
    sets: list[Benchmark] = []
    for i, item in enumerate(raw):
        at = f"{AT}[{i}]"
        if not isinstance(item, dict) or ("file" in item) == ("hub" in item):
            raise ValidationFailed(
                f'{at} must be {{"file": name}} or {{"hub": repo, "config", "split"}}.', field=at
            )
        extra = sorted(set(item) - ({"file"} if "file" in item else {"hub", "config", "split"}))
        if extra:
            raise ValidationFailed(f"{at}: unknown key {extra[0]!r}.", field=f"{at}.{extra[0]}")
        if not all(isinstance(v, str) for v in item.values()):
            raise ValidationFailed(f"{at}: values must be strings.", field=at)
        if "file" in item:
            _file_path(item["file"], at)
            sets.append(Benchmark(file=item["file"]))
            continue
        from labeling.hub.pull import HubSource

        one = Benchmark(
            hub=item["hub"], config=item.get("config", "default"), split=item.get("split", "test")
        )
        try:
            HubSource(repo_id=one.hub, config=one.config, split=one.split).checked()
        except DomainError as exc:  # the Hub's own name checks (HubError)
            raise ValidationFailed(f"{at}: {exc.message}", field=at) from None
        sets.append(one)
    return tuple(dict.fromkeys(sets))


def _problems(lines: IO[bytes], label: str) -> Iterator[str]:
    for n, line in enumerate(lines, 1):
        if n > ROWS_MAX:
            raise ValidationFailed(f"benchmark {label}: more than {ROWS_MAX} rows.")
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise ValidationFailed(f"benchmark {label}, line {n}: not JSON.") from None
        text = row.get("problem") or row.get("question") if isinstance(row, dict) else None
        if not isinstance(text, str) or not text.strip():
            raise ValidationFailed(
                f"benchmark {label}, line {n}: no `problem` or `question` text field."
            )
        yield text[:PROBLEM_CHARS_MAX]


def _fill(
    index: NearIndex, one: Benchmark, names: dict[str, str], auth: Callable[[str], Any] | None
) -> None:
    def add(lines: IO[bytes]) -> None:
        for n, text in enumerate(_problems(lines, one.label)):
            key = f"{one.label}\x00{n}"
            names[key] = one.label
            index.add(key, text)

    if one.file:
        with open(_file_path(one.file, AT), "rb") as f:
            add(f)
        return
    from labeling.hub.pull import HubSource, hub_split_write

    with tempfile.TemporaryFile() as out:
        hub_split_write(
            HubSource(repo_id=one.hub, config=one.config, split=one.split),
            out,
            auth=auth(one.hub) if auth else None,
        )
        out.seek(0)
        add(out)


@dataclass
class Decontaminator:
    """Which benchmark (its label) a problem text is in; None when clean."""

    index: NearIndex
    names: dict[str, str]
    labels: tuple[str, ...]

    def benchmark_of(self, text: str) -> str | None:
        key = self.index.match(text[:PROBLEM_CHARS_MAX])
        return self.names[key] if key is not None else None


def decontaminator(
    benchmarks: tuple[Benchmark, ...], *, auth: Callable[[str], Any] | None = None
) -> Decontaminator | None:
    """The index of the benchmarks' problems. `auth(repo_id)` gives the Hub token (a HubAuth)
    that the Hub benchmark `repo_id` is read with, asked only when there is one (default: the
    server's)."""
    if not benchmarks:
        return None
    index, names = NearIndex(), {}
    for one in benchmarks:
        _fill(index, one, names, auth)
    return Decontaminator(index=index, names=names, labels=tuple(b.label for b in benchmarks))
