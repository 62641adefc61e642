from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.exports_list_export_format import ExportsListExportFormat
from ...models.exports_list_status import ExportsListStatus
from ...models.paginated_exports import PaginatedExports
from ...types import UNSET, Response, Unset


def _get_kwargs(
    project_id: int,
    *,
    export_format: ExportsListExportFormat | Unset = UNSET,
    status: ExportsListStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_export_format: str | Unset = UNSET
    if not isinstance(export_format, Unset):
        json_export_format = export_format.value

    params["export_format"] = json_export_format

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/projects/{project_id}/exports/".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedExports | None:
    if response.status_code == 200:
        response_200 = PaginatedExports.from_dict(response.json())

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
) -> Response[Error | PaginatedExports]:
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
    export_format: ExportsListExportFormat | Unset = UNSET,
    status: ExportsListStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[Error | PaginatedExports]:
    """The project's exports, newest first; `export_format` and `status` keep those only
    (the training tab asks for the finished TRL ones).

    Args:
        project_id (int):
        export_format (ExportsListExportFormat | Unset):
        status (ExportsListStatus | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedExports]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        export_format=export_format,
        status=status,
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
    export_format: ExportsListExportFormat | Unset = UNSET,
    status: ExportsListStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Error | PaginatedExports | None:
    """The project's exports, newest first; `export_format` and `status` keep those only
    (the training tab asks for the finished TRL ones).

    Args:
        project_id (int):
        export_format (ExportsListExportFormat | Unset):
        status (ExportsListStatus | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedExports
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        export_format=export_format,
        status=status,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    *,
    client: AuthenticatedClient,
    export_format: ExportsListExportFormat | Unset = UNSET,
    status: ExportsListStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Response[Error | PaginatedExports]:
    """The project's exports, newest first; `export_format` and `status` keep those only
    (the training tab asks for the finished TRL ones).

    Args:
        project_id (int):
        export_format (ExportsListExportFormat | Unset):
        status (ExportsListStatus | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedExports]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        export_format=export_format,
        status=status,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    *,
    client: AuthenticatedClient,
    export_format: ExportsListExportFormat | Unset = UNSET,
    status: ExportsListStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
) -> Error | PaginatedExports | None:
    """The project's exports, newest first; `export_format` and `status` keep those only
    (the training tab asks for the finished TRL ones).

    Args:
        project_id (int):
        export_format (ExportsListExportFormat | Unset):
        status (ExportsListStatus | Unset):
        limit (int | Unset):
        offset (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedExports
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            export_format=export_format,
            status=status,
            limit=limit,
            offset=offset,
        )
    ).parsed
