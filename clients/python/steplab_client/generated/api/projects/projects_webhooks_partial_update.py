from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.patched_webhook_endpoint_patch_input_request import (
    PatchedWebhookEndpointPatchInputRequest,
)
from ...models.webhook_endpoint_output import WebhookEndpointOutput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: int,
    endpoint_id: int,
    *,
    body: PatchedWebhookEndpointPatchInputRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/projects/{project_id}/webhooks/{endpoint_id}/".format(
            project_id=quote(str(project_id), safe=""),
            endpoint_id=quote(str(endpoint_id), safe=""),
        ),
    }

    if isinstance(body, PatchedWebhookEndpointPatchInputRequest):
        if not isinstance(body, Unset):
            _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, PatchedWebhookEndpointPatchInputRequest):
        if not isinstance(body, Unset):
            _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, PatchedWebhookEndpointPatchInputRequest):
        if not isinstance(body, Unset):
            _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookEndpointOutput | None:
    if response.status_code == 200:
        response_200 = WebhookEndpointOutput.from_dict(response.json())

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
) -> Response[Error | WebhookEndpointOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: int,
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedWebhookEndpointPatchInputRequest | Unset = UNSET,
) -> Response[Error | WebhookEndpointOutput]:
    """Change the URL, events, description or active flag (turning it on clears the
    reason the server turned it off).

    Args:
        project_id (int):
        endpoint_id (int):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookEndpointOutput]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        endpoint_id=endpoint_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: int,
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedWebhookEndpointPatchInputRequest | Unset = UNSET,
) -> Error | WebhookEndpointOutput | None:
    """Change the URL, events, description or active flag (turning it on clears the
    reason the server turned it off).

    Args:
        project_id (int):
        endpoint_id (int):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookEndpointOutput
    """

    return sync_detailed(
        project_id=project_id,
        endpoint_id=endpoint_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedWebhookEndpointPatchInputRequest | Unset = UNSET,
) -> Response[Error | WebhookEndpointOutput]:
    """Change the URL, events, description or active flag (turning it on clears the
    reason the server turned it off).

    Args:
        project_id (int):
        endpoint_id (int):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookEndpointOutput]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        endpoint_id=endpoint_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedWebhookEndpointPatchInputRequest | Unset = UNSET,
) -> Error | WebhookEndpointOutput | None:
    """Change the URL, events, description or active flag (turning it on clears the
    reason the server turned it off).

    Args:
        project_id (int):
        endpoint_id (int):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):
        body (PatchedWebhookEndpointPatchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookEndpointOutput
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            endpoint_id=endpoint_id,
            client=client,
            body=body,
        )
    ).parsed
