"""A project's webhook endpoints (project admins): list, create, edit, delete, rotate the
secret, send a test event, read the delivery log. labeling.services.webhooks does the work."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.models import Role, WebhookDelivery, WebhookEndpoint
from labeling.selectors.webhooks import (
    DELIVERY_LOG_MAX,
    webhook_delivery_list,
    webhook_endpoint_list,
)
from labeling.services.webhooks.endpoints import (
    DESCRIPTION_MAX,
    URL_MAX,
    webhook_endpoint_create,
    webhook_endpoint_delete,
    webhook_endpoint_update,
    webhook_secret_rotate,
    webhook_test_send,
)
from labeling.services.webhooks.events import EVENTS

SECRET_HINT = 10  # characters of the secret shown after creation ("whsec_AbCd…")


def _events_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENTS)),
        max_length=len(EVENTS),
        help_text="Event types to receive: " + ", ".join(EVENTS) + ".",
        **kwargs,
    )


class WebhookEndpointOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    description = serializers.CharField()
    disabled_reason = serializers.CharField(help_text="Why the server turned it off (410 Gone).")
    secret_hint = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    secret_rotated_at = serializers.DateTimeField(allow_null=True)

    def get_secret_hint(self, endpoint: WebhookEndpoint) -> str:
        return endpoint.secret[:SECRET_HINT] + "…"


class WebhookDeliveryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event_type = serializers.CharField()
    message_id = serializers.CharField()
    status = serializers.CharField()
    attempts = serializers.IntegerField()
    status_code = serializers.IntegerField(allow_null=True)
    duration_ms = serializers.IntegerField(allow_null=True)
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    payload = serializers.JSONField()


_WITH_SECRET = inline_serializer(
    "WebhookEndpointWithSecretOutput",
    {
        "endpoint": WebhookEndpointOutput(),
        "secret": serializers.CharField(help_text="Shown only in this reply."),
    },
)


def _endpoint(request, project_id: int, endpoint_id: int) -> WebhookEndpoint:
    project = project_for(request, project_id, at_least=Role.ADMIN)
    return get_object_or_404(WebhookEndpoint, project=project, pk=endpoint_id)


class WebhookEndpointListApi(APIView):
    """The project's webhook endpoints; make one (its secret is in this reply only)."""

    class WebhookEndpointInput(serializers.Serializer):
        url = serializers.CharField(max_length=URL_MAX)
        events = _events_field()
        description = serializers.CharField(
            max_length=DESCRIPTION_MAX, required=False, allow_blank=True, default=""
        )
        active = serializers.BooleanField(required=False, default=True)

    @extend_schema(responses=WebhookEndpointOutput(many=True))
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        endpoints = webhook_endpoint_list(project=project)
        return Response(WebhookEndpointOutput(endpoints, many=True).data)

    @extend_schema(request=WebhookEndpointInput, responses={201: _WITH_SECRET})
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.WebhookEndpointInput(data=request.data)
        data.is_valid(raise_exception=True)
        made = webhook_endpoint_create(
            project=project, created_by=request.user, **data.validated_data
        )
        body = {"endpoint": WebhookEndpointOutput(made.endpoint).data, "secret": made.secret}
        return Response(body, status=status.HTTP_201_CREATED)


class WebhookEndpointDetailApi(APIView):
    class WebhookEndpointPatchInput(serializers.Serializer):
        url = serializers.CharField(max_length=URL_MAX, required=False)
        events = _events_field(required=False)
        description = serializers.CharField(
            max_length=DESCRIPTION_MAX, required=False, allow_blank=True
        )
        active = serializers.BooleanField(required=False)

    @extend_schema(responses=WebhookEndpointOutput)
    def get(self, request, project_id: int, endpoint_id: int):
        endpoint = _endpoint(request, project_id, endpoint_id)
        return Response(WebhookEndpointOutput(endpoint).data)

    @extend_schema(request=WebhookEndpointPatchInput, responses=WebhookEndpointOutput)
    def patch(self, request, project_id: int, endpoint_id: int):
        """Change the URL, events, description or active flag (turning it on clears the
        reason the server turned it off)."""
        endpoint = _endpoint(request, project_id, endpoint_id)
        data = self.WebhookEndpointPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        endpoint = webhook_endpoint_update(endpoint=endpoint, **data.validated_data)
        return Response(WebhookEndpointOutput(endpoint).data)

    @extend_schema(responses={204: None})
    def delete(self, request, project_id: int, endpoint_id: int):
        """Delete the endpoint and its delivery log; pending deliveries are not sent."""
        webhook_endpoint_delete(endpoint=_endpoint(request, project_id, endpoint_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookSecretRotateApi(APIView):
    @extend_schema(request=None, responses=_WITH_SECRET)
    def post(self, request, project_id: int, endpoint_id: int):
        """A new signing secret (in this reply only); the old one stops being used at once."""
        endpoint = _endpoint(request, project_id, endpoint_id)
        secret = webhook_secret_rotate(endpoint=endpoint)
        return Response({"endpoint": WebhookEndpointOutput(endpoint).data, "secret": secret})


class WebhookTestApi(APIView):
    @extend_schema(request=None, responses={202: WebhookDeliveryOutput})
    def post(self, request, project_id: int, endpoint_id: int):
        """Send a `webhook.test` event now; its delivery shows in the log."""
        endpoint = _endpoint(request, project_id, endpoint_id)
        delivery = webhook_test_send(endpoint=endpoint, user=request.user)
        return Response(WebhookDeliveryOutput(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveryListApi(APIView):
    class DeliveryListParams(serializers.Serializer):
        limit = serializers.IntegerField(
            min_value=1, max_value=DELIVERY_LOG_MAX, required=False, default=50
        )

    @extend_schema(parameters=[DeliveryListParams], responses=WebhookDeliveryOutput(many=True))
    def get(self, request, project_id: int, endpoint_id: int):
        """The endpoint's latest deliveries, newest first."""
        endpoint = _endpoint(request, project_id, endpoint_id)
        params = self.DeliveryListParams(data=request.query_params)
        params.is_valid(raise_exception=True)
        deliveries: list[WebhookDelivery] = webhook_delivery_list(
            endpoint=endpoint, limit=params.validated_data["limit"]
        )
        return Response(WebhookDeliveryOutput(deliveries, many=True).data)


class WebhookEventListApi(APIView):
    @extend_schema(
        responses=inline_serializer(
            "WebhookEventOutput",
            {"type": serializers.CharField(), "description": serializers.CharField()},
            many=True,
        )
    )
    def get(self, request):
        """The event types an endpoint can receive."""
        return Response([{"type": t, "description": d} for t, d in EVENTS.items()])
