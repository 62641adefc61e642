"""A row that vanishes between two reads of one request (another request deleted it, a
project's purge took it) answers 404 in the API's error shape, never a 500 (CI caught a draft
autosave racing a flush: `cannot unpack non-iterable NoneType`)."""

import uuid

import pytest
from django.core.exceptions import ObjectDoesNotExist

from labeling.api.errors import exception_handler
from labeling.errors import Missing
from labeling.models import Annotation
from labeling.services.labeling.annotations import annotation_save_draft
from tests.factories import AnnotationFactory

pytestmark = pytest.mark.django_db


def test_a_draft_retry_of_an_annotation_deleted_meanwhile_is_missing():
    annotation = AnnotationFactory()
    Annotation.objects.filter(pk=annotation.pk).delete()  # the caller still holds the object
    with pytest.raises(Missing):
        annotation_save_draft(
            annotation=annotation,
            user=annotation.annotator,
            version=annotation.version,
            labels=[],
            request_id=uuid.uuid4(),
        )


def test_does_not_exist_from_any_model_is_the_one_404():
    response = exception_handler(Annotation.DoesNotExist("gone"), {})
    assert response.status_code == 404
    assert response.data == {"error": {"code": "not_found", "message": "Not found.", "details": {}}}
    assert exception_handler(ObjectDoesNotExist(), {}).status_code == 404
