from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.finish_reason_enum import FinishReasonEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.label_input_request import LabelInputRequest


T = TypeVar("T", bound="SubmitInputRequest")


@_attrs_define
class SubmitInputRequest:
    """
    Attributes:
        version (int):
        labels (list[LabelInputRequest]):
        time_spent_ms (int | Unset):
        request_id (UUID | Unset): A UUID the client makes once per write and sends again on every retry of it (or the
            Idempotency-Key header). A retry of the write last applied to this annotation applies nothing and gets the
            success answer (the annotation as it is), not a 409.
        finish_reason (FinishReasonEnum | Unset): * `solution` - Reached the end of the solution
            * `found_error` - Stopped at the first wrong step
            * `give_up` - Gave up
            * `bad_problem` - Bad problem Default: FinishReasonEnum.SOLUTION.
        finish_reason_text (str | Unset):  Default: ''.
        next_ (bool | Unset): Also claim the annotator's next task in the project and answer it as `next_task` (null:
            nothing left), so the labeling loop is one request per task. A retry with the same request_id answers the task
            claimed the first time (the user's own draft is served first). Default: False.
    """

    version: int
    labels: list[LabelInputRequest]
    time_spent_ms: int | Unset = UNSET
    request_id: UUID | Unset = UNSET
    finish_reason: FinishReasonEnum | Unset = FinishReasonEnum.SOLUTION
    finish_reason_text: str | Unset = ""
    next_: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)

        time_spent_ms = self.time_spent_ms

        request_id: str | Unset = UNSET
        if not isinstance(self.request_id, Unset):
            request_id = str(self.request_id)

        finish_reason: str | Unset = UNSET
        if not isinstance(self.finish_reason, Unset):
            finish_reason = self.finish_reason.value

        finish_reason_text = self.finish_reason_text

        next_ = self.next_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "labels": labels,
            }
        )
        if time_spent_ms is not UNSET:
            field_dict["time_spent_ms"] = time_spent_ms
        if request_id is not UNSET:
            field_dict["request_id"] = request_id
        if finish_reason is not UNSET:
            field_dict["finish_reason"] = finish_reason
        if finish_reason_text is not UNSET:
            field_dict["finish_reason_text"] = finish_reason_text
        if next_ is not UNSET:
            field_dict["next"] = next_

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("version", (None, str(self.version).encode(), "text/plain")))

        for labels_item_element in self.labels:
            files.append(
                (
                    "labels",
                    (None, json.dumps(labels_item_element.to_dict()).encode(), "application/json"),
                )
            )

        if not isinstance(self.time_spent_ms, Unset):
            files.append(("time_spent_ms", (None, str(self.time_spent_ms).encode(), "text/plain")))

        if not isinstance(self.request_id, Unset):
            files.append(("request_id", (None, str(self.request_id), "text/plain")))

        if not isinstance(self.finish_reason, Unset):
            files.append(
                ("finish_reason", (None, str(self.finish_reason.value).encode(), "text/plain"))
            )

        if not isinstance(self.finish_reason_text, Unset):
            files.append(
                ("finish_reason_text", (None, str(self.finish_reason_text).encode(), "text/plain"))
            )

        if not isinstance(self.next_, Unset):
            files.append(("next", (None, str(self.next_).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.label_input_request import LabelInputRequest

        d = dict(src_dict)
        version = d.pop("version")

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = LabelInputRequest.from_dict(labels_item_data)

            labels.append(labels_item)

        time_spent_ms = d.pop("time_spent_ms", UNSET)

        _request_id = d.pop("request_id", UNSET)
        request_id: UUID | Unset
        if isinstance(_request_id, Unset):
            request_id = UNSET
        else:
            request_id = UUID(_request_id)

        _finish_reason = d.pop("finish_reason", UNSET)
        finish_reason: FinishReasonEnum | Unset
        if isinstance(_finish_reason, Unset):
            finish_reason = UNSET
        else:
            finish_reason = FinishReasonEnum(_finish_reason)

        finish_reason_text = d.pop("finish_reason_text", UNSET)

        next_ = d.pop("next", UNSET)

        submit_input_request = cls(
            version=version,
            labels=labels,
            time_spent_ms=time_spent_ms,
            request_id=request_id,
            finish_reason=finish_reason,
            finish_reason_text=finish_reason_text,
            next_=next_,
        )

        submit_input_request.additional_properties = d
        return submit_input_request

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
