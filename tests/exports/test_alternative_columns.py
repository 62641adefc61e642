"""StepAlternative's columns are one constant: the importer writes them in its order and the
exporter reads them in it, building AlternativeRecord positionally from all but step_id."""

from dataclasses import fields

from labeling.exporters.records import AlternativeRecord
from labeling.models import STEP_ALTERNATIVE_COLUMNS, StepAlternative
from labeling.services.imports import ALTERNATIVE_COLUMNS


def test_alternative_record_fields_follow_the_shared_columns():
    assert STEP_ALTERNATIVE_COLUMNS[0] == "step_id"
    assert [f.name for f in fields(AlternativeRecord)] == list(STEP_ALTERNATIVE_COLUMNS[1:])


def test_the_importer_writes_the_shared_columns():
    assert ALTERNATIVE_COLUMNS is STEP_ALTERNATIVE_COLUMNS
    stored = {f.attname for f in StepAlternative._meta.concrete_fields if not f.primary_key}
    assert set(STEP_ALTERNATIVE_COLUMNS) == stored
