from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.label_input import LabelInput


T = TypeVar("T", bound="AnnotationOutput")


@_attrs_define
class AnnotationOutput:
    """
    Attributes:
        id (int):
        solution_id (int):
        status (str):
        version (int):
        finish_reason (str):
        finish_reason_text (str):
        time_spent_ms (int):
        labels (list[LabelInput]):
        updated_at (datetime.datetime):
    """

    id: int
    solution_id: int
    status: str
    version: int
    finish_reason: str
    finish_reason_text: str
    time_spent_ms: int
    labels: list[LabelInput]
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        solution_id = self.solution_id

        status = self.status

        version = self.version

        finish_reason = self.finish_reason

        finish_reason_text = self.finish_reason_text

        time_spent_ms = self.time_spent_ms

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "solution_id": solution_id,
                "status": status,
                "version": version,
                "finish_reason": finish_reason,
                "finish_reason_text": finish_reason_text,
                "time_spent_ms": time_spent_ms,
                "labels": labels,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.label_input import LabelInput

        d = dict(src_dict)
        id = d.pop("id")

        solution_id = d.pop("solution_id")

        status = d.pop("status")

        version = d.pop("version")

        finish_reason = d.pop("finish_reason")

        finish_reason_text = d.pop("finish_reason_text")

        time_spent_ms = d.pop("time_spent_ms")

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = LabelInput.from_dict(labels_item_data)

            labels.append(labels_item)

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        annotation_output = cls(
            id=id,
            solution_id=solution_id,
            status=status,
            version=version,
            finish_reason=finish_reason,
            finish_reason_text=finish_reason_text,
            time_spent_ms=time_spent_ms,
            labels=labels,
            updated_at=updated_at,
        )

        annotation_output.additional_properties = d
        return annotation_output

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
