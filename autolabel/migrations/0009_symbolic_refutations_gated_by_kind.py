"""Stored symbolic −1s of claim kinds that have not earned a −1 become "doubtful" evidence
(issue 25).

The engine now refutes a step only when one of its failed claims is of a kind whose measured
precision earned it (autolabel/calibration/kinds.py, the table stored per checker version); a
stored −1 (agent ``sympy/<version>``) whose failed kinds have not earned it under its version's
table, as stored when this migration runs (no table: none earned), becomes what a rerun would
write: value None, score None, evidence kind "doubtful" with the failed kinds and what was
measured of each. Its old score and calibration are kept under ``evidence["before_gate"]`` so
the migration can be reversed. A consensus that required symbolic (agent
``consensus:...symbolic...``) on a solution left with no symbolic −1 is deleted, as a consensus
rerun would no longer agree there (deletions come back only with a rerun).
"""

from django.db import migrations

BATCH = 1000
PREFIX = "sympy/"


def _kinds(evidence):
    failed = evidence.get("failed")
    if not isinstance(failed, list):
        return []
    return [str(c["kind"]) for c in failed if isinstance(c, dict) and c.get("kind")]


def _save(Suggestion, batch):
    if batch:
        Suggestion.objects.bulk_update(batch, ["value", "score", "evidence"])
    batch.clear()


def forwards(apps, schema_editor):
    from autolabel.calibration.kinds import apply_gate, gate_for

    Suggestion = apps.get_model("labeling", "Suggestion")
    Step = apps.get_model("labeling", "Step")
    rows = (
        Suggestion.objects.filter(source="symbolic", agent__startswith=PREFIX, value=-1)
        .only("id", "value", "score", "evidence", "agent", "step_id")
        .order_by("id")
    )
    gates, batch, steps = {}, [], set()
    for row in rows.iterator(chunk_size=BATCH):
        version = row.agent.removeprefix(PREFIX)
        gate = gates.setdefault(version, gate_for(version))
        evidence = dict(row.evidence) if isinstance(row.evidence, dict) else {}
        before = {"score": row.score, "calibration": evidence.pop("calibration", None)}
        if apply_gate(evidence, _kinds(evidence), gate):
            continue
        row.value, row.score, row.evidence = None, None, {**evidence, "before_gate": before}
        batch.append(row)
        steps.add(row.step_id)
        if len(batch) >= BATCH:
            _save(Suggestion, batch)
    _save(Suggestion, batch)
    touched = set(Step.objects.filter(id__in=steps).values_list("solution_id", flat=True))
    still_refuted = set(
        Suggestion.objects.filter(
            source="symbolic", value=-1, step__solution_id__in=touched
        ).values_list("step__solution_id", flat=True)
    )
    agents = [
        agent
        for agent in Suggestion.objects.filter(source="consensus", step__solution_id__in=touched)
        .values_list("agent", flat=True)
        .distinct()
        if "symbolic" in agent.removeprefix("consensus:").split("+")
    ]
    Suggestion.objects.filter(
        source="consensus", agent__in=agents, step__solution_id__in=touched - still_refuted
    ).delete()


def backwards(apps, schema_editor):
    Suggestion = apps.get_model("labeling", "Suggestion")
    rows = (
        Suggestion.objects.filter(
            source="symbolic",
            agent__startswith=PREFIX,
            value__isnull=True,
            evidence__has_key="before_gate",
        )
        .only("id", "value", "score", "evidence")
        .order_by("id")
    )
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        evidence = dict(row.evidence)
        before = evidence.pop("before_gate") or {}
        for key in ("kind", "kinds", "gate"):
            evidence.pop(key, None)
        if before.get("calibration") is not None:
            evidence["calibration"] = before["calibration"]
        row.value, row.score, row.evidence = -1, before.get("score"), evidence
        batch.append(row)
        if len(batch) >= BATCH:
            _save(Suggestion, batch)
    _save(Suggestion, batch)


class Migration(migrations.Migration):
    dependencies = [
        ("autolabel", "0008_move_training_to_training_runs"),
        ("labeling", "0030_project_deleted_at"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
