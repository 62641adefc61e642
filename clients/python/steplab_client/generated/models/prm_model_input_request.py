from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.prm_model_input_request_metrics import PrmModelInputRequestMetrics


T = TypeVar("T", bound="PrmModelInputRequest")


@_attrs_define
class PrmModelInputRequest:
    """
    Attributes:
        name (str):
        path (str): Absolute path of a saved PRM directory on the workers, under one of the server's MODEL_DIRS or this
            project's own training runs (staff users: any).
        metrics (PrmModelInputRequestMetrics | Unset):
    """

    name: str
    path: str
    metrics: PrmModelInputRequestMetrics | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        path = self.path

        metrics: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metrics, Unset):
            metrics = self.metrics.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "path": path,
            }
        )
        if metrics is not UNSET:
            field_dict["metrics"] = metrics

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("name", (None, str(self.name).encode(), "text/plain")))

        files.append(("path", (None, str(self.path).encode(), "text/plain")))

        if not isinstance(self.metrics, Unset):
            files.append(
                ("metrics", (None, json.dumps(self.metrics.to_dict()).encode(), "application/json"))
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.prm_model_input_request_metrics import PrmModelInputRequestMetrics

        d = dict(src_dict)
        name = d.pop("name")

        path = d.pop("path")

        _metrics = d.pop("metrics", UNSET)
        metrics: PrmModelInputRequestMetrics | Unset
        if isinstance(_metrics, Unset):
            metrics = UNSET
        else:
            metrics = PrmModelInputRequestMetrics.from_dict(_metrics)

        prm_model_input_request = cls(
            name=name,
            path=path,
            metrics=metrics,
        )

        prm_model_input_request.additional_properties = d
        return prm_model_input_request

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
