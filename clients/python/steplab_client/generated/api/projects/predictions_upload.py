from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.predictions_result_output import PredictionsResultOutput
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    project_id: int,
    *,
    body: File | Unset = UNSET,
    filename: str | Unset = "upload",
    name: str | Unset = "",
    version: str | Unset = "",
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["filename"] = filename

    params["name"] = name

    params["version"] = version

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/projects/{project_id}/predictions/".format(
            project_id=quote(str(project_id), safe=""),
        ),
        "params": params,
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_tuple()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PredictionsResultOutput | None:
    if response.status_code == 200:
        response_200 = PredictionsResultOutput.from_dict(response.json())

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
) -> Response[Error | PredictionsResultOutput]:
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
    body: File | Unset = UNSET,
    filename: str | Unset = "upload",
    name: str | Unset = "",
    version: str | Unset = "",
) -> Response[Error | PredictionsResultOutput]:
    """Store machine step labels on the project's solutions (by their external id): JSON
    Lines (application/x-ndjson, may be gzipped) or a JSON array (application/json).
    All or nothing; the same upload again updates in place.

    Args:
        project_id (int):
        filename (str | Unset):  Default: 'upload'.
        name (str | Unset):  Default: ''.
        version (str | Unset):  Default: ''.
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PredictionsResultOutput]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
        filename=filename,
        name=name,
        version=version,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: int,
    *,
    client: AuthenticatedClient,
    body: File | Unset = UNSET,
    filename: str | Unset = "upload",
    name: str | Unset = "",
    version: str | Unset = "",
) -> Error | PredictionsResultOutput | None:
    """Store machine step labels on the project's solutions (by their external id): JSON
    Lines (application/x-ndjson, may be gzipped) or a JSON array (application/json).
    All or nothing; the same upload again updates in place.

    Args:
        project_id (int):
        filename (str | Unset):  Default: 'upload'.
        name (str | Unset):  Default: ''.
        version (str | Unset):  Default: ''.
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PredictionsResultOutput
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        body=body,
        filename=filename,
        name=name,
        version=version,
    ).parsed


async def asyncio_detailed(
    project_id: int,
    *,
    client: AuthenticatedClient,
    body: File | Unset = UNSET,
    filename: str | Unset = "upload",
    name: str | Unset = "",
    version: str | Unset = "",
) -> Response[Error | PredictionsResultOutput]:
    """Store machine step labels on the project's solutions (by their external id): JSON
    Lines (application/x-ndjson, may be gzipped) or a JSON array (application/json).
    All or nothing; the same upload again updates in place.

    Args:
        project_id (int):
        filename (str | Unset):  Default: 'upload'.
        name (str | Unset):  Default: ''.
        version (str | Unset):  Default: ''.
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PredictionsResultOutput]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
        filename=filename,
        name=name,
        version=version,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: int,
    *,
    client: AuthenticatedClient,
    body: File | Unset = UNSET,
    filename: str | Unset = "upload",
    name: str | Unset = "",
    version: str | Unset = "",
) -> Error | PredictionsResultOutput | None:
    """Store machine step labels on the project's solutions (by their external id): JSON
    Lines (application/x-ndjson, may be gzipped) or a JSON array (application/json).
    All or nothing; the same upload again updates in place.

    Args:
        project_id (int):
        filename (str | Unset):  Default: 'upload'.
        name (str | Unset):  Default: ''.
        version (str | Unset):  Default: ''.
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PredictionsResultOutput
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            body=body,
            filename=filename,
            name=name,
            version=version,
        )
    ).parsed
