from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.explorer_bulk_action_enum import ExplorerBulkActionEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.explorer_filter_input_request import ExplorerFilterInputRequest


T = TypeVar("T", bound="ExplorerBulkInputRequest")


@_attrs_define
class ExplorerBulkInputRequest:
    """
    Attributes:
        action (ExplorerBulkActionEnum): * `send_to_review` - send_to_review
            * `requeue` - requeue
            * `mark_gold` - mark_gold
            * `unmark_gold` - unmark_gold
        ids (list[int] | None | Unset): The solutions to act on; leave out to act on all matching `filter`.
        filter_ (ExplorerFilterInputRequest | None | Unset):
    """

    action: ExplorerBulkActionEnum
    ids: list[int] | None | Unset = UNSET
    filter_: ExplorerFilterInputRequest | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.explorer_filter_input_request import ExplorerFilterInputRequest

        action = self.action.value

        ids: list[int] | None | Unset
        if isinstance(self.ids, Unset):
            ids = UNSET
        elif isinstance(self.ids, list):
            ids = self.ids

        else:
            ids = self.ids

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, ExplorerFilterInputRequest):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
            }
        )
        if ids is not UNSET:
            field_dict["ids"] = ids
        if filter_ is not UNSET:
            field_dict["filter"] = filter_

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("action", (None, str(self.action.value).encode(), "text/plain")))

        if not isinstance(self.ids, Unset):
            if isinstance(self.ids, list):
                for ids_type_0_item_element in self.ids:
                    files.append(
                        ("ids", (None, str(ids_type_0_item_element).encode(), "text/plain"))
                    )
            else:
                files.append(("ids", (None, str(self.ids).encode(), "text/plain")))

        if not isinstance(self.filter_, Unset):
            if self.filter_ is None:
                files.append(("filter", (None, str(self.filter_).encode(), "text/plain")))
            else:
                files.append(
                    (
                        "filter",
                        (None, json.dumps(self.filter_.to_dict()).encode(), "application/json"),
                    )
                )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.explorer_filter_input_request import ExplorerFilterInputRequest

        d = dict(src_dict)
        action = ExplorerBulkActionEnum(d.pop("action"))

        def _parse_ids(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ids_type_0 = cast(list[int], data)

                return ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        ids = _parse_ids(d.pop("ids", UNSET))

        def _parse_filter_(data: object) -> ExplorerFilterInputRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_1 = ExplorerFilterInputRequest.from_dict(data)

                return filter_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExplorerFilterInputRequest | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))

        explorer_bulk_input_request = cls(
            action=action,
            ids=ids,
            filter_=filter_,
        )

        explorer_bulk_input_request.additional_properties = d
        return explorer_bulk_input_request

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
