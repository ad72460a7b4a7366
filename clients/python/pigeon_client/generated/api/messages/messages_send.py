from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_accepted import DataBodyAccepted
from ...models.error_body import ErrorBody
from ...models.send_body import SendBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: SendBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/messages",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyAccepted | ErrorBody | None:
    if response.status_code == 202:
        response_202 = DataBodyAccepted.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

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
) -> Response[DataBodyAccepted | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SendBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[DataBodyAccepted | ErrorBody]:
    """Sends a text: 202 once it is on disk; a phone takes it from there. With an `Idempotency-Key`
    header, a repeat of the same request within 24 h answers the first 202 and sends nothing.

    Args:
        idempotency_key (str | Unset):
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyAccepted | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: SendBody,
    idempotency_key: str | Unset = UNSET,
) -> DataBodyAccepted | ErrorBody | None:
    """Sends a text: 202 once it is on disk; a phone takes it from there. With an `Idempotency-Key`
    header, a repeat of the same request within 24 h answers the first 202 and sends nothing.

    Args:
        idempotency_key (str | Unset):
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyAccepted | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SendBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[DataBodyAccepted | ErrorBody]:
    """Sends a text: 202 once it is on disk; a phone takes it from there. With an `Idempotency-Key`
    header, a repeat of the same request within 24 h answers the first 202 and sends nothing.

    Args:
        idempotency_key (str | Unset):
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyAccepted | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SendBody,
    idempotency_key: str | Unset = UNSET,
) -> DataBodyAccepted | ErrorBody | None:
    """Sends a text: 202 once it is on disk; a phone takes it from there. With an `Idempotency-Key`
    header, a repeat of the same request within 24 h answers the first 202 and sends nothing.

    Args:
        idempotency_key (str | Unset):
        body (SendBody): Body of `POST /v1/messages`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyAccepted | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
