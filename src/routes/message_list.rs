//! `GET /v1/messages`: the message list, its order and filters, and the one rule for a phone
//! filter that is not E.164.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Direction, Environment, MessageRecord, MessageStatus};
use pigeon_actors::Engine;
use serde::Deserialize;

use super::messages::MessageView;
use super::{page as list_page, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{Page, Tenant};

/// Filters of the message list.
#[derive(Deserialize)]
pub struct Filters {
    status: Option<String>,
    to: Option<String>,
    from: Option<String>,
    direction: Option<String>,
    order: Option<String>,
    created_after: Option<String>,
    created_before: Option<String>,
    campaign_id: Option<String>,
}

/// A filter's value that must be E.164; anything else (an unencoded `+` arrives as a space) is
/// refused naming the parameter, on every route alike.
pub fn phone_filter(name: &str, v: &str) -> Result<PhoneNumber, ApiError> {
    PhoneNumber::parse(v).ok_or_else(|| {
        ApiError::InvalidPhoneNumber(format!(
            "{name}: {v:?} is not E.164: + then 10 to 15 digits (encode + as %2B)"
        ))
    })
}

fn time_filter(name: &str, v: Option<String>) -> Result<Option<DateTime<Utc>>, ApiError> {
    v.map(|v| {
        DateTime::parse_from_rfc3339(&v)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|_| ApiError::Validation(format!("{name}: not an RFC 3339 time")))
    })
    .transpose()
}

/// Messages oldest first (`order=desc`: newest first), filtered by `status`, `to`, `from`,
/// `direction`, `campaign_id` and the creation time.
#[utoipa::path(get, path = "/v1/messages", tag = "messages", security(("api_key" = [])),
    params(("status" = Option<String>, Query, description = "one status"),
        ("to" = Option<String>, Query, description = "recipient (E.164)"),
        ("from" = Option<String>, Query, description = "sender: the tenant's phone, or an inbound text's sender (E.164)"),
        ("direction" = Option<String>, Query, description = "outbound or inbound"),
        ("campaign_id" = Option<String>, Query, description = "a campaign's messages"),
        ("created_after" = Option<String>, Query, description = "accepted after this time (RFC 3339)"),
        ("created_before" = Option<String>, Query, description = "accepted before this time (RFC 3339)"),
        ("order" = Option<String>, Query, description = "asc (default: oldest first) or desc"),
        ("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<MessageView>), (status = 400, body = ErrorBody)))]
pub async fn list(
    tenant: Tenant,
    engine: web::Data<Engine>,
    page: Result<Page, ApiError>,
    filters: web::Query<Filters>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let f = filters.into_inner();
    let status: Option<MessageStatus> = f
        .status
        .map(|s| serde_json::from_value(serde_json::Value::String(s)))
        .transpose()
        .map_err(|_| ApiError::Validation("status: not a message status".into()))?;
    let direction: Option<Direction> = f
        .direction
        .map(|s| serde_json::from_value(serde_json::Value::String(s)))
        .transpose()
        .map_err(|_| ApiError::Validation("direction: must be outbound or inbound".into()))?;
    let to = f.to.map(|v| phone_filter("to", &v).map(|p| p.as_str().to_owned())).transpose()?;
    let from = f.from.map(|v| phone_filter("from", &v).map(|p| p.as_str().to_owned())).transpose()?;
    let campaign = f
        .campaign_id
        .map(|c| {
            c.parse::<ulid::Ulid>().map_err(|_| ApiError::Validation("campaign_id: not a campaign id".into()))
        })
        .transpose()?;
    let after_t = time_filter("created_after", f.created_after)?;
    let before_t = time_filter("created_before", f.created_before)?;
    let newest_first = match f.order.as_deref() {
        None | Some("asc") => false,
        Some("desc") => true,
        Some(_) => return Err(ApiError::Validation("order: must be asc or desc".into())),
    };
    // A key sees only its own mode's messages.
    let test = tenant.environment == Environment::Test;
    let keep = |m: &MessageRecord| {
        m.test == test
            && status.is_none_or(|s| m.status == s)
            && direction.is_none_or(|d| m.direction == d)
            && to.as_deref().is_none_or(|t| m.to == t)
            && from.as_deref().is_none_or(|t| m.from.as_deref() == Some(t))
            && campaign.is_none_or(|c| m.campaign_id == Some(c))
            && after_t.is_none_or(|t| m.created_at > t)
            && before_t.is_none_or(|t| m.created_at < t)
    };
    let reads = engine.reads(tenant.id);
    let (items, stopped_at) = if newest_first {
        reads.messages_newest(page.after, page.limit + 1, keep)?
    } else {
        reads.messages(page.after, page.limit + 1, keep)?
    };
    let items: Vec<MessageView> = items.into_iter().map(|m| MessageView::of(m, &engine)).collect();
    match stopped_at {
        // The read limit cut the scan short: a short page (maybe empty) and where to go on.
        Some(at) => Ok(HttpResponse::Ok().json(ListBody { data: items, next_cursor: Some(at.to_string()) })),
        None => Ok(list_page(items, page.limit, |m| m.message_id.parse().unwrap_or_default())),
    }
}
