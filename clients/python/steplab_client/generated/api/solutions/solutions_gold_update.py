from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.gold_input_request import GoldInputRequest
from ...models.gold_output import GoldOutput
from ...types import UNSET, Response


def _get_kwargs(
    solution_id: int,
    *,
    body: GoldInputRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/solutions/{solution_id}/gold/".format(
            solution_id=quote(str(solution_id), safe=""),
        ),
    }

    if isinstance(body, GoldInputRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, GoldInputRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, GoldInputRequest):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GoldOutput | None:
    if response.status_code == 200:
        response_200 = GoldOutput.from_dict(response.json())

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
) -> Response[Error | GoldOutput]:
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
    body: GoldInputRequest | Unset = UNSET,
) -> Response[Error | GoldOutput]:
    """Admins mark a solution as gold with its known labels, or unmark it.

    Args:
        solution_id (int):
        body (GoldInputRequest):
        body (GoldInputRequest):
        body (GoldInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GoldOutput]
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
    body: GoldInputRequest | Unset = UNSET,
) -> Error | GoldOutput | None:
    """Admins mark a solution as gold with its known labels, or unmark it.

    Args:
        solution_id (int):
        body (GoldInputRequest):
        body (GoldInputRequest):
        body (GoldInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GoldOutput
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
    body: GoldInputRequest | Unset = UNSET,
) -> Response[Error | GoldOutput]:
    """Admins mark a solution as gold with its known labels, or unmark it.

    Args:
        solution_id (int):
        body (GoldInputRequest):
        body (GoldInputRequest):
        body (GoldInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GoldOutput]
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
    body: GoldInputRequest | Unset = UNSET,
) -> Error | GoldOutput | None:
    """Admins mark a solution as gold with its known labels, or unmark it.

    Args:
        solution_id (int):
        body (GoldInputRequest):
        body (GoldInputRequest):
        body (GoldInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GoldOutput
    """

    return (
        await asyncio_detailed(
            solution_id=solution_id,
            client=client,
            body=body,
        )
    ).parsed
