from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.list_body_message_view import ListBodyMessageView
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: str | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    direction: str | Unset = UNSET,
    campaign_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    order: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["status"] = status

    params["to"] = to

    params["from"] = from_

    params["direction"] = direction

    params["campaign_id"] = campaign_id

    params["created_after"] = created_after

    params["created_before"] = created_before

    params["order"] = order

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/messages",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ListBodyMessageView | None:
    if response.status_code == 200:
        response_200 = ListBodyMessageView.from_dict(response.json())

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
) -> Response[ErrorBody | ListBodyMessageView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    direction: str | Unset = UNSET,
    campaign_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    order: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> Response[ErrorBody | ListBodyMessageView]:
    """Messages oldest first (`order=desc`: newest first), filtered by `status`, `to`, `from`,
    `direction`, `campaign_id` and the creation time.

    Args:
        status (str | Unset):
        to (str | Unset):
        from_ (str | Unset):
        direction (str | Unset):
        campaign_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        order (str | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListBodyMessageView]
    """

    kwargs = _get_kwargs(
        status=status,
        to=to,
        from_=from_,
        direction=direction,
        campaign_id=campaign_id,
        created_after=created_after,
        created_before=created_before,
        order=order,
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    direction: str | Unset = UNSET,
    campaign_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    order: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> ErrorBody | ListBodyMessageView | None:
    """Messages oldest first (`order=desc`: newest first), filtered by `status`, `to`, `from`,
    `direction`, `campaign_id` and the creation time.

    Args:
        status (str | Unset):
        to (str | Unset):
        from_ (str | Unset):
        direction (str | Unset):
        campaign_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        order (str | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListBodyMessageView
    """

    return sync_detailed(
        client=client,
        status=status,
        to=to,
        from_=from_,
        direction=direction,
        campaign_id=campaign_id,
        created_after=created_after,
        created_before=created_before,
        order=order,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    direction: str | Unset = UNSET,
    campaign_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    order: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> Response[ErrorBody | ListBodyMessageView]:
    """Messages oldest first (`order=desc`: newest first), filtered by `status`, `to`, `from`,
    `direction`, `campaign_id` and the creation time.

    Args:
        status (str | Unset):
        to (str | Unset):
        from_ (str | Unset):
        direction (str | Unset):
        campaign_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        order (str | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListBodyMessageView]
    """

    kwargs = _get_kwargs(
        status=status,
        to=to,
        from_=from_,
        direction=direction,
        campaign_id=campaign_id,
        created_after=created_after,
        created_before=created_before,
        order=order,
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    direction: str | Unset = UNSET,
    campaign_id: str | Unset = UNSET,
    created_after: str | Unset = UNSET,
    created_before: str | Unset = UNSET,
    order: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> ErrorBody | ListBodyMessageView | None:
    """Messages oldest first (`order=desc`: newest first), filtered by `status`, `to`, `from`,
    `direction`, `campaign_id` and the creation time.

    Args:
        status (str | Unset):
        to (str | Unset):
        from_ (str | Unset):
        direction (str | Unset):
        campaign_id (str | Unset):
        created_after (str | Unset):
        created_before (str | Unset):
        order (str | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListBodyMessageView
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            to=to,
            from_=from_,
            direction=direction,
            campaign_id=campaign_id,
            created_after=created_after,
            created_before=created_before,
            order=order,
            limit=limit,
            after=after,
        )
    ).parsed
