from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.data_body_opt_out_removed import DataBodyOptOutRemoved
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    phone: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/opt-outs/{phone}".format(
            phone=quote(str(phone), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DataBodyOptOutRemoved | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DataBodyOptOutRemoved.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

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
) -> Response[DataBodyOptOutRemoved | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    phone: str,
    *,
    client: AuthenticatedClient,
) -> Response[DataBodyOptOutRemoved | ErrorBody]:
    """Removes an opt-out the tenant recorded; one the recipient made by keyword needs its START
    (409 `INVALID_STATUS_TRANSITION`).

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyOptOutRemoved | ErrorBody]
    """

    kwargs = _get_kwargs(
        phone=phone,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    phone: str,
    *,
    client: AuthenticatedClient,
) -> DataBodyOptOutRemoved | ErrorBody | None:
    """Removes an opt-out the tenant recorded; one the recipient made by keyword needs its START
    (409 `INVALID_STATUS_TRANSITION`).

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyOptOutRemoved | ErrorBody
    """

    return sync_detailed(
        phone=phone,
        client=client,
    ).parsed


async def asyncio_detailed(
    phone: str,
    *,
    client: AuthenticatedClient,
) -> Response[DataBodyOptOutRemoved | ErrorBody]:
    """Removes an opt-out the tenant recorded; one the recipient made by keyword needs its START
    (409 `INVALID_STATUS_TRANSITION`).

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DataBodyOptOutRemoved | ErrorBody]
    """

    kwargs = _get_kwargs(
        phone=phone,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    phone: str,
    *,
    client: AuthenticatedClient,
) -> DataBodyOptOutRemoved | ErrorBody | None:
    """Removes an opt-out the tenant recorded; one the recipient made by keyword needs its START
    (409 `INVALID_STATUS_TRANSITION`).

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DataBodyOptOutRemoved | ErrorBody
    """

    return (
        await asyncio_detailed(
            phone=phone,
            client=client,
        )
    ).parsed
