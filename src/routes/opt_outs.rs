//! `/v1/opt-outs`: the numbers the tenant may not message: those that texted STOP, and those the
//! tenant recorded itself (an opt-out it got on another channel).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{OptOutRecord, OptOutVia};
use pigeon_actors::Engine;
use serde::{Deserialize, Serialize};
use ulid::Ulid;
use utoipa::ToSchema;

use super::message_list::phone_filter;
use super::{page as list_page, reply, DataBody, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{Json, Page, Tenant};

/// A number opted out of the tenant.
#[derive(Serialize, ToSchema)]
pub struct OptOutView {
    /// E.164 number.
    pub phone: String,
    /// When it opted out (null for one recorded before opt-outs kept their time).
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub opted_out_at: Option<DateTime<Utc>>,
    /// `keyword` (it texted STOP or a synonym) or `api` (`POST /v1/opt-outs`).
    #[schema(value_type = String, example = "keyword")]
    pub via: OptOutVia,
    /// The keyword as matched, upper-cased; null for `api`.
    pub keyword: Option<String>,
}

impl From<OptOutRecord> for OptOutView {
    fn from(r: OptOutRecord) -> Self {
        Self { phone: r.phone, opted_out_at: r.opted_out_at, via: r.via, keyword: r.keyword }
    }
}

/// Body of `POST /v1/opt-outs`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateOptOut {
    /// E.164 number.
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub phone: String,
}

/// Answer of `DELETE /v1/opt-outs/{phone}`.
#[derive(Serialize, ToSchema)]
pub struct OptOutRemoved {
    /// The number, which may be messaged again.
    pub phone: String,
    /// Always true.
    pub deleted: bool,
}

/// The list's cursor for a number: its digits as a 128-bit id, so the list pages with the
/// same `after` as every other (an E.164 number has at most 15 digits).
fn cursor(phone: &str) -> Ulid {
    Ulid(phone.trim_start_matches('+').parse().unwrap_or_default())
}

/// The number a cursor stands for; a cursor this list did not give is refused.
fn after_number(after: Option<Ulid>) -> Result<Option<PhoneNumber>, ApiError> {
    after
        .map(|c| {
            PhoneNumber::parse(&format!("+{}", c.0))
                .ok_or_else(|| ApiError::Validation("after: not a cursor this API gave".into()))
        })
        .transpose()
}

/// The numbers opted out, in number order.
#[utoipa::path(get, path = "/v1/opt-outs", tag = "opt-outs", security(("api_key" = [])),
    params(("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<OptOutView>), (status = 400, body = ErrorBody)))]
pub async fn list(
    tenant: Tenant,
    engine: web::Data<Engine>,
    page: Result<Page, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let after = after_number(page.after)?;
    let items: Vec<OptOutView> = engine
        .reads(tenant.id)
        .opt_outs(after.as_ref(), page.limit + 1)?
        .into_iter()
        .map(OptOutView::from)
        .collect();
    Ok(list_page(items, page.limit, |o| cursor(&o.phone)))
}

/// Records an opt-out the tenant got elsewhere: 201, or 200 with the existing record when the
/// number is already opted out (however it was).
#[utoipa::path(post, path = "/v1/opt-outs", tag = "opt-outs", security(("api_key" = [])),
    request_body = CreateOptOut,
    responses((status = 201, body = DataBody<OptOutView>),
        (status = 200, description = "already opted out: the existing record", body = DataBody<OptOutView>),
        (status = 400, body = ErrorBody)))]
pub async fn create(
    tenant: Tenant,
    body: Result<Json<CreateOptOut>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let (r, new) = tenant.handle.add_opt_out(phone_filter("phone", &b.phone)?).await?;
    let status = if new { StatusCode::CREATED } else { StatusCode::OK };
    Ok(reply(status, OptOutView::from(r)))
}

/// Removes an opt-out the tenant recorded; one the recipient made by keyword needs its START
/// (409 `INVALID_STATUS_TRANSITION`).
#[utoipa::path(delete, path = "/v1/opt-outs/{phone}", tag = "opt-outs", security(("api_key" = [])),
    params(("phone" = String, Path, description = "E.164 number (`+` as is or `%2B`)")),
    responses((status = 200, body = DataBody<OptOutRemoved>), (status = 400, body = ErrorBody),
        (status = 404, description = "NOT_FOUND: the number is not opted out", body = ErrorBody),
        (status = 409, description = "INVALID_STATUS_TRANSITION: opted out by keyword", body = ErrorBody)))]
pub async fn delete(tenant: Tenant, phone: web::Path<String>) -> Result<HttpResponse, ApiError> {
    // actix keeps `%2B` encoded in a path segment (a `+` there is literal).
    let raw = phone.replacen("%2B", "+", 1).replacen("%2b", "+", 1);
    let r = tenant.handle.remove_opt_out(phone_filter("phone", &raw)?).await?;
    Ok(reply(StatusCode::OK, OptOutRemoved { phone: r.phone, deleted: true }))
}
