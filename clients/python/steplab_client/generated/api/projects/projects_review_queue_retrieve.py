import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.projects_review_queue_retrieve_domain import ProjectsReviewQueueRetrieveDomain
from ...models.projects_review_queue_retrieve_reason import ProjectsReviewQueueRetrieveReason
from ...models.projects_review_queue_retrieve_state import ProjectsReviewQueueRetrieveState
from ...models.review_queue_page import ReviewQueuePage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: int,
    *,
    annotator: int | Unset = UNSET,
    domain: ProjectsReviewQueueRetrieveDomain | Unset = UNSET,
    reason: ProjectsReviewQueueRetrieveReason | Unset = UNSET,
    source: str | Unset = UNSET,
    state: ProjectsReviewQueueRetrieveState | Unset = ProjectsReviewQueueRetrieveState.UNRESOLVED,
    submitted_from: datetime.datetime | Unset = UNSET,
    submitted_to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["annotator"] = annotator

    json_domain: str | Unset = UNSET
    if not isinstance(domain, Unset):
        json_domain = domain.value

    params["domain"] = json_domain

    json_reason: str | Unset = UNSET
    if not isinstance(reason, Unset):
        json_reason = reason.value

    params["reason"] = json_reason

    params["source"] = source

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    json_submitted_from: str | Unset = UNSET
    if not isinstance(submitted_from, Unset):
        json_submitted_from = submitted_from.isoformat()
    params["submitted_from"] = json_submitted_from

    json_submitted_to: str | Unset = UNSET
    if not isinstance(submitted_to, Unset):
        json_submitted_to = submitted_to.isoformat()
    params["submitted_to"] = json_submitted_to

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/projects/{project_id}/review/queue/".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ReviewQueuePage | None:
    if response.status_code == 200:
        response_200 = ReviewQueuePage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | ReviewQueuePage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: int,
    *,
    client: AuthenticatedClient,
    annotator: int | Unset = UNSET,
    domain: ProjectsReviewQueueRetrieveDomain | Unset = UNSET,
    reason: ProjectsReviewQueueRetrieveReason | Unset = UNSET,
    source: str | Unset = UNSET,
    state: ProjectsReviewQueueRetrieveState | Unset = ProjectsReviewQueueRetrieveState.UNRESOLVED,
    submitted_from: datetime.datetime | Unset = UNSET,
    submitted_to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[Error | ReviewQueuePage]:
    """Solutions with submitted labels, most in need of review first, with the reasons.

    Args:
        project_id (int):
        annotator (int | Unset):
        domain (ProjectsReviewQueueRetrieveDomain | Unset):
        reason (ProjectsReviewQueueRetrieveReason | Unset):
        source (str | Unset):
        state (ProjectsReviewQueueRetrieveState | Unset):  Default:
            ProjectsReviewQueueRetrieveState.UNRESOLVED.
        submitted_from (datetime.datetime | Unset):
        submitted_to (datetime.datetime | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReviewQueuePage]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        annotator=annotator,
        domain=domain,
        reason=reason,
        source=source,
        state=state,
        submitted_from=submitted_from,
        submitted_to=submitted_to,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: int,
    *,
    client: AuthenticatedClient,
    annotator: int | Unset = UNSET,
    domain: ProjectsReviewQueueRetrieveDomain | Unset = UNSET,
    reason: ProjectsReviewQueueRetrieveReason | Unset = UNSET,
    source: str | Unset = UNSET,
    state: ProjectsReviewQueueRetrieveState | Unset = ProjectsReviewQueueRetrieveState.UNRESOLVED,
    submitted_from: datetime.datetime | Unset = UNSET,
    submitted_to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Error | ReviewQueuePage | None:
    """Solutions with submitted labels, most in need of review first, with the reasons.

    Args:
        project_id (int):
        annotator (int | Unset):
        domain (ProjectsReviewQueueRetrieveDomain | Unset):
        reason (ProjectsReviewQueueRetrieveReason | Unset):
        source (str | Unset):
        state (ProjectsReviewQueueRetrieveState | Unset):  Default:
            ProjectsReviewQueueRetrieveState.UNRESOLVED.
        submitted_from (datetime.datetime | Unset):
        submitted_to (datetime.datetime | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReviewQueuePage
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        annotator=annotator,
        domain=domain,
        reason=reason,
        source=source,
        state=state,
        submitted_from=submitted_from,
        submitted_to=submitted_to,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    *,
    client: AuthenticatedClient,
    annotator: int | Unset = UNSET,
    domain: ProjectsReviewQueueRetrieveDomain | Unset = UNSET,
    reason: ProjectsReviewQueueRetrieveReason | Unset = UNSET,
    source: str | Unset = UNSET,
    state: ProjectsReviewQueueRetrieveState | Unset = ProjectsReviewQueueRetrieveState.UNRESOLVED,
    submitted_from: datetime.datetime | Unset = UNSET,
    submitted_to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[Error | ReviewQueuePage]:
    """Solutions with submitted labels, most in need of review first, with the reasons.

    Args:
        project_id (int):
        annotator (int | Unset):
        domain (ProjectsReviewQueueRetrieveDomain | Unset):
        reason (ProjectsReviewQueueRetrieveReason | Unset):
        source (str | Unset):
        state (ProjectsReviewQueueRetrieveState | Unset):  Default:
            ProjectsReviewQueueRetrieveState.UNRESOLVED.
        submitted_from (datetime.datetime | Unset):
        submitted_to (datetime.datetime | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReviewQueuePage]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        annotator=annotator,
        domain=domain,
        reason=reason,
        source=source,
        state=state,
        submitted_from=submitted_from,
        submitted_to=submitted_to,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    *,
    client: AuthenticatedClient,
    annotator: int | Unset = UNSET,
    domain: ProjectsReviewQueueRetrieveDomain | Unset = UNSET,
    reason: ProjectsReviewQueueRetrieveReason | Unset = UNSET,
    source: str | Unset = UNSET,
    state: ProjectsReviewQueueRetrieveState | Unset = ProjectsReviewQueueRetrieveState.UNRESOLVED,
    submitted_from: datetime.datetime | Unset = UNSET,
    submitted_to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Error | ReviewQueuePage | None:
    """Solutions with submitted labels, most in need of review first, with the reasons.

    Args:
        project_id (int):
        annotator (int | Unset):
        domain (ProjectsReviewQueueRetrieveDomain | Unset):
        reason (ProjectsReviewQueueRetrieveReason | Unset):
        source (str | Unset):
        state (ProjectsReviewQueueRetrieveState | Unset):  Default:
            ProjectsReviewQueueRetrieveState.UNRESOLVED.
        submitted_from (datetime.datetime | Unset):
        submitted_to (datetime.datetime | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReviewQueuePage
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            annotator=annotator,
            domain=domain,
            reason=reason,
            source=source,
            state=state,
            submitted_from=submitted_from,
            submitted_to=submitted_to,
            limit=limit,
            offset=offset,
        )
    ).parsed
