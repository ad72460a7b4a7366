from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_vec_job_view import DataBodyVecJobView
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/phone/v1/jobs",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyVecJobView | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DataBodyVecJobView.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

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
) -> Response[DataBodyVecJobView | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Response[DataBodyVecJobView | ErrorBody]:
    """Long poll for work: leased jobs at once, or the first to arrive within `wait` seconds (≤ 30).
    Polling keeps the phone online.

    Args:
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyVecJobView | ErrorBody]
    """

    kwargs = _get_kwargs(
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> DataBodyVecJobView | ErrorBody | None:
    """Long poll for work: leased jobs at once, or the first to arrive within `wait` seconds (≤ 30).
    Polling keeps the phone online.

    Args:
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyVecJobView | ErrorBody
    """

    return sync_detailed(
        client=client,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Response[DataBodyVecJobView | ErrorBody]:
    """Long poll for work: leased jobs at once, or the first to arrive within `wait` seconds (≤ 30).
    Polling keeps the phone online.

    Args:
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyVecJobView | ErrorBody]
    """

    kwargs = _get_kwargs(
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> DataBodyVecJobView | ErrorBody | None:
    """Long poll for work: leased jobs at once, or the first to arrive within `wait` seconds (≤ 30).
    Polling keeps the phone online.

    Args:
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyVecJobView | ErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            wait=wait,
        )
    ).parsed
