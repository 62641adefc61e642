from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="HubPushInputRequest")


@_attrs_define
class HubPushInputRequest:
    """
    Attributes:
        repo_id (str): The dataset repo, owner/name; created if missing.
        private (bool | Unset): A new repo is private unless false; an existing one keeps its. Default: True.
        request_id (UUID | Unset): A key the client makes once per job it creates and sends again on every retry (a UUID
            is a good one); a retry with it answers the job made the first time instead of another. Same as Idempotency-Key.
    """

    repo_id: str
    private: bool | Unset = True
    request_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        repo_id = self.repo_id

        private = self.private

        request_id: str | Unset = UNSET
        if not isinstance(self.request_id, Unset):
            request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "repo_id": repo_id,
            }
        )
        if private is not UNSET:
            field_dict["private"] = private
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("repo_id", (None, str(self.repo_id).encode(), "text/plain")))

        if not isinstance(self.private, Unset):
            files.append(("private", (None, str(self.private).encode(), "text/plain")))

        if not isinstance(self.request_id, Unset):
            files.append(("request_id", (None, str(self.request_id), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        repo_id = d.pop("repo_id")

        private = d.pop("private", UNSET)

        _request_id = d.pop("request_id", UNSET)
        request_id: UUID | Unset
        if isinstance(_request_id, Unset):
            request_id = UNSET
        else:
            request_id = UUID(_request_id)

        hub_push_input_request = cls(
            repo_id=repo_id,
            private=private,
            request_id=request_id,
        )

        hub_push_input_request.additional_properties = d
        return hub_push_input_request

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
