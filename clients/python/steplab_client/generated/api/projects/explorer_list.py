from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.explorer_list_answer import ExplorerListAnswer
from ...models.explorer_list_sort import ExplorerListSort
from ...models.explorer_list_state import ExplorerListState
from ...models.explorer_list_status import ExplorerListStatus
from ...models.explorer_list_verdict import ExplorerListVerdict
from ...models.explorer_page import ExplorerPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: int,
    *,
    answer: ExplorerListAnswer | Unset = UNSET,
    disagreement: bool | None | Unset = UNSET,
    gold: bool | None | Unset = UNSET,
    import_job: int | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    q: str | Unset = UNSET,
    sort: ExplorerListSort | Unset = ExplorerListSort.CREATED,
    state: ExplorerListState | Unset = UNSET,
    status: ExplorerListStatus | Unset = UNSET,
    verdict: ExplorerListVerdict | Unset = UNSET,
    verdict_source: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_answer: str | Unset = UNSET
    if not isinstance(answer, Unset):
        json_answer = answer.value

    params["answer"] = json_answer

    json_disagreement: bool | None | Unset
    if isinstance(disagreement, Unset):
        json_disagreement = UNSET
    else:
        json_disagreement = disagreement
    params["disagreement"] = json_disagreement

    json_gold: bool | None | Unset
    if isinstance(gold, Unset):
        json_gold = UNSET
    else:
        json_gold = gold
    params["gold"] = json_gold

    json_import_job: int | None | Unset
    if isinstance(import_job, Unset):
        json_import_job = UNSET
    else:
        json_import_job = import_job
    params["import_job"] = json_import_job

    params["limit"] = limit

    params["offset"] = offset

    params["q"] = q

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_verdict: str | Unset = UNSET
    if not isinstance(verdict, Unset):
        json_verdict = verdict.value

    params["verdict"] = json_verdict

    params["verdict_source"] = verdict_source

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/projects/{project_id}/explorer/".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ExplorerPage | None:
    if response.status_code == 200:
        response_200 = ExplorerPage.from_dict(response.json())

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
) -> Response[Error | ExplorerPage]:
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
    answer: ExplorerListAnswer | Unset = UNSET,
    disagreement: bool | None | Unset = UNSET,
    gold: bool | None | Unset = UNSET,
    import_job: int | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    q: str | Unset = UNSET,
    sort: ExplorerListSort | Unset = ExplorerListSort.CREATED,
    state: ExplorerListState | Unset = UNSET,
    status: ExplorerListStatus | Unset = UNSET,
    verdict: ExplorerListVerdict | Unset = UNSET,
    verdict_source: str | Unset = UNSET,
) -> Response[Error | ExplorerPage]:
    """A project's solutions, searched, filtered, sorted and paged (project admins).

    Args:
        project_id (int):
        answer (ExplorerListAnswer | Unset):
        disagreement (bool | None | Unset):
        gold (bool | None | Unset):
        import_job (int | None | Unset):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        q (str | Unset):
        sort (ExplorerListSort | Unset):  Default: ExplorerListSort.CREATED.
        state (ExplorerListState | Unset):
        status (ExplorerListStatus | Unset):
        verdict (ExplorerListVerdict | Unset):
        verdict_source (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExplorerPage]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        answer=answer,
        disagreement=disagreement,
        gold=gold,
        import_job=import_job,
        limit=limit,
        offset=offset,
        q=q,
        sort=sort,
        state=state,
        status=status,
        verdict=verdict,
        verdict_source=verdict_source,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: int,
    *,
    client: AuthenticatedClient,
    answer: ExplorerListAnswer | Unset = UNSET,
    disagreement: bool | None | Unset = UNSET,
    gold: bool | None | Unset = UNSET,
    import_job: int | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    q: str | Unset = UNSET,
    sort: ExplorerListSort | Unset = ExplorerListSort.CREATED,
    state: ExplorerListState | Unset = UNSET,
    status: ExplorerListStatus | Unset = UNSET,
    verdict: ExplorerListVerdict | Unset = UNSET,
    verdict_source: str | Unset = UNSET,
) -> Error | ExplorerPage | None:
    """A project's solutions, searched, filtered, sorted and paged (project admins).

    Args:
        project_id (int):
        answer (ExplorerListAnswer | Unset):
        disagreement (bool | None | Unset):
        gold (bool | None | Unset):
        import_job (int | None | Unset):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        q (str | Unset):
        sort (ExplorerListSort | Unset):  Default: ExplorerListSort.CREATED.
        state (ExplorerListState | Unset):
        status (ExplorerListStatus | Unset):
        verdict (ExplorerListVerdict | Unset):
        verdict_source (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExplorerPage
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        answer=answer,
        disagreement=disagreement,
        gold=gold,
        import_job=import_job,
        limit=limit,
        offset=offset,
        q=q,
        sort=sort,
        state=state,
        status=status,
        verdict=verdict,
        verdict_source=verdict_source,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    *,
    client: AuthenticatedClient,
    answer: ExplorerListAnswer | Unset = UNSET,
    disagreement: bool | None | Unset = UNSET,
    gold: bool | None | Unset = UNSET,
    import_job: int | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    q: str | Unset = UNSET,
    sort: ExplorerListSort | Unset = ExplorerListSort.CREATED,
    state: ExplorerListState | Unset = UNSET,
    status: ExplorerListStatus | Unset = UNSET,
    verdict: ExplorerListVerdict | Unset = UNSET,
    verdict_source: str | Unset = UNSET,
) -> Response[Error | ExplorerPage]:
    """A project's solutions, searched, filtered, sorted and paged (project admins).

    Args:
        project_id (int):
        answer (ExplorerListAnswer | Unset):
        disagreement (bool | None | Unset):
        gold (bool | None | Unset):
        import_job (int | None | Unset):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        q (str | Unset):
        sort (ExplorerListSort | Unset):  Default: ExplorerListSort.CREATED.
        state (ExplorerListState | Unset):
        status (ExplorerListStatus | Unset):
        verdict (ExplorerListVerdict | Unset):
        verdict_source (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExplorerPage]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        answer=answer,
        disagreement=disagreement,
        gold=gold,
        import_job=import_job,
        limit=limit,
        offset=offset,
        q=q,
        sort=sort,
        state=state,
        status=status,
        verdict=verdict,
        verdict_source=verdict_source,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    *,
    client: AuthenticatedClient,
    answer: ExplorerListAnswer | Unset = UNSET,
    disagreement: bool | None | Unset = UNSET,
    gold: bool | None | Unset = UNSET,
    import_job: int | None | Unset = UNSET,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    q: str | Unset = UNSET,
    sort: ExplorerListSort | Unset = ExplorerListSort.CREATED,
    state: ExplorerListState | Unset = UNSET,
    status: ExplorerListStatus | Unset = UNSET,
    verdict: ExplorerListVerdict | Unset = UNSET,
    verdict_source: str | Unset = UNSET,
) -> Error | ExplorerPage | None:
    """A project's solutions, searched, filtered, sorted and paged (project admins).

    Args:
        project_id (int):
        answer (ExplorerListAnswer | Unset):
        disagreement (bool | None | Unset):
        gold (bool | None | Unset):
        import_job (int | None | Unset):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        q (str | Unset):
        sort (ExplorerListSort | Unset):  Default: ExplorerListSort.CREATED.
        state (ExplorerListState | Unset):
        status (ExplorerListStatus | Unset):
        verdict (ExplorerListVerdict | Unset):
        verdict_source (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExplorerPage
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            answer=answer,
            disagreement=disagreement,
            gold=gold,
            import_job=import_job,
            limit=limit,
            offset=offset,
            q=q,
            sort=sort,
            state=state,
            status=status,
            verdict=verdict,
            verdict_source=verdict_source,
        )
    ).parsed
