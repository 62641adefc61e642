from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.blank_enum import BlankEnum
from ..models.import_input_format_enum import ImportInputFormatEnum
from ..models.labels_as_enum import LabelsAsEnum
from ..models.near_duplicates_enum import NearDuplicatesEnum
from ..models.problem_domain_enum import ProblemDomainEnum
from ..models.step_split_enum import StepSplitEnum
from ..types import UNSET, File, FileTypes, Unset

T = TypeVar("T", bound="ImportInputRequest")


@_attrs_define
class ImportInputRequest:
    """
    Attributes:
        file (File | Unset): The file; or name a Hub dataset.
        hub_repo (str | Unset): Import a Hugging Face Hub dataset (owner/name) instead of a file: one split of one
            config, fetched by the worker with your own Hugging Face token (PUT /api/auth/hub-token/), else the server's
            HF_TOKEN where it covers the repo for you (the hub-token answer's uses), else none; the job's hub.token says
            whose.
        hub_config (str | Unset):  Default: 'default'.
        hub_split (str | Unset):  Default: 'train'.
        hub_revision (str | Unset): A branch, tag or commit. Default: 'main'.
        format_ (ImportInputFormatEnum | Unset): * `auto` - auto
            * `prm800k` - prm800k
            * `prm800k_mrmath` - prm800k_mrmath
            * `processbench` - processbench
            * `prmbench` - prmbench
            * `math_shepherd` - math_shepherd
            * `trl` - trl
            * `gsm8k` - gsm8k
            * `math` - math
            * `steplab` - steplab
            * `messages` - messages
            * `graphsilo` - graphsilo
            * `embodied` - embodied
            * `alfworld` - alfworld
            * `finqa` - finqa Default: ImportInputFormatEnum.AUTO.
        labels_as (LabelsAsEnum | Unset): * `suggestions` - suggestions
            * `annotations` - annotations
            * `none` - none Default: LabelsAsEnum.SUGGESTIONS.
        domain (BlankEnum | ProblemDomainEnum | Unset): The domain of rows that name none (a many-domains project's
            dataset files).

            * `math` - math
            * `code` - code
            * `agent` - agent
            * `multimodal` - multimodal
            * `text` - text
            * `graph` - graph
            * `embodied` - embodied
            * `evidence` - evidence Default: BlankEnum.VALUE_0.
        detect_uses (bool | Unset): Find the earlier steps each step refers to (step `uses`) where a row gives none.
            Off: such steps keep no `uses`, and a large file imports a few percent faster. Default: True.
        near_duplicates (NearDuplicatesEnum | Unset): * `keep` - keep
            * `skip` - skip Default: NearDuplicatesEnum.KEEP.
        step_split (BlankEnum | StepSplitEnum | Unset): How this import cuts a solution given as one string into steps;
            blank: the project's rule. The job records the rule it used.

            * `line` - One step per line
            * `paragraph` - One step per blank-line paragraph
            * `step_marker` - "Step k:" markers
            * `regex` - Split on a regular expression
            * `sentence` - One step per sentence
            * `step_tags` - A model's step separator tags Default: BlankEnum.VALUE_0.
        step_split_regex (str | Unset): The regex rule's separator pattern (RE2 syntax). Default: ''.
        step_split_tag (str | Unset): The step_tags rule's tag: <extra_0> (Qwen PRM), ки (Math-Shepherd), <step> (steps
            between <step> and </step>) or any literal. Default: ''.
        request_id (UUID | Unset): A key the client makes once per job it creates and sends again on every retry (a UUID
            is a good one); a retry with it answers the job made the first time instead of another. Same as Idempotency-Key.
    """

    file: File | Unset = UNSET
    hub_repo: str | Unset = UNSET
    hub_config: str | Unset = "default"
    hub_split: str | Unset = "train"
    hub_revision: str | Unset = "main"
    format_: ImportInputFormatEnum | Unset = ImportInputFormatEnum.AUTO
    labels_as: LabelsAsEnum | Unset = LabelsAsEnum.SUGGESTIONS
    domain: BlankEnum | ProblemDomainEnum | Unset = BlankEnum.VALUE_0
    detect_uses: bool | Unset = True
    near_duplicates: NearDuplicatesEnum | Unset = NearDuplicatesEnum.KEEP
    step_split: BlankEnum | StepSplitEnum | Unset = BlankEnum.VALUE_0
    step_split_regex: str | Unset = ""
    step_split_tag: str | Unset = ""
    request_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file: FileTypes | Unset = UNSET
        if not isinstance(self.file, Unset):
            file = self.file.to_tuple()

        hub_repo = self.hub_repo

        hub_config = self.hub_config

        hub_split = self.hub_split

        hub_revision = self.hub_revision

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        labels_as: str | Unset = UNSET
        if not isinstance(self.labels_as, Unset):
            labels_as = self.labels_as.value

        domain: str | Unset
        if isinstance(self.domain, Unset):
            domain = UNSET
        elif isinstance(self.domain, ProblemDomainEnum):
            domain = self.domain.value
        else:
            domain = self.domain.value

        detect_uses = self.detect_uses

        near_duplicates: str | Unset = UNSET
        if not isinstance(self.near_duplicates, Unset):
            near_duplicates = self.near_duplicates.value

        step_split: str | Unset
        if isinstance(self.step_split, Unset):
            step_split = UNSET
        elif isinstance(self.step_split, StepSplitEnum):
            step_split = self.step_split.value
        else:
            step_split = self.step_split.value

        step_split_regex = self.step_split_regex

        step_split_tag = self.step_split_tag

        request_id: str | Unset = UNSET
        if not isinstance(self.request_id, Unset):
            request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if file is not UNSET:
            field_dict["file"] = file
        if hub_repo is not UNSET:
            field_dict["hub_repo"] = hub_repo
        if hub_config is not UNSET:
            field_dict["hub_config"] = hub_config
        if hub_split is not UNSET:
            field_dict["hub_split"] = hub_split
        if hub_revision is not UNSET:
            field_dict["hub_revision"] = hub_revision
        if format_ is not UNSET:
            field_dict["format"] = format_
        if labels_as is not UNSET:
            field_dict["labels_as"] = labels_as
        if domain is not UNSET:
            field_dict["domain"] = domain
        if detect_uses is not UNSET:
            field_dict["detect_uses"] = detect_uses
        if near_duplicates is not UNSET:
            field_dict["near_duplicates"] = near_duplicates
        if step_split is not UNSET:
            field_dict["step_split"] = step_split
        if step_split_regex is not UNSET:
            field_dict["step_split_regex"] = step_split_regex
        if step_split_tag is not UNSET:
            field_dict["step_split_tag"] = step_split_tag
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.file, Unset):
            files.append(("file", self.file.to_tuple()))

        if not isinstance(self.hub_repo, Unset):
            files.append(("hub_repo", (None, str(self.hub_repo).encode(), "text/plain")))

        if not isinstance(self.hub_config, Unset):
            files.append(("hub_config", (None, str(self.hub_config).encode(), "text/plain")))

        if not isinstance(self.hub_split, Unset):
            files.append(("hub_split", (None, str(self.hub_split).encode(), "text/plain")))

        if not isinstance(self.hub_revision, Unset):
            files.append(("hub_revision", (None, str(self.hub_revision).encode(), "text/plain")))

        if not isinstance(self.format_, Unset):
            files.append(("format", (None, str(self.format_.value).encode(), "text/plain")))

        if not isinstance(self.labels_as, Unset):
            files.append(("labels_as", (None, str(self.labels_as.value).encode(), "text/plain")))

        if not isinstance(self.domain, Unset):
            if isinstance(self.domain, ProblemDomainEnum):
                files.append(("domain", (None, str(self.domain.value).encode(), "text/plain")))
            else:
                files.append(("domain", (None, str(self.domain.value).encode(), "text/plain")))

        if not isinstance(self.detect_uses, Unset):
            files.append(("detect_uses", (None, str(self.detect_uses).encode(), "text/plain")))

        if not isinstance(self.near_duplicates, Unset):
            files.append(
                ("near_duplicates", (None, str(self.near_duplicates.value).encode(), "text/plain"))
            )

        if not isinstance(self.step_split, Unset):
            if isinstance(self.step_split, StepSplitEnum):
                files.append(
                    ("step_split", (None, str(self.step_split.value).encode(), "text/plain"))
                )
            else:
                files.append(
                    ("step_split", (None, str(self.step_split.value).encode(), "text/plain"))
                )

        if not isinstance(self.step_split_regex, Unset):
            files.append(
                ("step_split_regex", (None, str(self.step_split_regex).encode(), "text/plain"))
            )

        if not isinstance(self.step_split_tag, Unset):
            files.append(
                ("step_split_tag", (None, str(self.step_split_tag).encode(), "text/plain"))
            )

        if not isinstance(self.request_id, Unset):
            files.append(("request_id", (None, str(self.request_id), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _file = d.pop("file", UNSET)
        file: File | Unset
        if isinstance(_file, Unset):
            file = UNSET
        else:
            file = File(payload=BytesIO(_file))

        hub_repo = d.pop("hub_repo", UNSET)

        hub_config = d.pop("hub_config", UNSET)

        hub_split = d.pop("hub_split", UNSET)

        hub_revision = d.pop("hub_revision", UNSET)

        _format_ = d.pop("format", UNSET)
        format_: ImportInputFormatEnum | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = ImportInputFormatEnum(_format_)

        _labels_as = d.pop("labels_as", UNSET)
        labels_as: LabelsAsEnum | Unset
        if isinstance(_labels_as, Unset):
            labels_as = UNSET
        else:
            labels_as = LabelsAsEnum(_labels_as)

        def _parse_domain(data: object) -> BlankEnum | ProblemDomainEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                domain_type_0 = ProblemDomainEnum(data)

                return domain_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            domain_type_1 = BlankEnum(data)

            return domain_type_1

        domain = _parse_domain(d.pop("domain", UNSET))

        detect_uses = d.pop("detect_uses", UNSET)

        _near_duplicates = d.pop("near_duplicates", UNSET)
        near_duplicates: NearDuplicatesEnum | Unset
        if isinstance(_near_duplicates, Unset):
            near_duplicates = UNSET
        else:
            near_duplicates = NearDuplicatesEnum(_near_duplicates)

        def _parse_step_split(data: object) -> BlankEnum | StepSplitEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                step_split_type_0 = StepSplitEnum(data)

                return step_split_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            step_split_type_1 = BlankEnum(data)

            return step_split_type_1

        step_split = _parse_step_split(d.pop("step_split", UNSET))

        step_split_regex = d.pop("step_split_regex", UNSET)

        step_split_tag = d.pop("step_split_tag", UNSET)

        _request_id = d.pop("request_id", UNSET)
        request_id: UUID | Unset
        if isinstance(_request_id, Unset):
            request_id = UNSET
        else:
            request_id = UUID(_request_id)

        import_input_request = cls(
            file=file,
            hub_repo=hub_repo,
            hub_config=hub_config,
            hub_split=hub_split,
            hub_revision=hub_revision,
            format_=format_,
            labels_as=labels_as,
            domain=domain,
            detect_uses=detect_uses,
            near_duplicates=near_duplicates,
            step_split=step_split,
            step_split_regex=step_split_regex,
            step_split_tag=step_split_tag,
            request_id=request_id,
        )

        import_input_request.additional_properties = d
        return import_input_request

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
