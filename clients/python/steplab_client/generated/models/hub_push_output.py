from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blank_enum import BlankEnum
from ..models.job_status_enum import JobStatusEnum
from ..models.token_kind_enum import TokenKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="HubPushOutput")


@_attrs_define
class HubPushOutput:
    """
    Attributes:
        id (int):
        export (int):
        repo_id (str):
        created_at (datetime.datetime):
        private (bool | Unset):
        status (JobStatusEnum | Unset): * `pending` - Pending
            * `running` - Running
            * `done` - Done
            * `failed` - Failed
        revision (str | Unset): The commit pushed.
        tag (str | Unset):
        url (str | Unset):
        splits (Any | Unset): Rows per split pushed.
        error (str | Unset):
        token_kind (BlankEnum | TokenKindEnum | Unset): Whose token the push used (empty until it runs); never the
            token.

            * `user` - The user's own token
            * `server` - The server's HF_TOKEN
            * `given` - A token given on the command line
            * `none` - No token
        finished_at (datetime.datetime | None | Unset):
    """

    id: int
    export: int
    repo_id: str
    created_at: datetime.datetime
    private: bool | Unset = UNSET
    status: JobStatusEnum | Unset = UNSET
    revision: str | Unset = UNSET
    tag: str | Unset = UNSET
    url: str | Unset = UNSET
    splits: Any | Unset = UNSET
    error: str | Unset = UNSET
    token_kind: BlankEnum | TokenKindEnum | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        export = self.export

        repo_id = self.repo_id

        created_at = self.created_at.isoformat()

        private = self.private

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        revision = self.revision

        tag = self.tag

        url = self.url

        splits = self.splits

        error = self.error

        token_kind: str | Unset
        if isinstance(self.token_kind, Unset):
            token_kind = UNSET
        elif isinstance(self.token_kind, TokenKindEnum):
            token_kind = self.token_kind.value
        else:
            token_kind = self.token_kind.value

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "export": export,
                "repo_id": repo_id,
                "created_at": created_at,
            }
        )
        if private is not UNSET:
            field_dict["private"] = private
        if status is not UNSET:
            field_dict["status"] = status
        if revision is not UNSET:
            field_dict["revision"] = revision
        if tag is not UNSET:
            field_dict["tag"] = tag
        if url is not UNSET:
            field_dict["url"] = url
        if splits is not UNSET:
            field_dict["splits"] = splits
        if error is not UNSET:
            field_dict["error"] = error
        if token_kind is not UNSET:
            field_dict["token_kind"] = token_kind
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        export = d.pop("export")

        repo_id = d.pop("repo_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        private = d.pop("private", UNSET)

        _status = d.pop("status", UNSET)
        status: JobStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = JobStatusEnum(_status)

        revision = d.pop("revision", UNSET)

        tag = d.pop("tag", UNSET)

        url = d.pop("url", UNSET)

        splits = d.pop("splits", UNSET)

        error = d.pop("error", UNSET)

        def _parse_token_kind(data: object) -> BlankEnum | TokenKindEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                token_kind_type_0 = TokenKindEnum(data)

                return token_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            token_kind_type_1 = BlankEnum(data)

            return token_kind_type_1

        token_kind = _parse_token_kind(d.pop("token_kind", UNSET))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

        hub_push_output = cls(
            id=id,
            export=export,
            repo_id=repo_id,
            created_at=created_at,
            private=private,
            status=status,
            revision=revision,
            tag=tag,
            url=url,
            splits=splits,
            error=error,
            token_kind=token_kind,
            finished_at=finished_at,
        )

        hub_push_output.additional_properties = d
        return hub_push_output

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
