from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.review_problem_documents_item import ReviewProblemDocumentsItem
    from ..models.review_problem_tables_item import ReviewProblemTablesItem


T = TypeVar("T", bound="ReviewProblem")


@_attrs_define
class ReviewProblem:
    """
    Attributes:
        id (int):
        text (str):
        answer (str):
        source (str):
        images (list[str]):
        tools (list[str]):
        graph (Any):
        documents (list[ReviewProblemDocumentsItem]):
        tables (list[ReviewProblemTablesItem]):
    """

    id: int
    text: str
    answer: str
    source: str
    images: list[str]
    tools: list[str]
    graph: Any
    documents: list[ReviewProblemDocumentsItem]
    tables: list[ReviewProblemTablesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        text = self.text

        answer = self.answer

        source = self.source

        images = self.images

        tools = self.tools

        graph = self.graph

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)

        tables = []
        for tables_item_data in self.tables:
            tables_item = tables_item_data.to_dict()
            tables.append(tables_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "text": text,
                "answer": answer,
                "source": source,
                "images": images,
                "tools": tools,
                "graph": graph,
                "documents": documents,
                "tables": tables,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.review_problem_documents_item import ReviewProblemDocumentsItem
        from ..models.review_problem_tables_item import ReviewProblemTablesItem

        d = dict(src_dict)
        id = d.pop("id")

        text = d.pop("text")

        answer = d.pop("answer")

        source = d.pop("source")

        images = cast(list[str], d.pop("images"))

        tools = cast(list[str], d.pop("tools"))

        graph = d.pop("graph")

        documents = []
        _documents = d.pop("documents")
        for documents_item_data in _documents:
            documents_item = ReviewProblemDocumentsItem.from_dict(documents_item_data)

            documents.append(documents_item)

        tables = []
        _tables = d.pop("tables")
        for tables_item_data in _tables:
            tables_item = ReviewProblemTablesItem.from_dict(tables_item_data)

            tables.append(tables_item)

        review_problem = cls(
            id=id,
            text=text,
            answer=answer,
            source=source,
            images=images,
            tools=tools,
            graph=graph,
            documents=documents,
            tables=tables,
        )

        review_problem.additional_properties = d
        return review_problem

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
