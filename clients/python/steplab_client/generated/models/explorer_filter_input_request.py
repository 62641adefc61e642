from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blank_enum import BlankEnum
from ..models.explorer_answer_enum import ExplorerAnswerEnum
from ..models.explorer_label_state_enum import ExplorerLabelStateEnum
from ..models.explorer_queue_status_enum import ExplorerQueueStatusEnum
from ..models.explorer_sort_enum import ExplorerSortEnum
from ..models.explorer_verdict_enum import ExplorerVerdictEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExplorerFilterInputRequest")


@_attrs_define
class ExplorerFilterInputRequest:
    """What selects and orders the explorer's solutions (the query string, or a bulk body's
    `filter`); every field is optional.

        Attributes:
            q (str | Unset): Problem text contains.
            state (BlankEnum | ExplorerLabelStateEnum | Unset): Label state.

                * `` -
                * `unlabeled` - unlabeled
                * `in_progress` - in_progress
                * `labeled` - labeled
                * `reviewed` - reviewed
            status (BlankEnum | ExplorerQueueStatusEnum | Unset): In the open labeling pool.

                * `` -
                * `open` - open
                * `closed` - closed
            disagreement (bool | None | Unset):
            verdict (BlankEnum | ExplorerVerdictEnum | Unset): error: a machine source marks a step wrong (−1); no_error:
                machine suggestions without a −1; none: no machine suggestion.

                * `` -
                * `error` - error
                * `no_error` - no_error
                * `none` - none
            verdict_source (str | Unset): Restrict `verdict` to one machine source: a built-in one or an installed engine
                plug-in's name.
            answer (BlankEnum | ExplorerAnswerEnum | Unset): The final answer's check.

                * `` -
                * `correct` - correct
                * `wrong` - wrong
                * `unknown` - unknown
            gold (bool | None | Unset):
            import_job (int | None | Unset):
            sort (ExplorerSortEnum | Unset): * `created` - created
                * `-created` - -created
                * `problem` - problem
                * `-problem` - -problem
                * `annotations` - annotations
                * `-annotations` - -annotations
                * `agreement` - agreement
                * `-agreement` - -agreement Default: ExplorerSortEnum.CREATED.
    """

    q: str | Unset = UNSET
    state: BlankEnum | ExplorerLabelStateEnum | Unset = UNSET
    status: BlankEnum | ExplorerQueueStatusEnum | Unset = UNSET
    disagreement: bool | None | Unset = UNSET
    verdict: BlankEnum | ExplorerVerdictEnum | Unset = UNSET
    verdict_source: str | Unset = UNSET
    answer: BlankEnum | ExplorerAnswerEnum | Unset = UNSET
    gold: bool | None | Unset = UNSET
    import_job: int | None | Unset = UNSET
    sort: ExplorerSortEnum | Unset = ExplorerSortEnum.CREATED
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        q = self.q

        state: str | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        elif isinstance(self.state, ExplorerLabelStateEnum):
            state = self.state.value
        else:
            state = self.state.value

        status: str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, ExplorerQueueStatusEnum):
            status = self.status.value
        else:
            status = self.status.value

        disagreement: bool | None | Unset
        if isinstance(self.disagreement, Unset):
            disagreement = UNSET
        else:
            disagreement = self.disagreement

        verdict: str | Unset
        if isinstance(self.verdict, Unset):
            verdict = UNSET
        elif isinstance(self.verdict, ExplorerVerdictEnum):
            verdict = self.verdict.value
        else:
            verdict = self.verdict.value

        verdict_source = self.verdict_source

        answer: str | Unset
        if isinstance(self.answer, Unset):
            answer = UNSET
        elif isinstance(self.answer, ExplorerAnswerEnum):
            answer = self.answer.value
        else:
            answer = self.answer.value

        gold: bool | None | Unset
        if isinstance(self.gold, Unset):
            gold = UNSET
        else:
            gold = self.gold

        import_job: int | None | Unset
        if isinstance(self.import_job, Unset):
            import_job = UNSET
        else:
            import_job = self.import_job

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if q is not UNSET:
            field_dict["q"] = q
        if state is not UNSET:
            field_dict["state"] = state
        if status is not UNSET:
            field_dict["status"] = status
        if disagreement is not UNSET:
            field_dict["disagreement"] = disagreement
        if verdict is not UNSET:
            field_dict["verdict"] = verdict
        if verdict_source is not UNSET:
            field_dict["verdict_source"] = verdict_source
        if answer is not UNSET:
            field_dict["answer"] = answer
        if gold is not UNSET:
            field_dict["gold"] = gold
        if import_job is not UNSET:
            field_dict["import_job"] = import_job
        if sort is not UNSET:
            field_dict["sort"] = sort

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        q = d.pop("q", UNSET)

        def _parse_state(data: object) -> BlankEnum | ExplorerLabelStateEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = ExplorerLabelStateEnum(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            state_type_1 = BlankEnum(data)

            return state_type_1

        state = _parse_state(d.pop("state", UNSET))

        def _parse_status(data: object) -> BlankEnum | ExplorerQueueStatusEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = ExplorerQueueStatusEnum(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            status_type_1 = BlankEnum(data)

            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        def _parse_disagreement(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        disagreement = _parse_disagreement(d.pop("disagreement", UNSET))

        def _parse_verdict(data: object) -> BlankEnum | ExplorerVerdictEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_0 = ExplorerVerdictEnum(data)

                return verdict_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            verdict_type_1 = BlankEnum(data)

            return verdict_type_1

        verdict = _parse_verdict(d.pop("verdict", UNSET))

        verdict_source = d.pop("verdict_source", UNSET)

        def _parse_answer(data: object) -> BlankEnum | ExplorerAnswerEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                answer_type_0 = ExplorerAnswerEnum(data)

                return answer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            answer_type_1 = BlankEnum(data)

            return answer_type_1

        answer = _parse_answer(d.pop("answer", UNSET))

        def _parse_gold(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        gold = _parse_gold(d.pop("gold", UNSET))

        def _parse_import_job(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        import_job = _parse_import_job(d.pop("import_job", UNSET))

        _sort = d.pop("sort", UNSET)
        sort: ExplorerSortEnum | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = ExplorerSortEnum(_sort)

        explorer_filter_input_request = cls(
            q=q,
            state=state,
            status=status,
            disagreement=disagreement,
            verdict=verdict,
            verdict_source=verdict_source,
            answer=answer,
            gold=gold,
            import_job=import_job,
            sort=sort,
        )

        explorer_filter_input_request.additional_properties = d
        return explorer_filter_input_request

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
