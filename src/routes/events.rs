//! `GET /v1/events`: the tenant's events as a page, a long poll, or server-sent events.

use std::time::Duration;

use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use pigeon_actors::storage::model::Environment;
use pigeon_actors::{Engine, EventBatch, EventQuery, Route};
use serde::{Deserialize, Serialize};
use ulid::Ulid;
use utoipa::ToSchema;

use super::ErrorBody;
use crate::error::ApiError;
use crate::extract::{Page, Tenant};

/// The longest `wait`, seconds.
const MAX_WAIT_S: u64 = 30;

/// How long a stream waits for an event before it sends a comment, so proxies and clients know
/// it is alive (and it notices a client gone).
const HEARTBEAT: Duration = Duration::from_secs(15);

/// How long one stream lasts: then it ends and the client comes back with `Last-Event-ID`, so no
/// stream holds a node's graceful stop or a fleet's tenant move for long.
const STREAM_FOR: Duration = Duration::from_secs(300);

/// An event as a webhook gets it: these fields, then the event's own (see docs/api.md).
#[derive(Serialize, ToSchema)]
pub struct EventItem {
    /// Its name, e.g. `message.delivered`.
    pub event: String,
    /// Its id, the same in every webhook delivery of it; also its cursor.
    pub event_id: String,
    /// When it happened (RFC 3339).
    pub timestamp: String,
}

/// A page of events.
#[derive(Serialize, ToSchema)]
pub struct EventsBody {
    /// The events, in the order they became durable.
    pub data: Vec<EventItem>,
    /// Pass as `after` to read on; never null: at the end it is the cursor to wait on.
    pub next_cursor: String,
}

/// The query besides `limit` and `after` ([`Page`]).
#[derive(Deserialize)]
struct Raw {
    types: Option<String>,
    wait: Option<String>,
}

/// The tenant's events in the order they became durable, each the JSON a webhook gets. With
/// `Accept: text/event-stream`, the same as server-sent events (`id:` the cursor), resumable
/// with `Last-Event-ID`.
#[utoipa::path(get, path = "/v1/events", operation_id = "list_events", tag = "events", security(("api_key" = [])),
    params(("after" = Option<String>, Query, description = "cursor from next_cursor (or an event_id); from the oldest kept without"),
        ("types" = Option<String>, Query, description = "comma-separated event names"),
        ("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("wait" = Option<u32>, Query, description = "0–30 s: long-poll when nothing follows the cursor"),
        ("Last-Event-ID" = Option<String>, Header, description = "server-sent events: resume after this id")),
    responses((status = 200, description = "events (or, with Accept: text/event-stream, a stream of them)",
            content((EventsBody = "application/json"), (String = "text/event-stream"))),
        (status = 400, description = "VALIDATION_ERROR: a malformed cursor, an unknown type, limit or wait out of range", body = ErrorBody),
        (status = 410, description = "CURSOR_EXPIRED: events after the cursor were deleted", body = ErrorBody)))]
pub async fn list(
    tenant: Tenant,
    engine: web::Data<Engine>,
    page: Result<Page, ApiError>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let raw = web::Query::<Raw>::from_query(req.query_string())
        .map_err(|e| ApiError::Validation(format!("query: {e}")))?
        .into_inner();
    let stream = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.split(',').any(|t| t.trim().starts_with("text/event-stream")));
    let resume = req.headers().get("last-event-id").and_then(|v| v.to_str().ok()).filter(|_| stream);
    let after = match resume {
        Some(c) => Some(
            Ulid::from_string(c.trim())
                .map_err(|_| ApiError::Validation("Last-Event-ID: not an event id this API gave".into()))?,
        ),
        None => page.after,
    };
    let types = raw.types.as_deref().map(pigeon_actors::parse_types).transpose()?;
    let wait = match raw.wait {
        None => 0,
        Some(s) => s.parse::<u64>().ok().filter(|n| *n <= MAX_WAIT_S).ok_or_else(|| {
            ApiError::Validation(format!("wait: must be a whole number of seconds from 0 to {MAX_WAIT_S}"))
        })?,
    };
    let q = EventQuery { after, types, limit: page.limit, test: tenant.environment == Environment::Test };
    // The first read answers errors (a cursor expired) with the usual envelope, streaming or not.
    if !stream {
        let batch = engine.events(tenant.id, &q, Duration::from_secs(wait)).await?;
        return Ok(HttpResponse::Ok().content_type("application/json").body(page_json(&batch)));
    }
    let first = engine.events(tenant.id, &q, Duration::ZERO).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("x-accel-buffering", "no"))
        .streaming(sse(engine.into_inner(), tenant.id, q, first)))
}

/// `{"data": [...], "next_cursor": "..."}`, the stored payloads as they are.
fn page_json(batch: &EventBatch) -> String {
    let mut body = String::from("{\"data\":[");
    for (i, (_, payload)) in batch.events.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(payload);
    }
    body.push_str("],\"next_cursor\":\"");
    body.push_str(&batch.next_cursor.to_string());
    body.push_str("\"}");
    body
}

/// One frame per event (`id:` its cursor, `data:` its JSON), or a comment when none came.
fn frames(batch: &EventBatch) -> Bytes {
    if batch.events.is_empty() {
        return Bytes::from_static(b": keep-alive\n\n");
    }
    let mut out = String::new();
    for (id, payload) in &batch.events {
        out.push_str("id: ");
        out.push_str(&id.to_string());
        out.push_str("\ndata: ");
        out.push_str(payload);
        out.push_str("\n\n");
    }
    Bytes::from(out)
}

/// The stream: the first batch, then each next one, until [`STREAM_FOR`] is over, the tenant
/// moved to another node of a fleet, or a read failed (the client resumes from its last id).
fn sse(
    engine: std::sync::Arc<Engine>,
    tenant: Ulid,
    q: EventQuery,
    first: EventBatch,
) -> impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>> {
    let until = tokio::time::Instant::now() + STREAM_FOR;
    futures_util::stream::unfold((Some(first), q), move |(ready, mut q)| {
        let engine = engine.clone();
        async move {
            let batch = match ready {
                Some(b) => b,
                None => {
                    let left = until.saturating_duration_since(tokio::time::Instant::now());
                    let moved = !matches!(engine.route(tenant), Ok(Route::Local));
                    if left.is_zero() || moved {
                        return None;
                    }
                    match engine.events(tenant, &q, left.min(HEARTBEAT)).await {
                        Ok(b) => b,
                        Err(_) => return None,
                    }
                }
            };
            q.after = Some(batch.next_cursor);
            Some((Ok(frames(&batch)), (None, q)))
        }
    })
}
