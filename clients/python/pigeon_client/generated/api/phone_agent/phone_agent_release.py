from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_released import DataBodyReleased
from ...models.error_body import ErrorBody
from ...models.release_body import ReleaseBody
from ...types import Response


def _get_kwargs(
    *,
    body: ReleaseBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/phone/v1/leases/release",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyReleased | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DataBodyReleased.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

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
) -> Response[DataBodyReleased | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ReleaseBody,
) -> Response[DataBodyReleased | ErrorBody]:
    """The agent says which messages it still holds; every other lease of its phone goes back to the
    queue at once. An agent calls it when it starts, and after a poll whose answer it lost, so a
    job answered to a poll it never read does not wait out its 60 s lease.

    Args:
        body (ReleaseBody): Body of `POST /phone/v1/leases/release`: the messages the agent still
            holds. Every other lease
            of its phone goes back to the queue at once (jobs answered to a poll the agent never
            read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyReleased | ErrorBody]
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
    client: AuthenticatedClient,
    body: ReleaseBody,
) -> DataBodyReleased | ErrorBody | None:
    """The agent says which messages it still holds; every other lease of its phone goes back to the
    queue at once. An agent calls it when it starts, and after a poll whose answer it lost, so a
    job answered to a poll it never read does not wait out its 60 s lease.

    Args:
        body (ReleaseBody): Body of `POST /phone/v1/leases/release`: the messages the agent still
            holds. Every other lease
            of its phone goes back to the queue at once (jobs answered to a poll the agent never
            read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyReleased | ErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ReleaseBody,
) -> Response[DataBodyReleased | ErrorBody]:
    """The agent says which messages it still holds; every other lease of its phone goes back to the
    queue at once. An agent calls it when it starts, and after a poll whose answer it lost, so a
    job answered to a poll it never read does not wait out its 60 s lease.

    Args:
        body (ReleaseBody): Body of `POST /phone/v1/leases/release`: the messages the agent still
            holds. Every other lease
            of its phone goes back to the queue at once (jobs answered to a poll the agent never
            read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyReleased | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ReleaseBody,
) -> DataBodyReleased | ErrorBody | None:
    """The agent says which messages it still holds; every other lease of its phone goes back to the
    queue at once. An agent calls it when it starts, and after a poll whose answer it lost, so a
    job answered to a poll it never read does not wait out its 60 s lease.

    Args:
        body (ReleaseBody): Body of `POST /phone/v1/leases/release`: the messages the agent still
            holds. Every other lease
            of its phone goes back to the queue at once (jobs answered to a poll the agent never
            read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyReleased | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
