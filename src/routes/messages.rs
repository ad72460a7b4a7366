//! `/v1/messages` and `/v1/phones`: sending, reading and cancelling messages; the tenant's phones.

use actix_web::http::StatusCode;
use actix_web::{web, HttpMessage, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Channel, Direction, Environment, MessageRecord, MessageStatus};
use pigeon_actors::{Engine, SendRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{reply, DataBody, ErrorBody};
use crate::error::ApiError;
use crate::extract::{bearer_str, parse_id, Json, Tenant};

/// Most characters in a message body.
pub const MAX_BODY_CHARS: usize = 10_000;

/// The channels a send may ask for.
#[derive(Deserialize, ToSchema, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
pub enum RequestedChannel {
    /// iMessage when the number is known to have it, else SMS.
    #[default]
    Auto,
    /// iMessage.
    Imessage,
    /// SMS, even when the number has iMessage.
    Sms,
}

impl From<RequestedChannel> for Channel {
    fn from(c: RequestedChannel) -> Self {
        match c {
            RequestedChannel::Auto => Channel::Auto,
            RequestedChannel::Imessage => Channel::Imessage,
            RequestedChannel::Sms => Channel::Sms,
        }
    }
}

/// Most entries in a message's `metadata`.
const MAX_METADATA: usize = 20;
/// Longest `metadata` key, in characters.
const MAX_METADATA_KEY: usize = 40;
/// Longest `metadata` value, in characters.
const MAX_METADATA_VALUE: usize = 500;

/// Shortest and longest `valid_for`, seconds (three days).
const VALID_FOR: std::ops::RangeInclusive<u32> = 10..=259_200;

/// Checks `valid_for`: whole seconds, 10 to 259,200.
pub(crate) fn check_valid_for(given: Option<u32>) -> Result<Option<u32>, ApiError> {
    match given {
        Some(s) if !VALID_FOR.contains(&s) => Err(ApiError::Validation(format!(
            "valid_for: must be {} to {} seconds, got {s}",
            VALID_FOR.start(),
            VALID_FOR.end()
        ))),
        given => Ok(given),
    }
}

/// Checks `metadata`: at most 20 string values, keys of 1–40 characters of `[A-Za-z0-9_.-]`,
/// values of at most 500 characters.
pub(crate) fn parse_metadata(
    given: Option<serde_json::Map<String, serde_json::Value>>,
) -> Result<std::collections::BTreeMap<String, String>, ApiError> {
    let given = given.unwrap_or_default();
    if given.len() > MAX_METADATA {
        return Err(ApiError::Validation(format!(
            "metadata: at most {MAX_METADATA} keys, got {}",
            given.len()
        )));
    }
    given
        .into_iter()
        .map(|(k, v)| {
            let key_ok = (1..=MAX_METADATA_KEY).contains(&k.chars().count())
                && k.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
            if !key_ok {
                return Err(ApiError::Validation(format!(
                    "metadata: key {k:?} must be 1 to {MAX_METADATA_KEY} of A-Z, a-z, 0-9, _ . -"
                )));
            }
            match v {
                serde_json::Value::String(s) if s.chars().count() <= MAX_METADATA_VALUE => Ok((k, s)),
                serde_json::Value::String(_) => Err(ApiError::Validation(format!(
                    "metadata: {k:?} must be at most {MAX_METADATA_VALUE} characters"
                ))),
                _ => Err(ApiError::Validation(format!("metadata: {k:?} must be a string"))),
            }
        })
        .collect()
}

/// Body of `POST /v1/messages`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendBody {
    /// Recipient, E.164: `+` then 10 to 15 digits.
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub to: String,
    /// `auto` (default), `imessage`, or `sms` (SMS even when the number has iMessage).
    #[serde(default)]
    pub channel: RequestedChannel,
    /// One of the tenant's phones (E.164): the message goes through it only.
    #[serde(default)]
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub from: Option<String>,
    /// Up to 20 string values of the tenant's own (keys 1–40 of `[A-Za-z0-9_.-]`, values up to
    /// 500 characters), echoed in the record and every event about the message.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
    /// Seconds (10–259,200) a phone may still take the message after it is accepted; past
    /// them it fails with `error_code: EXPIRED` and never reaches a phone.
    #[serde(default)]
    #[schema(minimum = 10, maximum = 259200)]
    pub valid_for: Option<u32>,
    /// Text, 1–10,000 characters. At most one of `body` and `template`; one of them or `media`.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 10000)]
    pub body: Option<String>,
    /// 1–10 attachments, in the order they go out: ids from `POST /v1/media`, or
    /// `{"url": "https://…"}` for a file the node fetches before it answers.
    #[serde(default)]
    #[schema(min_items = 1, max_items = 10)]
    pub media: Option<Vec<super::send_media::MediaItem>>,
    /// A template's name or id; its `{{ variables }}` come from `data`, then the recipient
    /// contact's attributes.
    #[serde(default)]
    pub template: Option<String>,
    /// Template values (strings, numbers or booleans).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub data: Option<serde_json::Map<String, serde_json::Value>>,
    /// Send later: an RFC 3339 time in the future, at most 30 days ahead.
    #[serde(default)]
    pub send_at: Option<String>,
}

/// The 202 of a send.
#[derive(Serialize, ToSchema)]
pub struct Accepted {
    /// Message id (ULID).
    pub message_id: String,
    /// `queued`.
    pub status: &'static str,
    /// Recipient.
    pub to: String,
    /// Requested channel.
    #[schema(value_type = String)]
    pub channel: Channel,
    /// Acceptance time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// When it will go out, if held (quiet hours or `send_at`).
    #[serde(with = "pigeon_actors::storage::ts::option", skip_serializing_if = "Option::is_none")]
    pub scheduled_at: Option<DateTime<Utc>>,
    /// `QUIET_HOURS` when quiet hours moved it (not an error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// Most days ahead a send may be scheduled.
const MAX_SCHEDULE_DAYS: i64 = 30;

/// Parses `send_at`: RFC 3339, in the future, at most 30 days ahead. A leap second (`:60`) is
/// refused: chrono would take it, but it would come back as a time no one sent.
fn parse_send_at(s: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, ApiError> {
    use chrono::Timelike;
    let invalid =
        || ApiError::Validation("send_at: must be an RFC 3339 time, e.g. 2026-11-23T09:00:00Z".into());
    let at = DateTime::parse_from_rfc3339(s).map_err(|_| invalid())?.with_timezone(&Utc);
    if at.nanosecond() >= 1_000_000_000 {
        return Err(invalid());
    }
    if at <= now || at > now + chrono::Duration::days(MAX_SCHEDULE_DAYS) {
        return Err(ApiError::Validation(format!(
            "send_at: must be in the future and at most {MAX_SCHEDULE_DAYS} days ahead"
        )));
    }
    Ok(pigeon_actors::storage::ts::truncate(at))
}

/// A message record.
#[derive(Serialize, ToSchema)]
pub struct MessageView {
    /// Message id.
    pub message_id: String,
    /// `outbound` or `inbound`.
    #[schema(value_type = String)]
    pub direction: Direction,
    /// `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `cancelled` or (inbound) `received`.
    #[schema(value_type = String)]
    pub status: MessageStatus,
    /// Recipient (outbound) or the tenant's phone (inbound).
    pub to: String,
    /// The tenant's phone (outbound, once chosen) or the sender (inbound).
    pub from: Option<String>,
    /// Requested channel.
    #[schema(value_type = String)]
    pub channel: Channel,
    /// Channel the phone used.
    #[schema(value_type = Option<String>)]
    pub channel_used: Option<Channel>,
    /// Text; `null` for a media-only message.
    pub body: Option<String>,
    /// Attachments with signed links good for 7 days (`[]` when none).
    pub media: Vec<super::media::AttachmentView>,
    /// Template used.
    pub template: Option<String>,
    /// Campaign.
    pub campaign_id: Option<String>,
    /// Sent with a test key.
    pub test: bool,
    /// Acceptance time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// Held until.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub scheduled_at: Option<DateTime<Utc>>,
    /// Sent by the phone.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub sent_at: Option<DateTime<Utc>>,
    /// Delivered.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub delivered_at: Option<DateTime<Utc>>,
    /// Read by the recipient (a read receipt).
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub read_at: Option<DateTime<Utc>>,
    /// Failed.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub failed_at: Option<DateTime<Utc>>,
    /// Carrier-level detail of a failure.
    pub failure_reason: Option<String>,
    /// Stable code of a failure (`DELIVERY_FAILED`, `RECIPIENT_OPTED_OUT`, `NO_PHONE_AVAILABLE`).
    pub error_code: Option<String>,
    /// The tenant's own values given at the send (`{}` when none).
    #[schema(value_type = Object)]
    pub metadata: std::collections::BTreeMap<String, String>,
    /// When a message no phone has taken fails `EXPIRED` (`created_at` + `valid_for`).
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub expires_at: Option<DateTime<Utc>>,
    /// The inbound message this one answers: the node's reply to a STOP, START or HELP.
    pub reply_to: Option<String>,
}

impl MessageView {
    /// The view of `m`, its attachments' links signed now.
    pub fn of(m: MessageRecord, engine: &Engine) -> Self {
        let media = super::media::attachments(&m.media, engine);
        let body = m.text().map(str::to_owned);
        Self {
            media,
            body,
            message_id: m.id.to_string(),
            direction: m.direction,
            status: m.status,
            to: m.to,
            from: m.from,
            channel: m.channel,
            channel_used: m.channel_used,
            template: m.template,
            campaign_id: m.campaign_id.map(|c| c.to_string()),
            test: m.test,
            created_at: m.created_at,
            scheduled_at: m.scheduled_at,
            sent_at: m.sent_at,
            delivered_at: m.delivered_at,
            read_at: m.read_at,
            failed_at: m.failed_at,
            failure_reason: m.failure_reason,
            error_code: m.error_code,
            metadata: m.metadata,
            expires_at: m.expires_at,
            reply_to: m.reply_to.map(|r| r.to_string()),
        }
    }
}

/// Checks a send body (`VALIDATION_ERROR` first, then `INVALID_PHONE_NUMBER`), then renders the
/// template if there is one (`INVALID_TEMPLATE`, `MISSING_TEMPLATE_VAR`).
/// `test` is left false: admission sets it from the key's record.
fn validate(
    engine: &Engine,
    tenant: ulid::Ulid,
    b: SendBody,
    idempotency_key: Option<String>,
) -> Result<(SendRequest, super::send_media::ToFetch), ApiError> {
    match (&b.body, &b.template) {
        (Some(_), Some(_)) => {
            return Err(ApiError::Validation("body: give either body or template, not both".into()))
        }
        (None, None) if b.media.is_none() => {
            return Err(ApiError::Validation("body: required (or a template, or media)".into()))
        }
        (None, None) if b.data.is_some() => {
            return Err(ApiError::Validation("data: only with a template".into()))
        }
        (None, None) => {}
        (Some(body), None) => {
            let chars = body.chars().count();
            if chars == 0 || chars > MAX_BODY_CHARS {
                return Err(ApiError::Validation(format!(
                    "body: must be 1 to {MAX_BODY_CHARS} characters, got {chars}"
                )));
            }
            if b.data.is_some() {
                return Err(ApiError::Validation("data: only with a template".into()));
            }
        }
        (None, Some(_)) => {}
    }
    let from = b
        .from
        .as_deref()
        .map(|f| {
            PhoneNumber::parse(f).ok_or_else(|| {
                ApiError::Validation(format!("from: {f:?} is not E.164: it must be + then 10 to 15 digits"))
            })
        })
        .transpose()?;
    let metadata = parse_metadata(b.metadata)?;
    let valid_for = check_valid_for(b.valid_for)?;
    let to = PhoneNumber::parse(&b.to).ok_or_else(|| {
        ApiError::InvalidPhoneNumber(format!(
            "to: {:?} is not E.164: it must be + then 10 to 15 digits",
            b.to
        ))
    })?;
    let channel = b.channel.into();
    let send_at = b.send_at.as_deref().map(|s| parse_send_at(s, engine.clock().now())).transpose()?;
    let wanted = b.media.map(super::send_media::check_items).transpose()?;
    let (body, template) = match (b.body, b.template) {
        (Some(body), _) => (body, None),
        (None, Some(t)) => {
            let data = b.data.unwrap_or_default();
            let (text, name) = engine.reads(tenant).render(&t, &data, &to)?;
            (text, Some(name))
        }
        (None, None) => (String::new(), None),
    };
    // After the template, before the idempotency key (DESIGN "Attachments"); URLs are fetched
    // once all of this holds.
    let (media, urls) = super::send_media::resolve_ids(engine, tenant, wanted.unwrap_or_default())?;
    let req = SendRequest {
        to,
        channel,
        body,
        test: false,
        idempotency_key,
        template,
        send_at,
        campaign_id: None,
        from,
        metadata,
        valid_for,
        media,
    };
    Ok((req, urls))
}

/// The `Idempotency-Key` header: 1–255 visible ASCII characters.
pub(crate) fn idempotency_key(req: &actix_web::HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(v) = req.headers().get("idempotency-key") else { return Ok(None) };
    let s =
        v.to_str().ok().filter(|s| (1..=255).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_graphic()));
    s.map(|s| Some(s.to_owned())).ok_or_else(|| {
        ApiError::Validation("Idempotency-Key: must be 1 to 255 visible ASCII characters".into())
    })
}

/// Sends a text: 202 once it is on disk; a phone takes it from there. With an `Idempotency-Key`
/// header, a repeat of the same request within 24 h answers the first 202 and sends nothing.
#[utoipa::path(post, path = "/v1/messages", tag = "messages", security(("api_key" = [])),
    params(("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 255, pattern = "^[!-~]+$",
        description = "Makes a retry safe: a repeat of the same request within 24 h answers the first 202")),
    request_body = SendBody,
    responses((status = 202, body = DataBody<Accepted>),
        (status = 400, description = "VALIDATION_ERROR, INVALID_PHONE_NUMBER, INVALID_TEMPLATE, MISSING_TEMPLATE_VAR, INVALID_MEDIA, RECIPIENT_OPTED_OUT", body = ErrorBody),
        (status = 409, description = "IDEMPOTENCY_KEY_REUSED", body = ErrorBody),
        (status = 429, description = "RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED, NEW_CONTACT_LIMIT", body = ErrorBody),
        (status = 503, description = "NO_PHONE_AVAILABLE: every phone is offline or at its daily limit; OVERLOADED: the node is taking all the sends it can (with `Retry-After`: retry with backoff)", body = ErrorBody)))]
pub async fn send(
    mut admitted: crate::server::overload::Admitted,
    engine: web::Data<Engine>,
    media: web::Data<super::media::MediaSettings>,
    http: actix_web::HttpRequest,
    body: Result<Json<SendBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    // Auth first (the gate found an API key's tenant already); the body is validated here but
    // answered only after admission (DESIGN "check order"), which runs with the send in one
    // turn of the tenant's actor.
    let key = match admitted.key.take() {
        Some(found) => found?,
        None => engine.locate(bearer_str(&http).ok_or(ApiError::InvalidApiKey)?).await?,
    };
    crate::edge::Caller::mark(&http, key.tenant_id);
    // The body is in: from here to the answer the send holds a place (`overload.rs`).
    let _slot = admitted.hold();
    let valid = crate::extract::query_refused(&http).and(body).and_then(|Json(body)| {
        let idem = idempotency_key(&http)?;
        validate(&engine, key.tenant_id, body, idem)
    });
    let valid = match valid {
        Ok((mut req, urls)) if !urls.is_empty() => {
            // Admitted and charged before anything is fetched: a key that may not send, or one
            // over its rate, makes the node fetch nothing.
            let (rate, admitted) = engine.admit_send(&key).await;
            if let Some(rate) = rate {
                http.extensions_mut().insert(rate);
            }
            admitted?;
            super::send_media::fetch_into(&engine, &media, &mut req.media, key.tenant_id, urls).await?;
            return Ok(accepted(engine.send_admitted(key, req).await?));
        }
        v => v.map(|(req, _)| req),
    };
    let (req, invalid) = match valid {
        Ok(req) => (Some(req), None),
        Err(e) => (None, Some(e)),
    };
    let (rate, sent) = engine.send_with_key(key, req).await;
    if let Some(rate) = rate {
        http.extensions_mut().insert(rate);
    }
    let Some(m) = sent? else { return Err(invalid.unwrap_or(ApiError::Internal)) };
    Ok(accepted(m))
}

/// The 202 of an accepted send.
fn accepted(m: MessageRecord) -> HttpResponse {
    reply(
        StatusCode::ACCEPTED,
        Accepted {
            message_id: m.id.to_string(),
            status: "queued",
            to: m.to,
            channel: m.channel,
            created_at: m.created_at,
            scheduled_at: m.scheduled_at,
            notice: m.notice,
        },
    )
}

/// One message with everything known of it.
#[utoipa::path(get, path = "/v1/messages/{id}", tag = "messages", security(("api_key" = [])),
    params(("id" = String, Path, description = "message id")),
    responses((status = 200, body = DataBody<MessageView>), (status = 404, body = ErrorBody)))]
pub async fn get(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let m = own_mode(&tenant, engine.reads(tenant.id).message(parse_id(&id, "message")?)?)?;
    Ok(reply(StatusCode::OK, MessageView::of(m, &engine)))
}

/// Test mode is walled off: a key sees only its own mode's messages; another mode's answers
/// 404 as another tenant's would.
pub fn own_mode(tenant: &Tenant, m: MessageRecord) -> Result<MessageRecord, ApiError> {
    if m.test == (tenant.environment == Environment::Test) {
        Ok(m)
    } else {
        Err(ApiError::NotFound("No such message.".into()))
    }
}

/// Cancels a message no phone has taken yet.
#[utoipa::path(delete, path = "/v1/messages/{id}", tag = "messages", security(("api_key" = [])),
    params(("id" = String, Path, description = "message id")),
    responses((status = 200, body = DataBody<MessageView>), (status = 404, body = ErrorBody),
        (status = 409, description = "INVALID_STATUS_TRANSITION: no longer queued", body = ErrorBody)))]
pub async fn cancel(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "message")?;
    // Whether a message is a test one never changes: checked before, it holds at the cancel.
    own_mode(&tenant, engine.reads(tenant.id).message(id)?)?;
    let m = tenant.handle.cancel(id).await?;
    Ok(reply(StatusCode::OK, MessageView::of(m, &engine)))
}

/// A phone as its tenant sees it.
#[derive(Serialize, ToSchema)]
pub struct TenantPhone {
    /// Phone id.
    pub id: String,
    /// E.164 number.
    pub number: String,
    /// Online now.
    pub online: bool,
    /// Chosen for sends only when true.
    pub enabled: bool,
    /// Why the phone disabled itself, in plain English; null otherwise.
    pub disabled_reason: Option<String>,
    /// Messages assigned today (UTC).
    pub sent_today: u32,
    /// Messages allowed per UTC day.
    pub daily_limit: u32,
}

/// The tenant's phones.
#[utoipa::path(get, path = "/v1/phones", operation_id = "list_phones", tag = "messages", security(("api_key" = [])),
    responses((status = 200, body = DataBody<Vec<TenantPhone>>)))]
pub async fn phones(tenant: Tenant) -> Result<HttpResponse, ApiError> {
    let v: Vec<TenantPhone> = tenant
        .handle
        .phones()
        .await?
        .into_iter()
        .map(|p| TenantPhone {
            id: p.record.id.to_string(),
            number: p.record.number,
            online: p.online,
            enabled: p.record.enabled,
            disabled_reason: p.record.disabled_reason,
            sent_today: p.sent_today,
            daily_limit: p.record.daily_limit,
        })
        .collect();
    Ok(reply(StatusCode::OK, v))
}

/// Body of `POST /v1/detect`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectBody {
    /// E.164 number.
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub phone: String,
}

/// Whether a number has iMessage.
#[derive(Serialize, ToSchema)]
pub struct DetectionView {
    /// The number.
    pub phone: String,
    /// Has iMessage.
    pub imessage: bool,
    /// When a phone checked it.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub checked_at: DateTime<Utc>,
    /// Answered from the 7-day cache.
    pub cached: bool,
}

/// Asks one of the tenant's online phones whether a number has iMessage (cached 7 days); 503
/// `DETECTION_UNAVAILABLE` when no phone can answer within 10 s.
#[utoipa::path(post, path = "/v1/detect", tag = "messages", security(("api_key" = [])),
    request_body = DetectBody,
    responses((status = 200, body = DataBody<DetectionView>), (status = 400, body = ErrorBody),
        (status = 503, description = "DETECTION_UNAVAILABLE", body = ErrorBody)))]
pub async fn detect(
    tenant: Tenant,
    body: Result<Json<DetectBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let number = PhoneNumber::parse(&b.phone).ok_or_else(|| {
        ApiError::InvalidPhoneNumber(format!("phone: {:?} is not E.164: + then 10 to 15 digits", b.phone))
    })?;
    let test = tenant.environment == Environment::Test;
    let d = tenant.handle.detect(number, test).await?;
    Ok(reply(
        StatusCode::OK,
        DetectionView { phone: d.phone, imessage: d.imessage, checked_at: d.checked_at, cached: d.cached },
    ))
}
