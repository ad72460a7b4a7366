//! `/v1/webhooks`: endpoints, their delivery log, and manual retries.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::storage::model::{Attempt, DeliveryRecord, DeliveryState, WebhookRecord};
use pigeon_actors::webhook::EVENTS;
use pigeon_actors::Engine;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{page as list_page, reply, DataBody, Deleted, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{parse_id, Json, Page, Tenant};

/// Body of `POST /v1/webhooks`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWebhook {
    /// Absolute `http(s)` URL that receives events.
    pub url: String,
    /// Non-empty subset of `message.delivered`, `message.failed`, `message.received`,
    /// `message.sent`, `message.read`, `phone.offline`, `phone.online`, `phone.disabled`.
    #[schema(min_items = 1)]
    pub events: Vec<String>,
    /// Signing secret, 16–256 visible ASCII characters; generated (`whsec_…`) when omitted.
    #[serde(default)]
    #[schema(min_length = 16, max_length = 256, pattern = "^[!-~]+$")]
    pub secret: Option<String>,
}

/// A webhook as registered: the only answer that shows the secret.
#[derive(Serialize, ToSchema)]
pub struct WebhookCreated {
    /// Webhook id.
    pub id: String,
    /// Endpoint.
    pub url: String,
    /// Subscribed events.
    pub events: Vec<String>,
    /// Signing secret.
    pub secret: String,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
}

/// A webhook's new secret, shown once: the answer of a rotation.
#[derive(Serialize, ToSchema)]
pub struct SecretRotated {
    /// Webhook id.
    pub id: String,
    /// The new signing secret (`whsec_…`): `x-service-signature` uses it from now on.
    pub secret: String,
    /// Until when attempts are signed with the previous secret too (in `webhook-signature`).
    #[serde(with = "pigeon_actors::storage::ts")]
    pub previous_secret_expires_at: DateTime<Utc>,
}

/// A test event on its way.
#[derive(Serialize, ToSchema)]
pub struct TestSent {
    /// The delivery: see it in `GET /v1/webhooks/{id}/deliveries`.
    pub delivery_id: String,
    /// The event's id (`webhook-id`).
    pub event_id: String,
    /// `webhook.test`.
    pub event: String,
}

/// Body of `PATCH /v1/webhooks/{id}`: any of these.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchWebhook {
    /// A new endpoint (the same rules as at registration).
    #[serde(default)]
    pub url: Option<String>,
    /// A new non-empty set of events.
    #[serde(default)]
    #[schema(min_items = 1)]
    pub events: Option<Vec<String>>,
    /// Off: no deliveries, and the pending ones stop; on again: the events that follow.
    #[serde(default)]
    pub enabled: Option<bool>,
}

/// Body of `POST /v1/webhooks/{id}/recover`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecoverBody {
    /// Deliveries that failed at or after this time (RFC 3339).
    #[serde(with = "pigeon_actors::storage::ts")]
    #[schema(value_type = String, format = DateTime)]
    pub since: DateTime<Utc>,
    /// ...and at or before this one (default: now).
    #[serde(default, with = "pigeon_actors::storage::ts::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub until: Option<DateTime<Utc>>,
}

/// What a recovery started.
#[derive(Serialize, ToSchema)]
pub struct Recovering {
    /// Deliveries started again.
    pub recovering: usize,
}

/// A webhook as listed.
#[derive(Serialize, ToSchema)]
pub struct WebhookItem {
    /// Webhook id.
    pub id: String,
    /// Endpoint.
    pub url: String,
    /// Subscribed events.
    pub events: Vec<String>,
    /// Whether it gets deliveries.
    pub enabled: bool,
    /// `...` and the secret's last four characters.
    pub secret_hint: String,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
}

impl From<WebhookRecord> for WebhookItem {
    fn from(w: WebhookRecord) -> Self {
        Self {
            id: w.id.to_string(),
            secret_hint: pigeon_actors::credentials::hint(&w.secret),
            url: w.url,
            events: w.events,
            enabled: w.enabled,
            created_at: w.created_at,
        }
    }
}

/// One HTTP attempt.
#[derive(Serialize, ToSchema)]
pub struct AttemptView {
    /// Start time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub at: DateTime<Utc>,
    /// Retry cycle (0; one more per manual retry).
    pub cycle: u32,
    /// HTTP status, when one came back.
    pub status_code: Option<u16>,
    /// Else why: `timeout`, `connect`, `dns`, `tls`, `refused_private_address`, `request`.
    pub error: Option<String>,
    /// Milliseconds to the answer or the error.
    pub duration_ms: u64,
    /// First 200 characters of the answer.
    pub response_snippet: Option<String>,
}

impl From<Attempt> for AttemptView {
    fn from(a: Attempt) -> Self {
        Self {
            at: a.at,
            cycle: a.cycle,
            status_code: a.status_code,
            error: a.error,
            duration_ms: a.duration_ms,
            response_snippet: a.response_snippet,
        }
    }
}

/// One event to one webhook.
#[derive(Serialize, ToSchema)]
pub struct DeliveryView {
    /// Delivery id.
    pub id: String,
    /// The event (stable across retries; the same for every webhook that got it).
    pub event_id: String,
    /// Event name.
    pub event: String,
    /// `pending`, `succeeded` or `failed`.
    #[schema(value_type = String)]
    pub state: DeliveryState,
    /// Current retry cycle.
    pub cycle: u32,
    /// Every attempt, oldest first.
    pub attempts: Vec<AttemptView>,
    /// When the next attempt is due (pending only).
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// Event time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// The payload sent (and signed).
    #[schema(value_type = Object)]
    pub payload: serde_json::Value,
}

impl From<DeliveryRecord> for DeliveryView {
    fn from(d: DeliveryRecord) -> Self {
        Self {
            id: d.id.to_string(),
            event_id: d.event_id.to_string(),
            event: d.event,
            state: d.state,
            cycle: d.cycle,
            attempts: d.attempts.into_iter().map(AttemptView::from).collect(),
            next_attempt_at: d.next_attempt_at,
            created_at: d.created_at,
            payload: serde_json::from_str(&d.payload).unwrap_or(serde_json::Value::Null),
        }
    }
}

/// Registers an endpoint. At most 10 per tenant. Unless the operator allows private networks, a
/// URL whose host is or resolves to a private, loopback or link-local address is refused.
#[utoipa::path(post, path = "/v1/webhooks", tag = "webhooks", security(("api_key" = [])),
    request_body = CreateWebhook,
    responses((status = 201, body = DataBody<WebhookCreated>), (status = 400, body = ErrorBody)))]
pub async fn create(
    tenant: Tenant,
    engine: web::Data<Engine>,
    body: Result<Json<CreateWebhook>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let events = check_events(b.events)?;
    if let Some(s) = &b.secret {
        if !(16..=256).contains(&s.len()) || !s.bytes().all(|c| c.is_ascii_graphic()) {
            return Err(ApiError::Validation("secret: must be 16 to 256 visible ASCII characters".into()));
        }
    }
    engine.check_webhook_url(&b.url).await?;
    let w = tenant.handle.create_webhook(b.url, events, b.secret).await?;
    Ok(reply(
        StatusCode::CREATED,
        WebhookCreated {
            id: w.id.to_string(),
            url: w.url,
            events: w.events,
            secret: w.secret,
            created_at: w.created_at,
        },
    ))
}

/// A non-empty set of known events, each once, in the order given.
fn check_events(given: Vec<String>) -> Result<Vec<String>, ApiError> {
    if given.is_empty() {
        return Err(ApiError::Validation("events: name at least one event".into()));
    }
    let mut events = Vec::new();
    for e in given {
        if !EVENTS.contains(&e.as_str()) {
            return Err(ApiError::Validation(format!(
                "events: unknown event {e:?}; known: {}",
                EVENTS.join(", ")
            )));
        }
        if !events.contains(&e) {
            events.push(e);
        }
    }
    Ok(events)
}

/// One webhook (the list's fields); another account's answers 404.
#[utoipa::path(get, path = "/v1/webhooks/{id}", operation_id = "get_webhook", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id")),
    responses((status = 200, body = DataBody<WebhookItem>), (status = 404, body = ErrorBody)))]
pub async fn get(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let w = find_webhook(&tenant, &id).await?;
    Ok(reply(StatusCode::OK, WebhookItem::from(w)))
}

/// Changes a webhook's `url`, `events` or `enabled`; the secret stays. Turned off, it gets no
/// deliveries and its pending ones end `failed` (`error: webhook_disabled`, so `recover` can bring
/// them back); on again, it gets the events that follow.
#[utoipa::path(patch, path = "/v1/webhooks/{id}", operation_id = "update_webhook", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id")), request_body = PatchWebhook,
    responses((status = 200, body = DataBody<WebhookItem>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn patch(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
    body: Result<Json<PatchWebhook>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = own_webhook(&tenant, &id).await?;
    let Json(b) = body?;
    let events = b.events.map(check_events).transpose()?;
    if let Some(url) = &b.url {
        engine.check_webhook_url(url).await?;
    }
    let w = tenant.handle.patch_webhook(id, b.url, events, b.enabled).await?;
    Ok(reply(StatusCode::OK, WebhookItem::from(w)))
}

/// Starts a new cycle, as a manual retry does, for each delivery whose cycle ended `failed`
/// between `since` and `until` (default now), by the time of its last attempt. Pending ones are
/// skipped, so asking twice adds nothing.
#[utoipa::path(post, path = "/v1/webhooks/{id}/recover", operation_id = "recover_webhook", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id")), request_body = RecoverBody,
    responses((status = 202, body = DataBody<Recovering>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "INVALID_STATUS_TRANSITION: the webhook is turned off", body = ErrorBody)))]
pub async fn recover(
    tenant: Tenant,
    id: web::Path<String>,
    body: Result<Json<RecoverBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = own_webhook(&tenant, &id).await?;
    let Json(b) = body?;
    if b.until.is_some_and(|u| u < b.since) {
        return Err(ApiError::Validation("until: must not be before since".into()));
    }
    let n = tenant.handle.recover_webhook(id, b.since, b.until).await?;
    Ok(reply(StatusCode::ACCEPTED, Recovering { recovering: n }))
}

/// The tenant's webhooks, oldest first; secrets only as `secret_hint`.
#[utoipa::path(get, path = "/v1/webhooks", tag = "webhooks", security(("api_key" = [])),
    params(("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<WebhookItem>)))]
pub async fn list(tenant: Tenant, page: Result<Page, ApiError>) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let items: Vec<WebhookItem> = tenant
        .handle
        .webhooks()
        .await?
        .into_iter()
        .filter(|w| page.after.is_none_or(|a| w.id > a))
        .take(page.limit + 1)
        .map(WebhookItem::from)
        .collect();
    Ok(list_page(items, page.limit, |w| w.id.parse().unwrap_or_default()))
}

/// Deletes a webhook; its pending deliveries stop.
#[utoipa::path(delete, path = "/v1/webhooks/{id}", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id")),
    responses((status = 200, body = DataBody<Deleted>), (status = 404, body = ErrorBody)))]
pub async fn delete(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "webhook")?;
    tenant.handle.delete_webhook(id).await?;
    Ok(reply(StatusCode::OK, Deleted { id: id.to_string(), deleted: true }))
}

async fn own_webhook(tenant: &Tenant, id: &str) -> Result<ulid::Ulid, ApiError> {
    Ok(find_webhook(tenant, id).await?.id)
}

async fn find_webhook(tenant: &Tenant, id: &str) -> Result<WebhookRecord, ApiError> {
    let id = parse_id(id, "webhook")?;
    let found = tenant.handle.webhooks().await?.into_iter().find(|w| w.id == id);
    found.ok_or_else(|| ApiError::NotFound("No such webhook.".into()))
}

/// The webhook's delivery log, oldest first: each delivery with every attempt.
#[utoipa::path(get, path = "/v1/webhooks/{id}/deliveries", operation_id = "list_deliveries", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id"),
        ("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<DeliveryView>), (status = 404, body = ErrorBody)))]
pub async fn deliveries(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
    page: Result<Page, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let webhook = own_webhook(&tenant, &id).await?;
    let items = engine.reads(tenant.id).deliveries(webhook, page.after, page.limit + 1)?;
    let items: Vec<DeliveryView> = items.into_iter().map(DeliveryView::from).collect();
    Ok(list_page(items, page.limit, |d| d.id.parse().unwrap_or_default()))
}

/// Starts a new cycle of attempts (0, +2, +4, +8 s) for a finished delivery.
#[utoipa::path(post, path = "/v1/webhooks/{id}/deliveries/{delivery_id}/retry", operation_id = "retry_delivery", tag = "webhooks",
    security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id"), ("delivery_id" = String, Path, description = "delivery id")),
    responses((status = 202, body = DataBody<DeliveryView>), (status = 404, body = ErrorBody),
        (status = 409, description = "INVALID_STATUS_TRANSITION: still pending", body = ErrorBody)))]
pub async fn retry(tenant: Tenant, path: web::Path<(String, String)>) -> Result<HttpResponse, ApiError> {
    let (id, delivery) = path.into_inner();
    let webhook = own_webhook(&tenant, &id).await?;
    let delivery = parse_id(&delivery, "delivery")?;
    let d = tenant.handle.retry_delivery(webhook, delivery).await?;
    Ok(reply(StatusCode::ACCEPTED, DeliveryView::from(d)))
}

/// Replaces the webhook's secret with a generated one, shown once. For 24 hours every attempt is
/// signed with both (`webhook-signature` carries both `v1,` entries; `x-service-signature` uses the
/// new one), so receivers can switch without missing an event; then the old one is dropped.
#[utoipa::path(post, path = "/v1/webhooks/{id}/rotate-secret", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id")),
    responses((status = 200, body = DataBody<SecretRotated>), (status = 404, body = ErrorBody)))]
pub async fn rotate_secret(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = own_webhook(&tenant, &id).await?;
    let w = tenant.handle.rotate_webhook_secret(id).await?;
    let until = w.previous_until.ok_or(ApiError::Internal)?;
    Ok(reply(
        StatusCode::OK,
        SecretRotated { id: w.id.to_string(), secret: w.secret, previous_secret_expires_at: until },
    ))
}

/// Sends a signed `webhook.test` event through the normal delivery path (retries, log), so a
/// receiver can be checked before the first real text.
#[utoipa::path(post, path = "/v1/webhooks/{id}/test", operation_id = "send_test_event", tag = "webhooks", security(("api_key" = [])),
    params(("id" = String, Path, description = "webhook id")),
    responses((status = 202, body = DataBody<TestSent>), (status = 404, body = ErrorBody)))]
pub async fn test(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = own_webhook(&tenant, &id).await?;
    let d = tenant.handle.send_test_event(id).await?;
    Ok(reply(
        StatusCode::ACCEPTED,
        TestSent { delivery_id: d.id.to_string(), event_id: d.event_id.to_string(), event: d.event },
    ))
}
