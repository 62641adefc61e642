"""What every format shares: the interface and the counts that go into the dataset card."""

from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from labeling.exporters.final import FinalTally
from labeling.exporters.options import DependencyPolicy, ExportOptions, SplitMode
from labeling.exporters.policy import positive_rating
from labeling.exporters.records import SolutionRecord, StepColumns, StepRecord

if TYPE_CHECKING:
    import pyarrow as pa

Row = dict[str, Any]
_kind = attrgetter("rating", "source", "human_written")
_RATING_KEYS = {-1: "-1", 0: "0", 1: "1"}


@dataclass
class Stats:
    """Counted while rows are written; the card and the Export row show them."""

    solutions_read: int = 0
    rows: int = 0
    steps: int = 0
    split_rows: Counter = field(default_factory=Counter)
    split_problems: Counter = field(default_factory=Counter)
    labels: Counter = field(default_factory=Counter)  # training labels: positive / negative
    ratings: Counter = field(default_factory=Counter)  # -1 / 0 / 1 / null of written steps
    label_sources: Counter = field(default_factory=Counter)
    problem_sources: Counter = field(default_factory=Counter)
    domains: Counter = field(default_factory=Counter)  # rows per problem domain
    skipped: Counter = field(default_factory=Counter)
    # Decontamination (exporters/decontaminate.py): problems / solutions left out per benchmark.
    decontaminated: Counter = field(default_factory=Counter)
    decontaminated_solutions: Counter = field(default_factory=Counter)
    licences: dict[str, str] = field(default_factory=dict)
    images: int = 0  # image references written (multimodal projects)
    inherited: int = 0  # steps written as -1 by dependency_policy=inherit
    # label_source=final: where the read solutions' and steps' labels came from (final.py).
    final: FinalTally | None = None
    _last_problem: str | None = None
    # ((rating, source, human_written), training label) → steps written, until `fold`.
    _step_kinds: Counter = field(default_factory=Counter)
    # (source, ratings, training labels) of a row's steps as columns → rows, until `fold`.
    _row_kinds: Counter = field(default_factory=Counter)

    def row(
        self, *, problem_key: str, problem_source: str, split: str | None, domain: str = ""
    ) -> None:
        self.rows += 1
        if domain:
            self.domains[domain] += 1
        self.split_rows[split or "all"] += 1
        self.problem_sources[problem_source or "(none)"] += 1
        # Records come ordered by problem, so a change of key is a new problem.
        if problem_key != self._last_problem:
            self._last_problem = problem_key
            self.split_problems[split or "all"] += 1

    def step(self, step: StepRecord, label: bool | None) -> None:
        self.steps_of([(step, label)])

    def steps_of(self, steps: list[tuple[StepRecord, bool | None]]) -> None:
        """`step` for each (step, training label) of a row, in one call (`steps_labelled`)."""
        self.steps_labelled([step for step, _ in steps], [label for _, label in steps])

    def steps_labelled(self, steps: list[StepRecord], labels: list[bool | None]) -> None:
        """`step` for each step of a row and its training label. Counted by their few
        distinct (rating, source, human_written) and label, keys made in C (attrgetter, zip)
        and counted in C (Counter.update of an iterable), then folded into ratings / labels /
        label_sources by `fold`: not three counters a step."""
        self.steps += len(steps)
        self._step_kinds.update(zip(map(_kind, steps), labels, strict=True))

    def columns_labelled(self, columns: StepColumns) -> None:
        """steps_labelled for a row's steps as columns (labeling.exporters.columnar): counted
        by the row's (source, ratings, labels), one key a row (rows repeat a few patterns),
        and expanded step by step in `fold`."""
        self.steps += len(columns.labels)
        key = (columns.source, tuple(columns.ratings), tuple(columns.labels))
        self._row_kinds[key] += 1

    def fold(self) -> None:
        """Add the steps counted by steps_labelled to ratings, labels and label_sources."""
        ratings, labels, sources = self.ratings, self.labels, self.label_sources
        for (source, row_ratings, row_labels), n in self._row_kinds.items():
            for rating, label in zip(row_ratings, row_labels, strict=True):
                # A written step with no rating is one its labeler wrote (policy.labeled_steps).
                kind = (rating, source, False) if rating is not None else (None, "", True)
                self._step_kinds[kind, label] += n
        self._row_kinds.clear()
        for ((rating, source, human_written), label), n in self._step_kinds.items():
            ratings["null" if rating is None else _RATING_KEYS.get(rating) or str(rating)] += n
            if label is not None:
                labels["positive" if label else "negative"] += n
            sources[source or ("human_written" if human_written else "none")] += n
        self._step_kinds.clear()

    def as_dict(self) -> dict[str, Any]:
        self.fold()
        return {
            "solutions_read": self.solutions_read,
            "rows": self.rows,
            "steps": self.steps,
            "split_rows": dict(sorted(self.split_rows.items())),
            "split_problems": dict(sorted(self.split_problems.items())),
            "labels": dict(sorted(self.labels.items())),
            "ratings": dict(sorted(self.ratings.items())),
            "label_sources": dict(sorted(self.label_sources.items())),
            "problem_sources": dict(sorted(self.problem_sources.items())),
            **({"domains": dict(sorted(self.domains.items()))} if self.domains else {}),
            "skipped": dict(sorted(self.skipped.items())),
            **(
                {
                    "decontaminated": {
                        name: {"problems": n, "solutions": self.decontaminated_solutions[name]}
                        for name, n in sorted(self.decontaminated.items())
                    }
                }
                if self.decontaminated
                else {}
            ),
            "licences": dict(sorted(self.licences.items())),
            **({"images": self.images} if self.images else {}),
            **({"inherited": self.inherited} if self.inherited else {}),
            **({"final_labels": self.final.as_dict()} if self.final is not None else {}),
        }


class Format:
    """Turns records into rows. Records arrive ordered by problem; `finish` flushes."""

    name: ClassVar[str]
    needs_alternatives: ClassVar[bool] = False
    # The steps' metadata keys in STEP_META_KEYS (embodied: kind, success, timestamp) on
    # each StepRecord's `meta`; read only for formats that set this.
    needs_step_meta: ClassVar[bool] = False
    # Set for multimodal projects before schema(): formats that can add an `images` column do.
    with_images: bool = False
    # Set for evidence-cited projects: formats that can add the steps' `citations` and the
    # problem's `documents` and `tables` columns do (evidence_columns).
    with_evidence: bool = False
    # The project's domain (a blank problem domain is it); with `with_domain` (many-domains
    # projects) formats that can add a `domain` column do.
    domain: str = ""
    with_domain: bool = False
    # Set when the project has reasoning steps (Step.thinking): formats that can say which
    # steps were thinking add a `thinking` column (thinking_column) or step key.
    with_thinking: bool = False

    def __init__(self, options: ExportOptions, stats: Stats) -> None:
        self.options = options
        self.policy = options.label_policy
        self.filters = options.filters
        self.split_column = options.split_policy.mode != SplitMode.NONE
        self.stats = stats
        # Step dependencies written (`uses`, `inherited`): a dependency policy other than none.
        self.with_dependencies = self.policy.dependency_policy != DependencyPolicy.NONE

    @classmethod
    def check(cls, options: ExportOptions) -> None:
        """Raise ValidationFailed when the options cannot work for this format (called when
        the export is created, so a bad option is a 400 and not a failed build)."""

    def feed(self, record: SolutionRecord, split: str | None) -> list[Row]:
        raise NotImplementedError

    def finish(self) -> list[Row]:
        return []

    def schema(self) -> "pa.Schema":
        raise NotImplementedError

    def parquet_row(self, row: Row) -> Row:
        return row

    def positive(self, rating: int) -> bool:
        return positive_rating(rating, self.policy)

    def domain_of(self, record: SolutionRecord) -> str:
        return record.domain or self.domain

    def count_row(self, record: SolutionRecord, split: str | None) -> None:
        self.stats.row(
            problem_key=record.problem_key,
            problem_source=record.problem_source,
            split=split,
            domain=self.domain_of(record) if self.with_domain else "",
        )

    def with_split(self, row: Row, split: str | None) -> Row:
        if self.split_column:
            row["split"] = split
        return row

    def evidence_columns(self, record: SolutionRecord, steps: list[StepRecord]) -> Row:
        """The citations of `steps` (one list per step) and the problem's sources."""
        if not self.with_evidence:
            return {}
        return {
            "citations": [list(step.citations) for step in steps],
            "documents": record.problem_documents,
            "tables": record.problem_tables,
        }

    def evidence_parquet(self, row: Row) -> Row:
        """Parquet needs one type a column: table cells become strings (null stays null)."""
        if not self.with_evidence:
            return row
        tables = [
            {**t, "rows": [[None if c is None else str(c) for c in r] for r in t.get("rows", [])]}
            for t in row["tables"]
        ]
        return {**row, "tables": tables}

    def evidence_fields(self) -> list:
        if not self.with_evidence:
            return []
        import pyarrow as pa

        citation = pa.struct(
            [
                pa.field("doc", pa.string()),
                pa.field("quote", pa.string()),
                pa.field("start", pa.int64()),
                pa.field("end", pa.int64()),
                pa.field("table", pa.string()),
                pa.field("row", pa.int64()),
                pa.field("column", pa.int64()),
            ]
        )
        document = pa.struct(
            [
                pa.field("id", pa.string()),
                pa.field("title", pa.string()),
                pa.field("text", pa.string()),
            ]
        )
        table = pa.struct(
            [
                pa.field("id", pa.string()),
                pa.field("title", pa.string()),
                pa.field("columns", pa.list_(pa.string())),
                pa.field("rows", pa.list_(pa.list_(pa.string()))),
            ]
        )
        return [
            pa.field("citations", pa.list_(pa.list_(citation))),
            pa.field("documents", pa.list_(document)),
            pa.field("tables", pa.list_(table)),
        ]

    def thinking_column(self, steps: list[StepRecord]) -> Row:
        """Per step of a row, whether it is a reasoning step; empty without reasoning steps
        in the project."""
        return {"thinking": [step.thinking for step in steps]} if self.with_thinking else {}

    def thinking_field(self) -> list:
        import pyarrow as pa

        return [pa.field("thinking", pa.list_(pa.bool_()))] if self.with_thinking else []

    def dependency_columns(self, steps: list[StepRecord]) -> Row:
        """Per step of a row, the earlier steps it uses (0-based within the row) and whether
        `inherit` made it -1; counted for the card. Empty without a dependency policy."""
        if not self.with_dependencies:
            return {}
        inherited = [step.inherited for step in steps]
        self.stats.inherited += sum(inherited)
        return {"uses": [list(step.uses) for step in steps], "inherited": inherited}

    def step_dependencies(self, step: StepRecord) -> Row:
        """dependency_columns for one step, for formats whose steps are objects."""
        if not self.with_dependencies:
            return {}
        self.stats.inherited += step.inherited
        return {"uses": list(step.uses), "inherited": step.inherited}

    def dependency_fields(self, *, per_step: bool = False) -> list:
        """The Parquet fields of dependency_columns (`per_step`: of step_dependencies)."""
        if not self.with_dependencies:
            return []
        import pyarrow as pa

        uses, inherited = pa.list_(pa.int64()), pa.bool_()
        if not per_step:
            uses, inherited = pa.list_(uses), pa.list_(inherited)
        return [pa.field("uses", uses), pa.field("inherited", inherited)]

    def split_field(self) -> list:
        import pyarrow as pa

        return [pa.field("split", pa.string())] if self.split_column else []
