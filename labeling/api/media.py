"""A project's stored images: upload (admins) and read (members), never a public path."""

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.errors import ValidationFailed
from labeling.importers.images import MAX_IMAGE_BYTES
from labeling.models import Role
from labeling.services.media.images import CONTENT_TYPES, NAME, media_path, media_save


class _AnyAccept(BaseContentNegotiation):
    """An <img> asks for image/*: answer with the file, whatever it accepts."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class MediaOutput(serializers.Serializer):
    media = serializers.CharField()
    content_type = serializers.CharField()
    url = serializers.CharField()


class MediaUploadApi(APIView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
            }
        },
        responses={201: MediaOutput},
    )
    def post(self, request, project_id: int):
        """Store an image (PNG, JPEG, GIF, WebP; at most 5 MB); the reference goes into a
        problem's or step's `images`."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        upload = request.FILES.get("file")
        if upload is None:
            raise ValidationFailed("Send the image as the multipart field `file`.", field="file")
        if upload.size > MAX_IMAGE_BYTES:
            raise ValidationFailed(
                f"image is {upload.size} bytes; the limit is {MAX_IMAGE_BYTES}", field="file"
            )
        ref = media_save(project=project, blob=upload.read(), content_type=upload.content_type)
        body = {**ref, "url": f"/api/projects/{project.pk}/media/{ref['media']}"}
        return Response(MediaOutput(body).data, status=status.HTTP_201_CREATED)


class MediaFileApi(APIView):
    content_negotiation_class = _AnyAccept

    @extend_schema(responses={(200, "image/*"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request, project_id: int, name: str):
        """One stored image of the project (members only)."""
        project = project_for(request, project_id)
        if not NAME.match(name):
            raise Http404
        path = media_path(project.pk, name)
        if not default_storage.exists(path):
            raise Http404
        response = FileResponse(
            default_storage.open(path, "rb"), content_type=CONTENT_TYPES[name.rsplit(".", 1)[1]]
        )
        response["Cache-Control"] = "private, max-age=86400, immutable"
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "default-src 'none'"
        return response
