"""The same filters on the same data give the same bytes; the stored sha256 is the file's."""

import hashlib

import pytest

from labeling.models import StepLabel
from tests.exports.conftest import file_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def data(load):
    load("prm800k_sample.jsonl", fmt="prm800k")
    load("processbench_sample.jsonl", fmt="processbench")


@pytest.mark.parametrize("file_type", ["jsonl", "jsonl.gz", "parquet"])
@pytest.mark.parametrize("fmt", ["trl", "prm800k", "pairwise"])
def test_two_exports_with_the_same_options_have_the_same_sha256(data, build, fmt, file_type):
    options = {"filters": {"label_source": "imported"}, "label_policy": {"soft_labels": True}}
    first = build(fmt, file_type=file_type, **options)
    # A different chunk size reads the rows in other batches: the bytes must not care.
    second = build(fmt, file_type=file_type, chunk_size=7, **options)
    assert first.pk != second.pk
    assert first.sha256 == second.sha256
    assert file_bytes(first) == file_bytes(second)
    assert hashlib.sha256(file_bytes(first)).hexdigest() == first.sha256
    assert first.size_bytes == len(file_bytes(first))
    assert first.card != second.card  # the card names its export and time; it is not hashed


def test_a_changed_label_or_seed_changes_the_bytes(data, build):
    before = build("trl", filters={"label_source": "imported"})
    reseeded = build("trl", filters={"label_source": "imported"}, split_policy={"seed": "x"})
    assert reseeded.sha256 != before.sha256
    label = StepLabel.objects.filter(rating=1).order_by("id").first()
    label.rating = -1
    label.save()
    after = build("trl", filters={"label_source": "imported"})
    assert after.sha256 != before.sha256
