from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.resolution_label_output import ResolutionLabelOutput


T = TypeVar("T", bound="ResolutionOutput")


@_attrs_define
class ResolutionOutput:
    """
    Attributes:
        id (int):
        provenance (str):
        first_error_index (int | None):
        resolved_by (None | str):
        annotation_ids (list[int]):
        is_current (bool):
        created_at (datetime.datetime):
        labels (list[ResolutionLabelOutput]):
    """

    id: int
    provenance: str
    first_error_index: int | None
    resolved_by: None | str
    annotation_ids: list[int]
    is_current: bool
    created_at: datetime.datetime
    labels: list[ResolutionLabelOutput]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        provenance = self.provenance

        first_error_index: int | None
        first_error_index = self.first_error_index

        resolved_by: None | str
        resolved_by = self.resolved_by

        annotation_ids = self.annotation_ids

        is_current = self.is_current

        created_at = self.created_at.isoformat()

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "provenance": provenance,
                "first_error_index": first_error_index,
                "resolved_by": resolved_by,
                "annotation_ids": annotation_ids,
                "is_current": is_current,
                "created_at": created_at,
                "labels": labels,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.resolution_label_output import ResolutionLabelOutput

        d = dict(src_dict)
        id = d.pop("id")

        provenance = d.pop("provenance")

        def _parse_first_error_index(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_error_index = _parse_first_error_index(d.pop("first_error_index"))

        def _parse_resolved_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resolved_by = _parse_resolved_by(d.pop("resolved_by"))

        annotation_ids = cast(list[int], d.pop("annotation_ids"))

        is_current = d.pop("is_current")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = ResolutionLabelOutput.from_dict(labels_item_data)

            labels.append(labels_item)

        resolution_output = cls(
            id=id,
            provenance=provenance,
            first_error_index=first_error_index,
            resolved_by=resolved_by,
            annotation_ids=annotation_ids,
            is_current=is_current,
            created_at=created_at,
            labels=labels,
        )

        resolution_output.additional_properties = d
        return resolution_output

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
