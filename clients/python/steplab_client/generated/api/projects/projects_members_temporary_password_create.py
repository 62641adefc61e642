from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.issued_password_output import IssuedPasswordOutput
from ...types import Response


def _get_kwargs(
    project_id: int,
    user_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/projects/{project_id}/members/{user_id}/temporary-password/".format(
            project_id=quote(str(project_id), safe=""),
            user_id=quote(str(user_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | IssuedPasswordOutput | None:
    if response.status_code == 200:
        response_200 = IssuedPasswordOutput.from_dict(response.json())

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
) -> Response[Error | IssuedPasswordOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: int,
    user_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Error | IssuedPasswordOutput]:
    """Issue a new temporary password to a member who never chose their own (the first one was
    lost), shown in this reply only. The old one, their sessions and their API tokens stop
    working. Refused for accounts that chose a password ("Forgot password?" is theirs), staff,
    superusers, deactivated accounts and yourself, and unless you are an admin of every project
    they are in (staff may always). Throttled per admin.

    Args:
        project_id (int):
        user_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IssuedPasswordOutput]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        user_id=user_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: int,
    user_id: int,
    *,
    client: AuthenticatedClient,
) -> Error | IssuedPasswordOutput | None:
    """Issue a new temporary password to a member who never chose their own (the first one was
    lost), shown in this reply only. The old one, their sessions and their API tokens stop
    working. Refused for accounts that chose a password ("Forgot password?" is theirs), staff,
    superusers, deactivated accounts and yourself, and unless you are an admin of every project
    they are in (staff may always). Throttled per admin.

    Args:
        project_id (int):
        user_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IssuedPasswordOutput
    """

    return sync_detailed(
        project_id=project_id,
        user_id=user_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    user_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Error | IssuedPasswordOutput]:
    """Issue a new temporary password to a member who never chose their own (the first one was
    lost), shown in this reply only. The old one, their sessions and their API tokens stop
    working. Refused for accounts that chose a password ("Forgot password?" is theirs), staff,
    superusers, deactivated accounts and yourself, and unless you are an admin of every project
    they are in (staff may always). Throttled per admin.

    Args:
        project_id (int):
        user_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IssuedPasswordOutput]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        user_id=user_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    user_id: int,
    *,
    client: AuthenticatedClient,
) -> Error | IssuedPasswordOutput | None:
    """Issue a new temporary password to a member who never chose their own (the first one was
    lost), shown in this reply only. The old one, their sessions and their API tokens stop
    working. Refused for accounts that chose a password ("Forgot password?" is theirs), staff,
    superusers, deactivated accounts and yourself, and unless you are an admin of every project
    they are in (staff may always). Throttled per admin.

    Args:
        project_id (int):
        user_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IssuedPasswordOutput
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            user_id=user_id,
            client=client,
        )
    ).parsed
