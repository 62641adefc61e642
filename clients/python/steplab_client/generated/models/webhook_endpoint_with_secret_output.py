from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.webhook_endpoint_output import WebhookEndpointOutput


T = TypeVar("T", bound="WebhookEndpointWithSecretOutput")


@_attrs_define
class WebhookEndpointWithSecretOutput:
    """
    Attributes:
        endpoint (WebhookEndpointOutput):
        secret (str): Shown only in this reply.
    """

    endpoint: WebhookEndpointOutput
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoint = self.endpoint.to_dict()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpoint": endpoint,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint_output import WebhookEndpointOutput

        d = dict(src_dict)
        endpoint = WebhookEndpointOutput.from_dict(d.pop("endpoint"))

        secret = d.pop("secret")

        webhook_endpoint_with_secret_output = cls(
            endpoint=endpoint,
            secret=secret,
        )

        webhook_endpoint_with_secret_output.additional_properties = d
        return webhook_endpoint_with_secret_output

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
