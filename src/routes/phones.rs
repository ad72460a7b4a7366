//! Phones: the operator's `/admin/v1/phones` and the agent's `/phone/v1/` pull protocol.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Channel, MessageStatus, PhoneDriver, SimSettings};
use pigeon_actors::{Engine, PhoneView};
use pigeon_protocol::{
    AgentPhone, DetectionAck, DetectionAnswer, FailureScope, InboundBody, JobView, ReleaseBody, Released,
    ReportedStatus, StatusBody, UsedChannel,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::messages::MessageView;
use super::{reply, DataBody, Deleted, ErrorBody};
use crate::error::ApiError;
use crate::extract::{parse_id, Admin, Agent, Json};

/// Sim behaviour.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SimBody {
    /// Milliseconds from hand-over to delivery (default 50, at most 60,000).
    #[serde(default = "default_latency")]
    #[schema(maximum = 60000)]
    pub latency_ms: u64,
    /// Share of messages that fail, 0–1 (default 0).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1)]
    pub failure_rate: f64,
    /// Milliseconds from delivery to the recipient reading it (at most 86,400,000); unset, the
    /// sim's messages are never read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 86400000)]
    pub read_after_ms: Option<u64>,
}

fn default_latency() -> u64 {
    50
}

/// Body of `POST /admin/v1/phones`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePhone {
    /// Owner.
    pub tenant_id: String,
    /// E.164 number.
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub number: String,
    /// Messages per UTC day (default 300).
    #[serde(default = "default_daily")]
    pub daily_limit: u32,
    /// `agent` or `sim`.
    #[schema(value_type = String, example = "sim")]
    pub driver: PhoneDriver,
    /// Sim settings (sim phones only).
    #[serde(default, deserialize_with = "super::object")]
    pub sim: Option<SimBody>,
}

fn default_daily() -> u32 {
    300
}

/// A phone as the operator sees it.
#[derive(Serialize, ToSchema)]
pub struct OperatorPhone {
    /// Phone id.
    pub id: String,
    /// Owner.
    pub tenant_id: String,
    /// E.164 number.
    pub number: String,
    /// `agent` or `sim`.
    #[schema(value_type = String)]
    pub driver: PhoneDriver,
    /// Messages per UTC day.
    pub daily_limit: u32,
    /// Messages assigned today.
    pub sent_today: u32,
    /// Chosen for sends only when true.
    pub enabled: bool,
    /// Why the phone disabled itself (phone-scoped failures in a row), in plain English; null
    /// otherwise, and once the operator enables it again.
    pub disabled_reason: Option<String>,
    /// Online now (sim: the switch; agent: polled in the last 30 s).
    pub online: bool,
    /// An agent's last call (null for a sim, or an agent not heard from yet).
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub last_poll_at: Option<DateTime<Utc>>,
    /// What the agent says it is, from its `User-Agent` (`pigeon-agent/0.1.0`), since the node
    /// started; null until it calls.
    pub agent: Option<String>,
    /// Sim settings (null for agents).
    pub sim: Option<SimBody>,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// The agent's token (`svc_agent_…`), in the create answer only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_token: Option<String>,
}

impl OperatorPhone {
    fn new(p: PhoneView, agent_token: Option<String>) -> Self {
        let r = p.record;
        Self {
            id: r.id.to_string(),
            tenant_id: r.tenant_id.to_string(),
            number: r.number,
            driver: r.driver,
            daily_limit: r.daily_limit,
            sent_today: p.sent_today,
            enabled: r.enabled,
            disabled_reason: r.disabled_reason,
            online: p.online,
            last_poll_at: p.last_poll_at,
            agent: p.agent,
            sim: (r.driver == PhoneDriver::Sim).then_some(SimBody {
                latency_ms: r.sim.latency_ms,
                failure_rate: r.sim.failure_rate,
                read_after_ms: r.sim.read_after_ms,
            }),
            created_at: r.created_at,
            agent_token,
        }
    }
}

fn check_sim(s: &SimBody) -> Result<SimSettings, ApiError> {
    if !(0.0..=1.0).contains(&s.failure_rate) {
        return Err(ApiError::Validation("sim.failure_rate: must be from 0 to 1".into()));
    }
    if s.latency_ms > 60_000 {
        return Err(ApiError::Validation("sim.latency_ms: must be at most 60000".into()));
    }
    if s.read_after_ms.is_some_and(|ms| ms > 86_400_000) {
        return Err(ApiError::Validation("sim.read_after_ms: must be at most 86400000".into()));
    }
    Ok(SimSettings { latency_ms: s.latency_ms, failure_rate: s.failure_rate, read_after_ms: s.read_after_ms })
}

/// Adds a phone to a tenant. Agent phones get a token, shown once.
#[utoipa::path(post, path = "/admin/v1/phones", operation_id = "create_phone", tag = "operator", security(("admin_token" = [])),
    request_body = CreatePhone,
    responses((status = 201, body = DataBody<OperatorPhone>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn create(
    Admin(engine): Admin,
    body: Result<Json<CreatePhone>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let tenant = engine.tenant(parse_id(&b.tenant_id, "tenant")?)?;
    let number = PhoneNumber::parse(&b.number).ok_or_else(|| {
        ApiError::InvalidPhoneNumber(format!("number: {:?} is not E.164: + then 10 to 15 digits", b.number))
    })?;
    let sim = match (&b.sim, b.driver) {
        (Some(_), PhoneDriver::Agent) => {
            return Err(ApiError::Validation("sim: only sim phones take sim settings".into()))
        }
        (Some(s), PhoneDriver::Sim) => check_sim(s)?,
        (None, _) => SimSettings::default(),
    };
    let (view, token) = tenant.add_phone(number, b.daily_limit, b.driver, sim).await?;
    Ok(reply(StatusCode::CREATED, OperatorPhone::new(view, token)))
}

/// Query of the operator's phone list.
#[derive(Deserialize)]
pub struct PhoneQuery {
    tenant_id: Option<String>,
}

/// A tenant's phones.
#[utoipa::path(get, path = "/admin/v1/phones", operation_id = "list_phones", tag = "operator", security(("admin_token" = [])),
    params(("tenant_id" = String, Query, description = "the tenant")),
    responses((status = 200, body = DataBody<Vec<OperatorPhone>>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "NOT_FOUND: no such tenant")))]
pub async fn list(Admin(engine): Admin, q: web::Query<PhoneQuery>) -> Result<HttpResponse, ApiError> {
    let id = q.tenant_id.as_deref().ok_or_else(|| ApiError::Validation("tenant_id: required".into()))?;
    let phones = engine.tenant(parse_id(id, "tenant")?)?.phones().await?;
    Ok(reply(StatusCode::OK, phones.into_iter().map(|p| OperatorPhone::new(p, None)).collect::<Vec<_>>()))
}

/// Body of `PATCH /admin/v1/phones/{id}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchPhone {
    /// Messages per UTC day.
    #[serde(default)]
    pub daily_limit: Option<u32>,
    /// Chosen for sends only when true.
    #[serde(default)]
    pub enabled: Option<bool>,
    /// Sim phones only: the online switch.
    #[serde(default)]
    pub online: Option<bool>,
}

/// Changes a phone's daily limit, enabled flag or (sim) online switch.
#[utoipa::path(patch, path = "/admin/v1/phones/{id}", operation_id = "patch_phone", tag = "operator", security(("admin_token" = [])),
    params(("id" = String, Path, description = "phone id")), request_body = PatchPhone,
    responses((status = 200, body = DataBody<OperatorPhone>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn patch(
    Admin(engine): Admin,
    id: web::Path<String>,
    body: Result<Json<PatchPhone>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "phone")?;
    let tenant = engine.phone_owner(id)?;
    let Json(b) = body?;
    let view = tenant.update_phone(id, b.daily_limit, b.enabled, b.online).await?;
    Ok(reply(StatusCode::OK, OperatorPhone::new(view, None)))
}

/// Deletes a phone. Messages it still owed fail with `error_code: NO_PHONE_AVAILABLE`.
#[utoipa::path(delete, path = "/admin/v1/phones/{id}", operation_id = "delete_phone", tag = "operator", security(("admin_token" = [])),
    params(("id" = String, Path, description = "phone id")),
    responses((status = 200, body = DataBody<Deleted>), (status = 404, body = ErrorBody)))]
pub async fn delete(Admin(engine): Admin, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "phone")?;
    engine.phone_owner(id)?.remove_phone(id).await?;
    Ok(reply(StatusCode::OK, Deleted { id: id.to_string(), deleted: true }))
}

// ---- the agent's API ----

/// Query of a job poll.
#[derive(Deserialize)]
pub struct PollQuery {
    wait: Option<String>,
}

/// Long poll for work: leased jobs at once, or the first to arrive within `wait` seconds (≤ 30).
/// Polling keeps the phone online.
#[utoipa::path(get, path = "/phone/v1/jobs", tag = "phone agent", security(("agent_token" = [])),
    params(("wait" = Option<u32>, Query, description = "seconds to wait for work, 0–30 (default 0)")),
    responses((status = 200, body = DataBody<Vec<JobView>>), (status = 401, body = ErrorBody)))]
pub async fn jobs(
    Agent(agent): Agent,
    q: web::Query<PollQuery>,
    http: actix_web::HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let wait = match q.wait.as_deref() {
        None => 0,
        Some(w) => {
            w.parse::<u64>().ok().filter(|w| *w <= pigeon_protocol::MAX_POLL_WAIT_S).ok_or_else(|| {
                ApiError::Validation("wait: must be a whole number of seconds from 0 to 30".into())
            })?
        }
    };
    // An agent that dies mid-poll closes its connection: the poll ends then, and jobs that were
    // on their way go back to the queue at once instead of waiting out a lease nobody holds.
    let gone = http.conn_data::<std::sync::Arc<crate::server::wire::PeerGone>>().cloned();
    let poll = std::pin::pin!(agent.poll(Duration::from_secs(wait)));
    let jobs = match gone {
        Some(gone) => match futures_util::future::select(poll, std::pin::pin!(gone.wait())).await {
            futures_util::future::Either::Left((jobs, _)) => jobs?,
            futures_util::future::Either::Right(_) => Vec::new(),
        },
        None => poll.await?,
    };
    Ok(reply(StatusCode::OK, jobs))
}

/// The phone this token belongs to: the agent's `--check` reads it. Counts as a poll, as every
/// agent call does.
#[utoipa::path(get, path = "/phone/v1/me", tag = "phone agent", security(("agent_token" = [])),
    responses((status = 200, body = DataBody<AgentPhone>), (status = 401, body = ErrorBody)))]
pub async fn me(Agent(agent): Agent) -> Result<HttpResponse, ApiError> {
    let p = agent.phone().await?;
    Ok(reply(
        StatusCode::OK,
        AgentPhone {
            phone_id: p.record.id.to_string(),
            number: p.record.number,
            enabled: p.record.enabled,
            daily_limit: p.record.daily_limit,
            sent_today: p.sent_today,
        },
    ))
}

/// Reports what became of a message this phone holds. Legal moves: `sending` → `sent` |
/// `delivered` | `failed`, `sent` → `delivered` | `read` | `failed`, `delivered` → `read`;
/// repeating the current status is a no-op; anything else is 409 `INVALID_STATUS_TRANSITION`.
#[utoipa::path(post, path = "/phone/v1/messages/{id}/status", tag = "phone agent",
    security(("agent_token" = [])), params(("id" = String, Path, description = "message id")),
    request_body = StatusBody,
    responses((status = 200, body = DataBody<MessageView>), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn status(
    Agent(agent): Agent,
    engine: web::Data<Engine>,
    id: web::Path<String>,
    body: Result<Json<StatusBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "message")?;
    let Json(b) = body?;
    let status = match b.status {
        ReportedStatus::Sent => MessageStatus::Sent,
        ReportedStatus::Delivered => MessageStatus::Delivered,
        ReportedStatus::Failed => MessageStatus::Failed,
        ReportedStatus::Read => MessageStatus::Read,
    };
    let channel = b.channel_used.map(|c| match c {
        UsedChannel::Imessage => Channel::Imessage,
        UsedChannel::Sms => Channel::Sms,
    });
    let reason = b.failure_reason.map(|r| r.chars().take(500).collect());
    let phone_scoped = b.failure_scope == Some(FailureScope::Phone);
    if b.failure_scope.is_some() && status != MessageStatus::Failed {
        return Err(ApiError::Validation("failure_scope: only a failed report has one".into()));
    }
    let m = agent.report(id, status, reason, channel, phone_scoped).await?;
    Ok(reply(StatusCode::OK, MessageView::of(m, &engine)))
}

/// A text the phone received. Recorded as an inbound message; opt-out keywords apply at once.
/// With an `Idempotency-Key` (the agent's id for the text), a repeat within 24 h answers the first
/// record and records nothing, so an agent may retry after a crash without a duplicate.
#[utoipa::path(post, path = "/phone/v1/inbound", tag = "phone agent", security(("agent_token" = [])),
    params(("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 255, pattern = "^[!-~]+$",
        description = "The agent's id for this text (unique per phone): a repeat within 24 h records nothing")),
    request_body = InboundBody,
    responses((status = 201, body = DataBody<MessageView>), (status = 400, body = ErrorBody),
        (status = 409, description = "IDEMPOTENCY_KEY_REUSED: the key came with another sender or text", body = ErrorBody)))]
pub async fn inbound(
    Agent(agent): Agent,
    engine: web::Data<Engine>,
    http: actix_web::HttpRequest,
    body: Result<Json<InboundBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let key = super::messages::idempotency_key(&http)?;
    let from = PhoneNumber::parse(&b.from)
        .ok_or_else(|| ApiError::InvalidPhoneNumber(format!("from: {:?} is not E.164", b.from)))?;
    let media = b.media.as_deref().map(super::send_media::media_ids).transpose()?.unwrap_or_default();
    // Messages' placeholder for an attachment stands in the text where the file was: the files
    // come as `media`, so it goes (DESIGN "Attachments").
    let body = b.body.map(|t| if t.contains('\u{fffc}') { t.replace('\u{fffc}', "") } else { t });
    let body = match body.filter(|t| !t.is_empty() || media.is_empty()) {
        Some(body) if body.chars().count() > super::messages::MAX_BODY_CHARS => {
            return Err(ApiError::Validation("body: at most 10000 characters".into()))
        }
        Some(body) => body,
        None if media.is_empty() => return Err(ApiError::Validation("body: required (or media)".into())),
        None => String::new(),
    };
    let m = agent.inbound(from, body, media, key).await?;
    Ok(reply(StatusCode::CREATED, MessageView::of(m, &engine)))
}

/// The agent says which messages it still holds; every other lease of its phone goes back to the
/// queue at once. An agent calls it when it starts, and after a poll whose answer it lost, so a
/// job answered to a poll it never read does not wait out its 60 s lease.
#[utoipa::path(post, path = "/phone/v1/leases/release", tag = "phone agent", security(("agent_token" = [])),
    request_body = ReleaseBody,
    responses((status = 200, body = DataBody<Released>), (status = 400, body = ErrorBody)))]
pub async fn release(
    Agent(agent): Agent,
    body: Result<Json<ReleaseBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let keep = b
        .keep
        .iter()
        .map(|id| {
            ulid::Ulid::from_string(id)
                .map_err(|_| ApiError::Validation(format!("keep: {id:?} is not a message id")))
        })
        .collect::<Result<_, _>>()?;
    let n = agent.release(keep).await?;
    Ok(reply(StatusCode::OK, Released { released: u32::try_from(n).unwrap_or(u32::MAX) }))
}

/// Answers a `detect` job.
#[utoipa::path(post, path = "/phone/v1/detections/{job_id}", tag = "phone agent", security(("agent_token" = [])),
    params(("job_id" = String, Path, description = "the detect job")), request_body = DetectionAnswer,
    responses((status = 200, body = DataBody<DetectionAck>), (status = 404, body = ErrorBody)))]
pub async fn detection(
    Agent(agent): Agent,
    job: web::Path<String>,
    body: Result<Json<DetectionAnswer>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let job_id = parse_id(&job, "detection job")?;
    let Json(b) = body?;
    let phone = agent.answer_detection(job_id, b.imessage).await?;
    Ok(reply(StatusCode::OK, DetectionAck { job_id: job_id.to_string(), phone, imessage: b.imessage }))
}
