"""Near-duplicate problems at import (labeling/rules/near_dups.py): a new problem whose text is a
near-duplicate of one of the project's problems, or of an earlier new problem of the file, is
reported (counts and examples on the ImportResult) and, with near_duplicates="skip", left out
with all its solutions.

The project's problems are not loaded: each batch's new problems are looked up by their LSH
band keys, stored per problem (near_keys.py: one indexed query per batch), so a screen costs
the file's size, not the project's. After the rows are written, the new problems' signatures,
band keys and near-duplicate clusters are stored (`store`). A project whose problems have no
keys under the current threshold's layout (made before they were stored, or under another
NEAR_DUP_THRESHOLD) gets them first (near_rebuild.py, once).
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from labeling.errors import ValidationFailed
from labeling.importers import ParsedRow
from labeling.models import Problem, ProblemBand, Project
from labeling.pg.opaque import opaque_id
from labeling.rules.near_dups import band_numbers, signature

from .near_keys import NearKeys, chunks, lookup_size, problem_pks, report_of

T = TypeVar("T", bound=tuple)
NEAR_DUPLICATES = ("keep", "skip")
EXAMPLES = 5
TEXT_SHOWN = 200


def check_near_duplicates(value: str) -> str:
    if value not in NEAR_DUPLICATES:
        raise ValidationFailed(
            f"near_duplicates must be one of {', '.join(NEAR_DUPLICATES)}; got {value!r}.",
            field="near_duplicates",
        )
    return value


def keys_missing(project: Project) -> bool:
    """The project has problems but no band key of the current layout (two indexed reads)."""
    if ProblemBand.objects.filter(project=project, band__in=band_numbers()).exists():
        return False
    return Problem.objects.filter(project=project).exists()


@dataclass
class NearDupScreen:
    project: Project
    mode: str = "keep"
    keys: NearKeys = field(init=False)
    existing_keys: set[str] = field(default_factory=set)  # the project's, by external id
    new_keys: set[str] = field(default_factory=set)
    skipped_keys: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(
        default_factory=lambda: {"existing": 0, "in_file": 0, "skipped_solutions": 0}
    )
    examples: list[dict[str, Any]] = field(default_factory=list)
    rebuilt: int = 0  # problems keyed first (near_rebuild)
    # Signatures computed ahead on the parsing thread (`ahead`), taken by `rows`.
    _ahead: dict[str, Any] = field(default_factory=dict)
    _ahead_seen: set[str] = field(default_factory=set)  # the parsing thread's only
    _ahead_on: bool = True

    def __post_init__(self) -> None:
        self.keys = NearKeys(project=self.project)

    def load(self) -> "NearDupScreen":
        """Key the project's problems if they have no keys yet (once)."""
        if keys_missing(self.project):
            from .near_rebuild import near_keys_rebuild

            self.rebuilt = near_keys_rebuild(project=self.project)
        return self

    def ahead(self, batches: Iterable[T]) -> Iterator[T]:
        """The batches (a list of rows first in each item), unchanged, after computing the
        signatures of the problems each one shows for the first time in the file: run on the
        parsing thread (read_ahead), it takes that CPU off the thread that writes, where the
        database waits for it between a batch's COPYs (issue 26). Paused while the last
        screened batch had no new problem (a re-import: they would be computed for nothing).
        A problem's signature is computed ahead only at its first batch, where `rows` finds it
        fresh and takes it: nothing stays behind."""
        for item in batches:
            for row in item[0]:
                key = row.problem.external_id
                if key not in self._ahead_seen:
                    self._ahead_seen.add(key)
                    if self._ahead_on:
                        self._ahead[key] = signature(row.problem.text)
            yield item

    def rows(self, rows: list[ParsedRow]) -> list[ParsedRow]:
        """The batch's rows to import: all, or (skip) those of non-near-duplicate problems.
        Its queries: which of its problems the project has, and their band keys' problems."""
        # Each key looked up in the three sets, not in their union: a union per batch copies
        # every problem key of the import so far.
        seen = (self.existing_keys, self.new_keys, self.skipped_keys)
        fresh: dict[str, str] = {}
        for row in rows:
            key = row.problem.external_id
            if not any(key in keys for keys in seen):
                fresh.setdefault(key, row.problem.text)
        ids = list(fresh)
        for part in chunks(ids, lookup_size()):
            self.existing_keys.update(key for key, _ in problem_pks(self.project, part))
        ahead = {k: self._ahead.pop(k, None) for k in fresh}
        sigs = {
            k: signature(text) if ahead[k] is None else ahead[k]
            for k, text in fresh.items()
            if k not in self.existing_keys
        }
        self._ahead_on = bool(sigs)
        self.keys.lookup(sigs.values())
        kept = []
        for row in rows:
            key = row.problem.external_id
            if key in self.skipped_keys:
                self.counts["skipped_solutions"] += len(row.solutions)
                continue
            seen_now = key in self.existing_keys or key in self.new_keys
            if not seen_now and self._near(row, sigs[key]) and self.mode == "skip":
                self.skipped_keys.add(key)
                self.counts["skipped_solutions"] += len(row.solutions)
                continue
            kept.append(row)
        return kept

    def _near(self, row: ParsedRow, sig: Any) -> bool:
        key, text = row.problem.external_id, row.problem.text
        matches = self.keys.matches(text, sig)
        like = report_of(matches)
        if like is None:
            self.new_keys.add(key)
            self.keys.add(key, text, sig, matches, reportable=True)
            return False
        where = "existing" if like.existing else "in_file"
        self.counts[where] += 1
        if self.mode == "keep":
            self.new_keys.add(key)  # imported: joins the cluster of what it near-duplicates
            self.keys.add(key, text, sig, matches, reportable=False)
        if len(self.examples) < EXAMPLES:
            self.examples.append(
                {
                    "line": row.line,
                    "problem": text[:TEXT_SHOWN],
                    # An earlier problem of the file: its text is read back in `report`.
                    "near": like.text[:TEXT_SHOWN] if like.text is not None else None,
                    "near_id": like.key if not like.key.startswith("pk:") else "",
                    "of": where,
                }
            )
        return True

    def store(self) -> None:
        """After the import's rows are written: the new problems' signatures, band keys and
        clusters."""
        pks: dict[str, int] = {}
        for part in chunks(sorted(self.new_keys), lookup_size()):
            pks.update(problem_pks(self.project, part))
        self.keys.store(pks)

    def report(self) -> dict[str, Any]:
        """After `store`: the examples' in-file matches are written, their texts read back
        (the screen keeps no problem's text: near_table.py)."""
        unread = [one["near_id"] for one in self.examples if one["near"] is None]
        if unread:
            rows = Problem.objects.filter(
                project_id=opaque_id(self.project.pk), external_id__in=unread
            )
            texts = dict(rows.values_list("external_id", "text"))
            for one in self.examples:
                if one["near"] is None:
                    one["near"] = texts.get(one["near_id"], "")[:TEXT_SHOWN]
        return {
            "mode": self.mode,
            **self.counts,
            "project_checked": True,
            "examples": self.examples,
        }
