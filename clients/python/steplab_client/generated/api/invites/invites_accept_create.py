from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.invite_accept_input_request import InviteAcceptInputRequest
from ...models.invite_accept_output import InviteAcceptOutput
from ...types import UNSET, Response


def _get_kwargs(
    token: str,
    *,
    body: InviteAcceptInputRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/invites/{token}/accept/".format(
            token=quote(str(token), safe=""),
        ),
    }

    if isinstance(body, InviteAcceptInputRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, InviteAcceptInputRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, InviteAcceptInputRequest):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | InviteAcceptOutput | None:
    if response.status_code == 200:
        response_200 = InviteAcceptOutput.from_dict(response.json())

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
) -> Response[Error | InviteAcceptOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    *,
    client: AuthenticatedClient,
    body: InviteAcceptInputRequest | Unset = UNSET,
) -> Response[Error | InviteAcceptOutput]:
    """Make the invitee's account (username and password of their choice), add it to the
    project with the invite's role, and sign them in.

    Args:
        token (str):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | InviteAcceptOutput]
    """

    kwargs = _get_kwargs(
        token=token,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token: str,
    *,
    client: AuthenticatedClient,
    body: InviteAcceptInputRequest | Unset = UNSET,
) -> Error | InviteAcceptOutput | None:
    """Make the invitee's account (username and password of their choice), add it to the
    project with the invite's role, and sign them in.

    Args:
        token (str):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | InviteAcceptOutput
    """

    return sync_detailed(
        token=token,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    token: str,
    *,
    client: AuthenticatedClient,
    body: InviteAcceptInputRequest | Unset = UNSET,
) -> Response[Error | InviteAcceptOutput]:
    """Make the invitee's account (username and password of their choice), add it to the
    project with the invite's role, and sign them in.

    Args:
        token (str):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | InviteAcceptOutput]
    """

    kwargs = _get_kwargs(
        token=token,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token: str,
    *,
    client: AuthenticatedClient,
    body: InviteAcceptInputRequest | Unset = UNSET,
) -> Error | InviteAcceptOutput | None:
    """Make the invitee's account (username and password of their choice), add it to the
    project with the invite's role, and sign them in.

    Args:
        token (str):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):
        body (InviteAcceptInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | InviteAcceptOutput
    """

    return (
        await asyncio_detailed(
            token=token,
            client=client,
            body=body,
        )
    ).parsed
