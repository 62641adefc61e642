from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MetricsAnnotator")


@_attrs_define
class MetricsAnnotator:
    """
    Attributes:
        annotator (str):
        submitted (int):
        skipped (int):
        hours (float):
        shared_steps (int):
        agreement (float | None):
    """

    annotator: str
    submitted: int
    skipped: int
    hours: float
    shared_steps: int
    agreement: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        annotator = self.annotator

        submitted = self.submitted

        skipped = self.skipped

        hours = self.hours

        shared_steps = self.shared_steps

        agreement: float | None
        agreement = self.agreement

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "annotator": annotator,
                "submitted": submitted,
                "skipped": skipped,
                "hours": hours,
                "shared_steps": shared_steps,
                "agreement": agreement,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        annotator = d.pop("annotator")

        submitted = d.pop("submitted")

        skipped = d.pop("skipped")

        hours = d.pop("hours")

        shared_steps = d.pop("shared_steps")

        def _parse_agreement(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        agreement = _parse_agreement(d.pop("agreement"))

        metrics_annotator = cls(
            annotator=annotator,
            submitted=submitted,
            skipped=skipped,
            hours=hours,
            shared_steps=shared_steps,
            agreement=agreement,
        )

        metrics_annotator.additional_properties = d
        return metrics_annotator

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
