from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.events_body import EventsBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: str | Unset = UNSET,
    types: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["after"] = after

    params["types"] = types

    params["limit"] = limit

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | EventsBody | None:
    if response.status_code == 200:
        response_200 = EventsBody.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 410:
        response_410 = ErrorBody.from_dict(response.json())

        return response_410

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
) -> Response[ErrorBody | EventsBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    types: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Response[ErrorBody | EventsBody]:
    """The tenant's events in the order they became durable, each the JSON a webhook gets. With
    `Accept: text/event-stream`, the same as server-sent events (`id:` the cursor), resumable
    with `Last-Event-ID`.

    Args:
        after (str | Unset):
        types (str | Unset):
        limit (int | Unset):
        wait (int | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EventsBody]
    """

    kwargs = _get_kwargs(
        after=after,
        types=types,
        limit=limit,
        wait=wait,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    types: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> ErrorBody | EventsBody | None:
    """The tenant's events in the order they became durable, each the JSON a webhook gets. With
    `Accept: text/event-stream`, the same as server-sent events (`id:` the cursor), resumable
    with `Last-Event-ID`.

    Args:
        after (str | Unset):
        types (str | Unset):
        limit (int | Unset):
        wait (int | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EventsBody
    """

    return sync_detailed(
        client=client,
        after=after,
        types=types,
        limit=limit,
        wait=wait,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    types: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> Response[ErrorBody | EventsBody]:
    """The tenant's events in the order they became durable, each the JSON a webhook gets. With
    `Accept: text/event-stream`, the same as server-sent events (`id:` the cursor), resumable
    with `Last-Event-ID`.

    Args:
        after (str | Unset):
        types (str | Unset):
        limit (int | Unset):
        wait (int | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EventsBody]
    """

    kwargs = _get_kwargs(
        after=after,
        types=types,
        limit=limit,
        wait=wait,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    types: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    last_event_id: None | str | Unset = UNSET,
) -> ErrorBody | EventsBody | None:
    """The tenant's events in the order they became durable, each the JSON a webhook gets. With
    `Accept: text/event-stream`, the same as server-sent events (`id:` the cursor), resumable
    with `Last-Event-ID`.

    Args:
        after (str | Unset):
        types (str | Unset):
        limit (int | Unset):
        wait (int | Unset):
        last_event_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EventsBody
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            types=types,
            limit=limit,
            wait=wait,
            last_event_id=last_event_id,
        )
    ).parsed
