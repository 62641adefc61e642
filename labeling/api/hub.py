"""Pushes of an export to a Hugging Face Hub dataset repo (labeling.hub): create, list, poll."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.api.exports import _export_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, request_id_field
from labeling.models import HubPush, Role
from labeling.services.exports.hub import hub_push_create
from labeling.services.jobs.outbox import outbox_job_create
from labeling.tasks import hub_push_task


class HubPushOutput(serializers.ModelSerializer):
    class Meta:
        model = HubPush
        fields = [
            "id",
            "export",
            "repo_id",
            "private",
            "status",
            "revision",
            "tag",
            "url",
            "splits",
            "error",
            "token_kind",
            "created_at",
            "finished_at",
        ]


class HubPushInput(serializers.Serializer):
    repo_id = serializers.CharField(
        max_length=193, help_text="The dataset repo, owner/name; created if missing."
    )
    private = serializers.BooleanField(
        default=True, help_text="A new repo is private unless false; an existing one keeps its."
    )
    request_id = request_id_field()


class ExportHubPushListApi(APIView):
    @extend_schema(operation_id="exports_hub_pushes_list", responses=HubPushOutput(many=True))
    def get(self, request, export_id: int):
        """The export's pushes to the Hub, newest first (at most 100)."""
        export = _export_for(request, export_id)
        return Response(HubPushOutput(export.hub_pushes.all()[:100], many=True).data)

    @extend_schema(
        operation_id="exports_hub_pushes_create",
        request=HubPushInput,
        responses={202: HubPushOutput},
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request, export_id: int):
        """Push a done export to a Hub dataset repo (project admins): one Parquet file per
        split, the dataset card, a tag `export-<id>`. Your own Hugging Face token is used
        (PUT /api/auth/hub-token/), else the server's HF_TOKEN where it covers the repo for you
        (staff: any; others: HUB_SERVER_TOKEN_REPOS), else the push is a 400 (the push's
        token_kind says whose); a worker on the `exports` queue pushes; poll the push."""
        export = _export_for(request, export_id, at_least=Role.ADMIN)
        data = HubPushInput(data=request.data)
        data.is_valid(raise_exception=True)
        options = dict(data.validated_data)
        key = idempotency_key(request, options.pop("request_id", None))
        push, _ = outbox_job_create(
            task=hub_push_task.name,
            create=lambda: hub_push_create(export=export, created_by=request.user, **options),
            fetch=lambda pk: HubPush.objects.filter(pk=pk, export=export).first(),
            created_by=request.user,
            idempotency_key=key,
        )
        return Response(HubPushOutput(push).data, status=status.HTTP_202_ACCEPTED)


class HubPushDetailApi(APIView):
    @extend_schema(operation_id="hub_pushes_retrieve", responses=HubPushOutput)
    def get(self, request, push_id: int):
        push = get_object_or_404(HubPush.objects.select_related("export"), pk=push_id)
        project_for(request, push.export.project_id, at_least=Role.REVIEWER)
        return Response(HubPushOutput(push).data)
