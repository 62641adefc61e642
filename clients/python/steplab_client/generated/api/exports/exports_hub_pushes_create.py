from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.hub_push_input_request import HubPushInputRequest
from ...models.hub_push_output import HubPushOutput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    export_id: int,
    *,
    body: HubPushInputRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/exports/{export_id}/hub-pushes/".format(
            export_id=quote(str(export_id), safe=""),
        ),
    }

    if isinstance(body, HubPushInputRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, HubPushInputRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, HubPushInputRequest):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | HubPushOutput | None:
    if response.status_code == 202:
        response_202 = HubPushOutput.from_dict(response.json())

        return response_202

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
) -> Response[Error | HubPushOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    export_id: int,
    *,
    client: AuthenticatedClient,
    body: HubPushInputRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | HubPushOutput]:
    """Push a done export to a Hub dataset repo (project admins): one Parquet file per
    split, the dataset card, a tag `export-<id>`. Your own Hugging Face token is used
    (PUT /api/auth/hub-token/), else the server's HF_TOKEN where it covers the repo for you
    (staff: any; others: HUB_SERVER_TOKEN_REPOS), else the push is a 400 (the push's
    token_kind says whose); a worker on the `exports` queue pushes; poll the push.

    Args:
        export_id (int):
        idempotency_key (str | Unset):
        body (HubPushInputRequest):
        body (HubPushInputRequest):
        body (HubPushInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | HubPushOutput]
    """

    kwargs = _get_kwargs(
        export_id=export_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    export_id: int,
    *,
    client: AuthenticatedClient,
    body: HubPushInputRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | HubPushOutput | None:
    """Push a done export to a Hub dataset repo (project admins): one Parquet file per
    split, the dataset card, a tag `export-<id>`. Your own Hugging Face token is used
    (PUT /api/auth/hub-token/), else the server's HF_TOKEN where it covers the repo for you
    (staff: any; others: HUB_SERVER_TOKEN_REPOS), else the push is a 400 (the push's
    token_kind says whose); a worker on the `exports` queue pushes; poll the push.

    Args:
        export_id (int):
        idempotency_key (str | Unset):
        body (HubPushInputRequest):
        body (HubPushInputRequest):
        body (HubPushInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | HubPushOutput
    """

    return sync_detailed(
        export_id=export_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    export_id: int,
    *,
    client: AuthenticatedClient,
    body: HubPushInputRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | HubPushOutput]:
    """Push a done export to a Hub dataset repo (project admins): one Parquet file per
    split, the dataset card, a tag `export-<id>`. Your own Hugging Face token is used
    (PUT /api/auth/hub-token/), else the server's HF_TOKEN where it covers the repo for you
    (staff: any; others: HUB_SERVER_TOKEN_REPOS), else the push is a 400 (the push's
    token_kind says whose); a worker on the `exports` queue pushes; poll the push.

    Args:
        export_id (int):
        idempotency_key (str | Unset):
        body (HubPushInputRequest):
        body (HubPushInputRequest):
        body (HubPushInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | HubPushOutput]
    """

    kwargs = _get_kwargs(
        export_id=export_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    export_id: int,
    *,
    client: AuthenticatedClient,
    body: HubPushInputRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | HubPushOutput | None:
    """Push a done export to a Hub dataset repo (project admins): one Parquet file per
    split, the dataset card, a tag `export-<id>`. Your own Hugging Face token is used
    (PUT /api/auth/hub-token/), else the server's HF_TOKEN where it covers the repo for you
    (staff: any; others: HUB_SERVER_TOKEN_REPOS), else the push is a 400 (the push's
    token_kind says whose); a worker on the `exports` queue pushes; poll the push.

    Args:
        export_id (int):
        idempotency_key (str | Unset):
        body (HubPushInputRequest):
        body (HubPushInputRequest):
        body (HubPushInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | HubPushOutput
    """

    return (
        await asyncio_detailed(
            export_id=export_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
