"""Near-duplicate problems at import (labeling/near_dups.py): a new problem whose text is a
near-duplicate of one of the project's problems, or of an earlier new problem of the file, is
reported (counts and examples on the ImportResult) and, with near_duplicates="skip", left out
with all its solutions.

The project's problems are indexed from their stored signatures (ProblemSignature); problems
that have none (imported before signatures existed) get one now, once. Every new problem's
signature is stored after the import, so later imports read instead of recomputing.
Past INDEX_MAX problems in the project only the file's problems are compared with each other.
"""

from dataclasses import dataclass, field
from typing import Any

from datasketch import MinHash

from labeling.errors import ValidationFailed
from labeling.importers import ParsedRow
from labeling.models import Problem, ProblemSignature, Project
from labeling.near_dups import NearIndex, signature, signature_bytes, signature_from_bytes

NEAR_DUPLICATES = ("keep", "skip")
INDEX_MAX = 50_000  # project problems indexed for an import (a few seconds to load)
EXAMPLES = 5
TEXT_SHOWN = 200
STORE_BATCH = 2000


def check_near_duplicates(value: str) -> str:
    if value not in NEAR_DUPLICATES:
        raise ValidationFailed(
            f"near_duplicates must be one of {', '.join(NEAR_DUPLICATES)}; got {value!r}.",
            field="near_duplicates",
        )
    return value


def signatures_store(project: Project, known: dict[str, MinHash] | None = None) -> int:
    """Store the signature of every problem of the project that has none; returns how many.
    `known`: signatures already computed, by external id."""
    known = known or {}
    missing = (
        Problem.objects.filter(project=project, signature__isnull=True)
        .order_by("pk")
        .values_list("pk", "external_id", "text")
    )
    batch: list[ProblemSignature] = []
    stored = 0
    for pk, ext, text in missing.iterator(chunk_size=STORE_BATCH):
        sig = (known.get(ext) if ext else None) or signature(text)
        batch.append(ProblemSignature(problem_id=pk, hashvalues=signature_bytes(sig)))
        if len(batch) >= STORE_BATCH:
            ProblemSignature.objects.bulk_create(batch)
            stored, batch = stored + len(batch), []
    ProblemSignature.objects.bulk_create(batch)
    return stored + len(batch)


@dataclass
class NearDupScreen:
    project: Project
    mode: str = "keep"
    index: NearIndex = field(default_factory=NearIndex)
    existing_keys: set[str] = field(default_factory=set)  # the project's, by external id
    new_keys: set[str] = field(default_factory=set)
    skipped_keys: set[str] = field(default_factory=set)
    sigs: dict[str, MinHash] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(
        default_factory=lambda: {"existing": 0, "in_file": 0, "skipped_solutions": 0}
    )
    examples: list[dict[str, Any]] = field(default_factory=list)
    project_indexed: bool = True

    def load(self) -> "NearDupScreen":
        """Index the project's problems (storing the signatures they lack)."""
        count = Problem.objects.filter(project=self.project).count()
        if count > INDEX_MAX:
            self.project_indexed = False
            return self
        signatures_store(self.project)
        rows = ProblemSignature.objects.filter(problem__project=self.project).values_list(
            "problem__external_id", "problem_id", "problem__text", "hashvalues"
        )
        for ext, pk, text, data in rows.iterator(chunk_size=STORE_BATCH):
            key = ext or f"pk:{pk}"
            self.existing_keys.add(key)
            self.texts[key] = text
            self.index.add(key, text, signature_from_bytes(data))
        return self

    def rows(self, rows: list[ParsedRow]) -> list[ParsedRow]:
        """The batch's rows to import: all, or (skip) those of non-near-duplicate problems."""
        kept = []
        for row in rows:
            key = row.problem.external_id
            if key in self.skipped_keys:
                self.counts["skipped_solutions"] += len(row.solutions)
                continue
            seen = key in self.existing_keys or key in self.new_keys
            if not seen and self._near(row) and self.mode == "skip":
                self.skipped_keys.add(key)
                self.counts["skipped_solutions"] += len(row.solutions)
                continue
            kept.append(row)
        return kept

    def _near(self, row: ParsedRow) -> bool:
        key, text = row.problem.external_id, row.problem.text
        sig = signature(text)
        self.sigs[key] = sig
        like = self.index.match(text, sig)
        if like is None:
            self.new_keys.add(key)
            self.index.add(key, text, sig)
            self.texts[key] = text
            return False
        where = "existing" if like in self.existing_keys else "in_file"
        self.counts[where] += 1
        if self.mode == "keep":
            self.new_keys.add(key)  # imported: later copies may match it too
        if len(self.examples) < EXAMPLES:
            self.examples.append(
                {
                    "line": row.line,
                    "problem": text[:TEXT_SHOWN],
                    "near": self.texts[like][:TEXT_SHOWN],
                    "near_id": like if not like.startswith("pk:") else "",
                    "of": where,
                }
            )
        return True

    def store(self) -> None:
        """After the import's rows are written: the new problems' signatures."""
        signatures_store(self.project, self.sigs)

    def report(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            **self.counts,
            "project_checked": self.project_indexed,
            "examples": self.examples,
        }
