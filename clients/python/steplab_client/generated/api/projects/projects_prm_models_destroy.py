from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    project_id: int,
    model_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/projects/{project_id}/prm-models/{model_id}/".format(
            project_id=quote(str(project_id), safe=""),
            model_id=quote(str(model_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: int,
    model_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Any | Error]:
    """Unregister a model (project admins), freeing its place under COLLECTION_CAPS['prm_models']. A 409
    while an unfinished auto-label run scores with it or a training run starts from it. The suggestions
    it wrote stay (each names its agent); its files stay where they are (registering stores a path, not
    a copy).

    Args:
        project_id (int):
        model_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        model_id=model_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: int,
    model_id: int,
    *,
    client: AuthenticatedClient,
) -> Any | Error | None:
    """Unregister a model (project admins), freeing its place under COLLECTION_CAPS['prm_models']. A 409
    while an unfinished auto-label run scores with it or a training run starts from it. The suggestions
    it wrote stay (each names its agent); its files stay where they are (registering stores a path, not
    a copy).

    Args:
        project_id (int):
        model_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return sync_detailed(
        project_id=project_id,
        model_id=model_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    model_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Any | Error]:
    """Unregister a model (project admins), freeing its place under COLLECTION_CAPS['prm_models']. A 409
    while an unfinished auto-label run scores with it or a training run starts from it. The suggestions
    it wrote stay (each names its agent); its files stay where they are (registering stores a path, not
    a copy).

    Args:
        project_id (int):
        model_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        model_id=model_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    model_id: int,
    *,
    client: AuthenticatedClient,
) -> Any | Error | None:
    """Unregister a model (project admins), freeing its place under COLLECTION_CAPS['prm_models']. A 409
    while an unfinished auto-label run scores with it or a training run starts from it. The suggestions
    it wrote stay (each names its agent); its files stay where they are (registering stores a path, not
    a copy).

    Args:
        project_id (int):
        model_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            model_id=model_id,
            client=client,
        )
    ).parsed
