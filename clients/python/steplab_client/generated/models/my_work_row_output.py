from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.my_work_row_output_status_enum import MyWorkRowOutputStatusEnum

T = TypeVar("T", bound="MyWorkRowOutput")


@_attrs_define
class MyWorkRowOutput:
    """
    Attributes:
        annotation_id (int):
        solution_id (int):
        status (MyWorkRowOutputStatusEnum): * `submitted` - submitted
            * `skipped` - skipped
        finish_reason (str):
        reviewed (bool): A current resolution rests on it: resubmitting sends it back to review.
        at (datetime.datetime): When it was last submitted or skipped.
        problem_text (str): The first 600 characters.
        problem_source (str):
    """

    annotation_id: int
    solution_id: int
    status: MyWorkRowOutputStatusEnum
    finish_reason: str
    reviewed: bool
    at: datetime.datetime
    problem_text: str
    problem_source: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        annotation_id = self.annotation_id

        solution_id = self.solution_id

        status = self.status.value

        finish_reason = self.finish_reason

        reviewed = self.reviewed

        at = self.at.isoformat()

        problem_text = self.problem_text

        problem_source = self.problem_source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "annotation_id": annotation_id,
                "solution_id": solution_id,
                "status": status,
                "finish_reason": finish_reason,
                "reviewed": reviewed,
                "at": at,
                "problem_text": problem_text,
                "problem_source": problem_source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        annotation_id = d.pop("annotation_id")

        solution_id = d.pop("solution_id")

        status = MyWorkRowOutputStatusEnum(d.pop("status"))

        finish_reason = d.pop("finish_reason")

        reviewed = d.pop("reviewed")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        problem_text = d.pop("problem_text")

        problem_source = d.pop("problem_source")

        my_work_row_output = cls(
            annotation_id=annotation_id,
            solution_id=solution_id,
            status=status,
            finish_reason=finish_reason,
            reviewed=reviewed,
            at=at,
            problem_text=problem_text,
            problem_source=problem_source,
        )

        my_work_row_output.additional_properties = d
        return my_work_row_output

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
