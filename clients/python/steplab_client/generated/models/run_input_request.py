from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_input_request_filter import RunInputRequestFilter
    from ..models.run_input_request_params import RunInputRequestParams


T = TypeVar("T", bound="RunInputRequest")


@_attrs_define
class RunInputRequest:
    """
    Attributes:
        sources (list[str]):
        params (RunInputRequestParams | Unset):
        filter_ (RunInputRequestFilter | Unset):
        request_id (UUID | Unset): A key the client makes once per job it creates and sends again on every retry (a UUID
            is a good one); a retry with it answers the job made the first time instead of another. Same as Idempotency-Key.
    """

    sources: list[str]
    params: RunInputRequestParams | Unset = UNSET
    filter_: RunInputRequestFilter | Unset = UNSET
    request_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sources = self.sources

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        filter_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filter_, Unset):
            filter_ = self.filter_.to_dict()

        request_id: str | Unset = UNSET
        if not isinstance(self.request_id, Unset):
            request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sources": sources,
            }
        )
        if params is not UNSET:
            field_dict["params"] = params
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        for sources_item_element in self.sources:
            files.append(("sources", (None, str(sources_item_element).encode(), "text/plain")))

        if not isinstance(self.params, Unset):
            files.append(
                ("params", (None, json.dumps(self.params.to_dict()).encode(), "application/json"))
            )

        if not isinstance(self.filter_, Unset):
            files.append(
                ("filter", (None, json.dumps(self.filter_.to_dict()).encode(), "application/json"))
            )

        if not isinstance(self.request_id, Unset):
            files.append(("request_id", (None, str(self.request_id), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_input_request_filter import RunInputRequestFilter
        from ..models.run_input_request_params import RunInputRequestParams

        d = dict(src_dict)
        sources = cast(list[str], d.pop("sources"))

        _params = d.pop("params", UNSET)
        params: RunInputRequestParams | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = RunInputRequestParams.from_dict(_params)

        _filter_ = d.pop("filter", UNSET)
        filter_: RunInputRequestFilter | Unset
        if isinstance(_filter_, Unset):
            filter_ = UNSET
        else:
            filter_ = RunInputRequestFilter.from_dict(_filter_)

        _request_id = d.pop("request_id", UNSET)
        request_id: UUID | Unset
        if isinstance(_request_id, Unset):
            request_id = UNSET
        else:
            request_id = UUID(_request_id)

        run_input_request = cls(
            sources=sources,
            params=params,
            filter_=filter_,
            request_id=request_id,
        )

        run_input_request.additional_properties = d
        return run_input_request

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
