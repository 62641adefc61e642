"""Sort keys of the opt-in PRM active-learning claim order, and the index that serves them.

training_runs.active_learning decides when a project uses this order (its QueuePriority) and
explains it; the keys live here, beside Solution, because an index on Solution serves them:
`PRM_CLAIM_INDEX` (created on PostgreSQL by migration 0016) holds exactly these expressions
over the open claim pool, so a claim in this order reads the first few open rows in index
order instead of sorting the project. tests/concurrency/test_claim_plan.py checks from the
plan that PostgreSQL matches the index.

Both keys read Solution.metadata["prm"] (written by the prm engine) and `answer_correct`:
- PRM_RANK: 0 for a convincing wrong answer (answer wrong, the PRM predicts no wrong step),
  1 for other scored solutions, 2 for unscored ones;
- PRM_KEY: within rank 0 the most convincing first (-min_probability), within rank 1 the
  least certain first (uncertainty; none given sorts last), 0 otherwise.
A min_probability that is not a JSON number counts as unscored: the index computes the keys
on every write, so a cast of a string would make the write fail.
"""

from django.db.models import (
    BooleanField,
    Case,
    F,
    FloatField,
    Func,
    Index,
    IntegerField,
    Q,
    Value,
    When,
)
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast


class IsJsonNumber(Func):
    """True when a JSON value (a KeyTransform) is a number."""

    arity = 1
    output_field = BooleanField()

    def as_postgresql(self, compiler, connection, **extra):
        return self.as_sql(
            compiler, connection, template="jsonb_typeof(%(expressions)s) = 'number'", **extra
        )

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(
            compiler, connection, template="typeof(%(expressions)s) IN ('integer', 'real')", **extra
        )


def _prm(key: str) -> KeyTransform:
    return KeyTransform(key, KeyTransform("prm", "metadata"))


def _number(key: str) -> Cast:
    return Cast(_prm(key), FloatField())


SCORED = Q(IsJsonNumber(_prm("min_probability")))
CONVINCING = SCORED & Q(answer_correct=False, metadata__prm__first_error=None)

PRM_RANK = Case(
    When(CONVINCING, then=Value(0)),
    When(SCORED, then=Value(1)),
    default=Value(2),
    output_field=IntegerField(),
)
PRM_KEY = Case(
    When(CONVINCING, then=-_number("min_probability")),
    When(SCORED & Q(IsJsonNumber(_prm("uncertainty"))), then=_number("uncertainty")),
    When(SCORED, then=Value(None)),
    default=Value(0.0),
    output_field=FloatField(),
)

PRM_CLAIM_INDEX = Index(
    F("project"),
    PRM_RANK,
    PRM_KEY,
    F("submitted_count").desc(),
    F("id"),
    name="solution_prm_claim_idx",
    condition=Q(queue_open=True),
)
