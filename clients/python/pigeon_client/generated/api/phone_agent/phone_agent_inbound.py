from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_message_view import DataBodyMessageView
from ...models.error_body import ErrorBody
from ...models.inbound_body import InboundBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: InboundBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/phone/v1/inbound",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyMessageView | ErrorBody | None:
    if response.status_code == 201:
        response_201 = DataBodyMessageView.from_dict(response.json())

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
) -> Response[DataBodyMessageView | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: InboundBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[DataBodyMessageView | ErrorBody]:
    """A text the phone received. Recorded as an inbound message; opt-out keywords apply at once.
    With an `Idempotency-Key` (the agent's id for the text), a repeat within 24 h answers the first
    record and records nothing, so an agent may retry after a crash without a duplicate.

    Args:
        idempotency_key (str | Unset):
        body (InboundBody): Body of an inbound text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyMessageView | ErrorBody]
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
    body: InboundBody,
    idempotency_key: str | Unset = UNSET,
) -> DataBodyMessageView | ErrorBody | None:
    """A text the phone received. Recorded as an inbound message; opt-out keywords apply at once.
    With an `Idempotency-Key` (the agent's id for the text), a repeat within 24 h answers the first
    record and records nothing, so an agent may retry after a crash without a duplicate.

    Args:
        idempotency_key (str | Unset):
        body (InboundBody): Body of an inbound text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyMessageView | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: InboundBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[DataBodyMessageView | ErrorBody]:
    """A text the phone received. Recorded as an inbound message; opt-out keywords apply at once.
    With an `Idempotency-Key` (the agent's id for the text), a repeat within 24 h answers the first
    record and records nothing, so an agent may retry after a crash without a duplicate.

    Args:
        idempotency_key (str | Unset):
        body (InboundBody): Body of an inbound text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyMessageView | ErrorBody]
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
    body: InboundBody,
    idempotency_key: str | Unset = UNSET,
) -> DataBodyMessageView | ErrorBody | None:
    """A text the phone received. Recorded as an inbound message; opt-out keywords apply at once.
    With an `Idempotency-Key` (the agent's id for the text), a repeat within 24 h answers the first
    record and records nothing, so an agent may retry after a crash without a duplicate.

    Args:
        idempotency_key (str | Unset):
        body (InboundBody): Body of an inbound text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyMessageView | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
