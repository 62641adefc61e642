"""Stored scores that were never measured are cleared (issue 14, calibrated scores).

The symbolic, code and consensus engines wrote score 1.0 on every verdict: a decision, not a
probability. A score now means the measured probability that the verdict is right
(autolabel/calibration), and exports can threshold on it (`filters.min_score`), so an old
1.0 would pass any threshold. Those rows get score None (unmeasured), as the engines write
when no calibration exists; rerunning a source fills in its calibrated scores. Rows that
already carry `evidence.calibration` are left alone. Not reversible: the 1.0s said nothing.
"""

from django.db import migrations

SOURCES = ("symbolic", "code", "consensus")
BATCH = 1000


def forwards(apps, schema_editor):
    Suggestion = apps.get_model("labeling", "Suggestion")
    rows = (
        Suggestion.objects.filter(source__in=SOURCES, score=1.0)
        .only("id", "score", "evidence")
        .order_by("id")
    )
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        if isinstance(row.evidence, dict) and "calibration" in row.evidence:
            continue
        row.score = None
        batch.append(row)
        if len(batch) >= BATCH:
            Suggestion.objects.bulk_update(batch, ["score"])
            batch = []
    if batch:
        Suggestion.objects.bulk_update(batch, ["score"])


class Migration(migrations.Migration):
    dependencies = [("autolabel", "0006_suggestion_verdicts_as_evidence")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
