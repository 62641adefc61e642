from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.comment_create_input_request import CommentCreateInputRequest
from ...models.comment_output import CommentOutput
from ...models.error import Error
from ...types import UNSET, Response


def _get_kwargs(
    solution_id: int,
    *,
    body: CommentCreateInputRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/solutions/{solution_id}/comments/".format(
            solution_id=quote(str(solution_id), safe=""),
        ),
    }

    if isinstance(body, CommentCreateInputRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, CommentCreateInputRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, CommentCreateInputRequest):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CommentOutput | Error | None:
    if response.status_code == 201:
        response_201 = CommentOutput.from_dict(response.json())

        return response_201

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
) -> Response[CommentOutput | Error]:
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
    body: CommentCreateInputRequest | Unset = UNSET,
) -> Response[CommentOutput | Error]:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommentOutput | Error]
    """

    kwargs = _get_kwargs(
        solution_id=solution_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    body: CommentCreateInputRequest | Unset = UNSET,
) -> CommentOutput | Error | None:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommentOutput | Error
    """

    return sync_detailed(
        solution_id=solution_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    body: CommentCreateInputRequest | Unset = UNSET,
) -> Response[CommentOutput | Error]:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CommentOutput | Error]
    """

    kwargs = _get_kwargs(
        solution_id=solution_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    solution_id: int,
    *,
    client: AuthenticatedClient,
    body: CommentCreateInputRequest | Unset = UNSET,
) -> CommentOutput | Error | None:
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.

    Args:
        solution_id (int):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):
        body (CommentCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CommentOutput | Error
    """

    return (
        await asyncio_detailed(
            solution_id=solution_id,
            client=client,
            body=body,
        )
    ).parsed
