from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.comment_output import CommentOutput
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    solution_id: int,
    *,
    step: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["step"] = step

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/solutions/{solution_id}/comments/".format(
            solution_id=quote(str(solution_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | list[CommentOutput] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = CommentOutput.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[Error | list[CommentOutput]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    step: int | Unset = UNSET,
) -> Response[Error | list[CommentOutput]]:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[CommentOutput]]
    """

    kwargs = _get_kwargs(
        solution_id=solution_id,
        step=step,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    step: int | Unset = UNSET,
) -> Error | list[CommentOutput] | None:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[CommentOutput]
    """

    return sync_detailed(
        solution_id=solution_id,
        client=client,
        step=step,
    ).parsed


async def asyncio_detailed(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    step: int | Unset = UNSET,
) -> Response[Error | list[CommentOutput]]:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[CommentOutput]]
    """

    kwargs = _get_kwargs(
        solution_id=solution_id,
        step=step,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    step: int | Unset = UNSET,
) -> Error | list[CommentOutput] | None:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        step (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[CommentOutput]
    """

    return (
        await asyncio_detailed(
            solution_id=solution_id,
            client=client,
            step=step,
        )
    ).parsed
