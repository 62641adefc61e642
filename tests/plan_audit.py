"""Plan audits of a big write's statements (tests/importers/test_lookup_plans.py,
tests/autolabel_runs/test_run_plans.py): rows copied by SQL to make a table big, a file of
labeled rows to import, and the walk that fails an audit: a node that reads a big table by
one key alone (the project, the run) with a filter after, or all of it."""

import json
from collections.abc import Callable
from pathlib import Path

from django.db import connection


def labeled_file(tmp_path: Path, n: int, tag: str) -> Path:
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


def multiply(model, times: int, unique: str | None = "external_id") -> None:
    """Copies of the model's rows (each its own value of the `unique` text column)."""
    table = model._meta.db_table
    columns = [f.column for f in model._meta.concrete_fields if f.column != "id"]
    select = [f"t.{c} || '-' || g::text" if c == unique else f"t.{c}" for c in columns]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)})"
            f" SELECT {', '.join(select)} FROM {table} t, generate_series(1, {times}) g"
        )


def walks(
    plan: dict,
    tables: set[str],
    keys: tuple[str, ...],
    excused: Callable[[dict], bool] = lambda node: False,
) -> list[str]:
    """The plan's nodes that read one of `tables` by one of `keys` alone with a filter after,
    or all of it (a node `excused` says is not the audit's is left out)."""
    found = []
    node_type, relation = plan.get("Node Type", ""), plan.get("Relation Name", "")
    cond = plan.get("Index Cond") or plan.get("Recheck Cond") or ""
    if relation in tables and not excused(plan):
        if node_type == "Seq Scan":
            found.append(f"{node_type} on {relation}")
        by_key_alone = cond.startswith(tuple(f"({key} = " for key in keys)) and " AND " not in cond
        if by_key_alone and "Filter" in plan:
            index, kept = plan.get("Index Name"), plan["Filter"][:80]
            found.append(f"{node_type} on {relation} ({index}): {cond}, filter {kept}")
    for child in plan.get("Plans", []):
        found += walks(child, tables, keys, excused)
    return found


def walks_of(
    statements: list[tuple[str, object]], tables: set[str], keys: tuple[str, ...], **kw
) -> list[str]:
    """Each statement EXPLAINed with its own parameters (in this transaction), its walks."""
    found = []
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0][0]["Plan"]
            found += [f"{walk}\n  in {sql[:200]}" for walk in walks(plan, tables, keys, **kw)]
    return list(dict.fromkeys(found))
