from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_status import DataBodyStatus
from ...models.error_body import ErrorBody
from ...models.send_body import SendBody
from ...types import Response


def _get_kwargs(
    *,
    body: SendBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/bench/noop",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyStatus | ErrorBody | None:
    if response.status_code == 202:
        response_202 = DataBodyStatus.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DataBodyStatus | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SendBody,
) -> Response[DataBodyStatus | ErrorBody]:
    """The load harness's baseline: parses the same JSON as `POST /v1/messages` and answers 202,
    touching no actor and no store. 404 unless the server runs with `--bench-routes`.

    Args:
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyStatus | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: SendBody,
) -> DataBodyStatus | ErrorBody | None:
    """The load harness's baseline: parses the same JSON as `POST /v1/messages` and answers 202,
    touching no actor and no store. 404 unless the server runs with `--bench-routes`.

    Args:
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyStatus | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SendBody,
) -> Response[DataBodyStatus | ErrorBody]:
    """The load harness's baseline: parses the same JSON as `POST /v1/messages` and answers 202,
    touching no actor and no store. 404 unless the server runs with `--bench-routes`.

    Args:
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyStatus | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SendBody,
) -> DataBodyStatus | ErrorBody | None:
    """The load harness's baseline: parses the same JSON as `POST /v1/messages` and answers 202,
    touching no actor and no store. 404 unless the server runs with `--bench-routes`.

    Args:
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyStatus | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
