from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_media_uploaded import DataBodyMediaUploaded
from ...models.error_body import ErrorBody
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    body: File,
    filename: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["filename"] = filename

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/phone/v1/media",
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyMediaUploaded | ErrorBody | None:
    if response.status_code == 201:
        response_201 = DataBodyMediaUploaded.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 500:
        response_500 = ErrorBody.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DataBodyMediaUploaded | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: File,
    filename: str | Unset = UNSET,
) -> Response[DataBodyMediaUploaded | ErrorBody]:
    """A file the phone received, to name in `POST /phone/v1/inbound`: the body is its bytes,
    `Content-Type` its type, under the same rules as a tenant's upload.

    Args:
        filename (str | Unset):
        body (File): A file's bytes, as the OpenAPI document describes them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyMediaUploaded | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        filename=filename,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: File,
    filename: str | Unset = UNSET,
) -> DataBodyMediaUploaded | ErrorBody | None:
    """A file the phone received, to name in `POST /phone/v1/inbound`: the body is its bytes,
    `Content-Type` its type, under the same rules as a tenant's upload.

    Args:
        filename (str | Unset):
        body (File): A file's bytes, as the OpenAPI document describes them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyMediaUploaded | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        filename=filename,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: File,
    filename: str | Unset = UNSET,
) -> Response[DataBodyMediaUploaded | ErrorBody]:
    """A file the phone received, to name in `POST /phone/v1/inbound`: the body is its bytes,
    `Content-Type` its type, under the same rules as a tenant's upload.

    Args:
        filename (str | Unset):
        body (File): A file's bytes, as the OpenAPI document describes them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyMediaUploaded | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        filename=filename,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: File,
    filename: str | Unset = UNSET,
) -> DataBodyMediaUploaded | ErrorBody | None:
    """A file the phone received, to name in `POST /phone/v1/inbound`: the body is its bytes,
    `Content-Type` its type, under the same rules as a tenant's upload.

    Args:
        filename (str | Unset):
        body (File): A file's bytes, as the OpenAPI document describes them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyMediaUploaded | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            filename=filename,
        )
    ).parsed
