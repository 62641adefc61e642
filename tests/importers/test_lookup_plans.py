"""An import into a new project beside a big one plans its lookups on the indexes that find
each row, not as a walk of the project's rows (labeling.pg.opaque).

The import's rows are written inside its one transaction, where ANALYZE never saw them: the
statistics say the new project has no row, and a lookup written `project_id = <constant>`
was planned as a walk of the project_id index with the rest as a filter, per batch or per id,
over every row the import had written so far (quadratic in the file: 100k solutions imported
beside a 1M-solution project ran for tens of minutes in bench/export_bench.py's build). Each
SELECT the import runs is EXPLAINed here with its own parameters, in the same transaction,
with the statistics of a big project and none of the new one's rows."""

import json

import pytest
from django.db import connection

from labeling.models import Problem, ProblemBand, Solution
from labeling.services.imports.pipeline import import_file
from tests.factories import ProjectFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

BIG = 200  # copies of the big project's rows, written by SQL: enough for index plans to win


def _file(tmp_path, n: int, tag: str):
    """n solutions, two a problem, every tenth problem a near-duplicate of the one before
    (the near-duplicate screen's lookups and clusters), labeled (labels as annotations)."""
    rows = []
    for i in range(n):
        p = i // 2
        q = p - 1 if p % 10 == 1 else p
        text = f"{tag}: how many apples does Ann have after buying {q} more of the red ones"
        text += "?" if p % 10 == 1 else ""
        steps = [f"{tag} step {i}", "so 1 + 1 = 2"]
        rows.append({"problem": text, "steps": steps, "labels": [1, 1]})
    path = tmp_path / f"{tag}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _multiply(model, times: int, unique: str | None = "external_id") -> None:
    """Copies of the model's rows (each its own value of the `unique` text column)."""
    table = model._meta.db_table
    columns = [f.column for f in model._meta.concrete_fields if f.column != "id"]
    select = [f"t.{c} || '-' || g::text" if c == unique else f"t.{c}" for c in columns]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)})"
            f" SELECT {', '.join(select)} FROM {table} t, generate_series(1, {times}) g"
        )


def _walks(plan: dict, tables: set[str]) -> list[str]:
    """The plan's nodes that read one of `tables` by the project alone with a filter after,
    or all of it."""
    found = []
    node_type, relation = plan.get("Node Type", ""), plan.get("Relation Name", "")
    cond = plan.get("Index Cond") or plan.get("Recheck Cond") or ""
    if relation in tables and node_type == "Seq Scan":
        found.append(f"{node_type} on {relation}")
    if (
        relation in tables
        and cond.startswith("(project_id = ")
        and cond[-1] == ")"
        and (" AND " not in cond and "Filter" in plan)
    ):
        found.append(f"{node_type} on {relation}: {cond}, filter {plan['Filter'][:80]}")
    for child in plan.get("Plans", []):
        found += _walks(child, tables)
    return found


def test_an_import_beside_a_big_project_looks_its_rows_up_by_their_keys(tmp_path):
    big = ProjectFactory()
    import_file(project=big, path=_file(tmp_path, 60, "big"), labels_as="annotations")
    _multiply(Problem, BIG)
    _multiply(Solution, BIG)
    _multiply(ProblemBand, BIG, unique=None)
    tables = {m._meta.db_table for m in (Problem, Solution, ProblemBand)}
    with connection.cursor() as cursor:
        for table in sorted(tables):
            cursor.execute(f"ANALYZE {table}")
    new = ProjectFactory()
    statements: list[tuple[str, object]] = []

    def capture(execute, sql, params, many, context):
        # An existence probe (LIMIT 1, once an import) stops at its first row: not looked at.
        if sql.lstrip().upper().startswith("SELECT") and not many and "LIMIT 1" not in sql:
            statements.append((sql, params))
        return execute(sql, params, many, context)

    path = _file(tmp_path, 1500, "new")
    with connection.execute_wrapper(capture):
        import_file(project=new, path=path, labels_as="annotations")
        import_file(project=new, path=path, labels_as="annotations")  # again: all found
    assert any("external_id" in sql for sql, _ in statements)
    walks = []
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0][0]["Plan"]
            walks += [f"{walk}\n  in {sql[:160]}" for walk in _walks(plan, tables)]
    assert not walks, "\n".join(dict.fromkeys(walks))
