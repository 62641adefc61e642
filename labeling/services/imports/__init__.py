"""Importing dataset files into a project: streamed, bulk-written, atomic and idempotent.

`import_file` reads a JSON Lines file (optionally gzipped) one line at a time, parses each
line with the format's parser (labeling.importers), and writes batches of about a thousand
solutions with one multi-row insert per table (COPY on PostgreSQL, executemany on SQLite,
bulk_create as the fallback; see inserter.Inserter). The whole file is one transaction: a bad line
raises ImportFileError naming file, line and field, and nothing of the file stays. Three
things overlap (see pipeline.write_all): the next batches are parsed on one thread, a batch is built
on the caller's, and on PostgreSQL the batch before it is written on a third.

Re-importing is a no-op: problems and solutions carry stable external ids (the dataset's
own id where it has one, else a sha256 of the normalized content), each batch looks up
which of its ids the project already has, and only the new ones are written.

Concurrent imports into one project are serialized by a row lock on the project
(FOR NO KEY UPDATE, so inserts referencing the project are not blocked): the second waits,
then finds the first's rows instead of failing on the unique external ids.

Modules, by concern:
    parsing.py   the file read into batches of parsed rows, argument checks, the validation
                 pass (`import_file_validate`); BATCH_SOLUTIONS and BATCH_ROWS live here
    tables.py    every column each table gets; `Write`, one table's rows of a batch
    batches.py   `BatchWriter`: a batch's lookups and ids (reserve), its rows (build)
    inserter.py  the fast path: ids allocated ahead, one COPY / executemany per table
    fallback.py  bulk_create, for a table with a column this package does not know
    pipeline.py  `import_file`: the transaction, the lock, the pipelined writes
    near_dups.py near-duplicate problems reported or skipped (the screen)
    near_keys.py their candidates from stored band keys; signatures, keys, clusters stored
    near_rebuild.py  a project's keys and clusters built again (manage.py near_dup_keys)
    jobs.py      `import_job_run`: uploaded files, two passes, progress and errors
    predictions.py  uploaded predictions (a team's own model's step labels) as Suggestions;
                 not part of the file import, and not re-exported below

The names below are the package's interface. Tunables and helpers are not re-exported: a
test that changes one sets it on the module that reads it (`parsing.BATCH_SOLUTIONS`), so
a monkeypatch of the package itself fails loudly instead of patching nothing.
"""

from labeling.importers import ImportFileError

from .batches import ImportResult
from .jobs import import_job_run
from .parsing import (
    LABELS_AS,
    FileSummary,
    PathOrFile,
    Progress,
    import_file_validate,
    parse_options,
    step_rule_resolve,
)
from .pipeline import import_file
from .tables import (
    ALTERNATIVE_COLUMNS,
    ANNOTATION_COLUMNS,
    PROBLEM_COLUMNS,
    SOLUTION_COLUMNS,
    STEP_COLUMNS,
    STEP_LABEL_COLUMNS,
    SUGGESTION_COLUMNS,
    TABLES,
)

__all__ = [
    "ALTERNATIVE_COLUMNS",
    "ANNOTATION_COLUMNS",
    "LABELS_AS",
    "PROBLEM_COLUMNS",
    "SOLUTION_COLUMNS",
    "STEP_COLUMNS",
    "STEP_LABEL_COLUMNS",
    "SUGGESTION_COLUMNS",
    "TABLES",
    "FileSummary",
    "ImportFileError",
    "ImportResult",
    "PathOrFile",
    "Progress",
    "import_file",
    "import_file_validate",
    "import_job_run",
    "parse_options",
    "step_rule_resolve",
]
