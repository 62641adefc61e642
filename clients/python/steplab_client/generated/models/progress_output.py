from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.screening_enum import ScreeningEnum

T = TypeVar("T", bound="ProgressOutput")


@_attrs_define
class ProgressOutput:
    """
    Attributes:
        done_today (int):
        submitted_total (int):
        remaining (int): Solutions left for the user, counted up to 1,000 (see remaining_capped).
        remaining_capped (bool): More than `remaining` are left: the count stopped at its cap.
        project_total (int): Solutions in the project (cached 60 s).
        screening (ScreeningEnum): * `not_required` - not_required
            * `pending` - pending
            * `passed` - passed
            * `failed` - failed
    """

    done_today: int
    submitted_total: int
    remaining: int
    remaining_capped: bool
    project_total: int
    screening: ScreeningEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        done_today = self.done_today

        submitted_total = self.submitted_total

        remaining = self.remaining

        remaining_capped = self.remaining_capped

        project_total = self.project_total

        screening = self.screening.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "done_today": done_today,
                "submitted_total": submitted_total,
                "remaining": remaining,
                "remaining_capped": remaining_capped,
                "project_total": project_total,
                "screening": screening,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        done_today = d.pop("done_today")

        submitted_total = d.pop("submitted_total")

        remaining = d.pop("remaining")

        remaining_capped = d.pop("remaining_capped")

        project_total = d.pop("project_total")

        screening = ScreeningEnum(d.pop("screening"))

        progress_output = cls(
            done_today=done_today,
            submitted_total=submitted_total,
            remaining=remaining,
            remaining_capped=remaining_capped,
            project_total=project_total,
            screening=screening,
        )

        progress_output.additional_properties = d
        return progress_output

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
