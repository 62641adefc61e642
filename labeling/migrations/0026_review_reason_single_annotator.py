"""The review reason "single_annotator" (labeling.selectors.review.REASONS) takes the lowest
bit of Solution.review_reasons: every stored mask moves up one bit, and the new bit is set
where the solution has exactly one submitted annotation. Reversible (the bit is dropped)."""

from django.db import migrations

FORWARD = """
UPDATE labeling_solution
SET review_reasons = review_reasons * 2 + CASE WHEN (
    SELECT COUNT(*) FROM labeling_annotation AS a
    WHERE a.solution_id = labeling_solution.id AND a.status = 'submitted'
) = 1 THEN 1 ELSE 0 END
"""

BACKWARD = "UPDATE labeling_solution SET review_reasons = review_reasons / 2"


class Migration(migrations.Migration):
    dependencies = [("labeling", "0025_apitoken_minted_by")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
