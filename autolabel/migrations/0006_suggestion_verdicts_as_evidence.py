"""Stored machine +1s that are not ratings become evidence (issue 14).

A symbolic "verified" step (agent sympy/...) and a code solution whose tests all pass were
stored as value +1 with score 1.0; the engines now store them as evidence only (value None,
score None, evidence kind "checks out" / "tests pass"), so old projects stop exporting them,
accepting them and counting them in agreement. A consensus of refuters alone (symbolic, code,
agent) put +1 on the steps before the error they agreed on; those rows are deleted, as a rerun
would no longer write them. Reversible: evidence rows go back to +1 (the deleted consensus
rows come back with a consensus rerun).
"""

from django.db import migrations

BATCH = 1000
REFUTERS = {"symbolic", "code", "agent"}
# (source, agent prefix, extra condition on evidence, evidence kind)
KINDS = (("symbolic", "sympy/", None, "checks out"), ("code", "", "tests", "tests pass"))


def _rows(Suggestion, source, agent_prefix, value):
    qs = Suggestion.objects.filter(source=source, value=value)
    if agent_prefix:
        qs = qs.filter(agent__startswith=agent_prefix)
    return qs.only("id", "value", "score", "evidence").order_by("id")


def _save(Suggestion, batch):
    if batch:
        Suggestion.objects.bulk_update(batch, ["value", "score", "evidence"])
    batch.clear()


def forwards(apps, schema_editor):
    Suggestion = apps.get_model("labeling", "Suggestion")
    for source, prefix, check, kind in KINDS:
        batch = []
        for row in _rows(Suggestion, source, prefix, 1).iterator(chunk_size=BATCH):
            evidence = row.evidence if isinstance(row.evidence, dict) else {}
            if check and evidence.get("check") != check:
                continue
            row.value, row.score, row.evidence = None, None, {**evidence, "kind": kind}
            batch.append(row)
            if len(batch) >= BATCH:
                _save(Suggestion, batch)
        _save(Suggestion, batch)
    refuter_agents = [
        agent
        for agent in Suggestion.objects.filter(source="consensus", value=1)
        .values_list("agent", flat=True)
        .distinct()
        if set(agent.removeprefix("consensus:").split("+")) <= REFUTERS
    ]
    Suggestion.objects.filter(source="consensus", value=1, agent__in=refuter_agents).delete()


def backwards(apps, schema_editor):
    Suggestion = apps.get_model("labeling", "Suggestion")
    for source, prefix, _check, kind in KINDS:
        batch = []
        for row in _rows(Suggestion, source, prefix, None).iterator(chunk_size=BATCH):
            evidence = row.evidence if isinstance(row.evidence, dict) else {}
            if evidence.get("kind") != kind:
                continue
            row.value, row.score = 1, 1.0
            row.evidence = {k: v for k, v in evidence.items() if k != "kind"}
            batch.append(row)
            if len(batch) >= BATCH:
                _save(Suggestion, batch)
        _save(Suggestion, batch)


class Migration(migrations.Migration):
    dependencies = [
        ("autolabel", "0005_autolabelrun_inline"),
        ("labeling", "0016_solution_queue_open"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
