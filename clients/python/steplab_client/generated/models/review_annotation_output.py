from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewAnnotationOutput")


@_attrs_define
class ReviewAnnotationOutput:
    """
    Attributes:
        id (int):
        annotator (str):
        annotator_id (int | None):
        imported (bool):
        status (str):
        revises_id (int | None):
        finish_reason (str):
        finish_reason_text (str):
        time_spent_ms (int):
        submitted_at (datetime.datetime | None):
        first_error_index (int | None):
    """

    id: int
    annotator: str
    annotator_id: int | None
    imported: bool
    status: str
    revises_id: int | None
    finish_reason: str
    finish_reason_text: str
    time_spent_ms: int
    submitted_at: datetime.datetime | None
    first_error_index: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        annotator = self.annotator

        annotator_id: int | None
        annotator_id = self.annotator_id

        imported = self.imported

        status = self.status

        revises_id: int | None
        revises_id = self.revises_id

        finish_reason = self.finish_reason

        finish_reason_text = self.finish_reason_text

        time_spent_ms = self.time_spent_ms

        submitted_at: None | str
        if isinstance(self.submitted_at, datetime.datetime):
            submitted_at = self.submitted_at.isoformat()
        else:
            submitted_at = self.submitted_at

        first_error_index: int | None
        first_error_index = self.first_error_index

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "annotator": annotator,
                "annotator_id": annotator_id,
                "imported": imported,
                "status": status,
                "revises_id": revises_id,
                "finish_reason": finish_reason,
                "finish_reason_text": finish_reason_text,
                "time_spent_ms": time_spent_ms,
                "submitted_at": submitted_at,
                "first_error_index": first_error_index,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        annotator = d.pop("annotator")

        def _parse_annotator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        annotator_id = _parse_annotator_id(d.pop("annotator_id"))

        imported = d.pop("imported")

        status = d.pop("status")

        def _parse_revises_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        revises_id = _parse_revises_id(d.pop("revises_id"))

        finish_reason = d.pop("finish_reason")

        finish_reason_text = d.pop("finish_reason_text")

        time_spent_ms = d.pop("time_spent_ms")

        def _parse_submitted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                submitted_at_type_0 = datetime.datetime.fromisoformat(data)

                return submitted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        submitted_at = _parse_submitted_at(d.pop("submitted_at"))

        def _parse_first_error_index(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_error_index = _parse_first_error_index(d.pop("first_error_index"))

        review_annotation_output = cls(
            id=id,
            annotator=annotator,
            annotator_id=annotator_id,
            imported=imported,
            status=status,
            revises_id=revises_id,
            finish_reason=finish_reason,
            finish_reason_text=finish_reason_text,
            time_spent_ms=time_spent_ms,
            submitted_at=submitted_at,
            first_error_index=first_error_index,
        )

        review_annotation_output.additional_properties = d
        return review_annotation_output

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
