//! Messages newest first, filtered and paged by cursor, and one message with its timeline.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use pigeon_actors::Engine;
use serde::Deserialize;

use pigeon_actors::storage::model::{Environment, MessageRecord, MessageStatus};

use super::*;

#[derive(Deserialize)]
pub(super) struct MessageFilters {
    status: Option<String>,
    to: Option<String>,
    before: Option<String>,
}

const STATUSES: [&str; 8] =
    ["queued", "sending", "sent", "delivered", "read", "failed", "cancelled", "received"];

fn status_name(m: &MessageRecord) -> String {
    wire_name(m.status)
}

/// Whether the session was opened with a test key: it sees test messages only, as the API
/// shows that key (a live key, or an identity provider's sign-in, sees live ones only).
async fn session_is_test(engine: &Engine, s: &Session, tenant: ulid::Ulid) -> bool {
    match engine.tenant(tenant) {
        Ok(h) => super::keys::session_key(&h, s).await.0 == Environment::Test,
        Err(_) => true,
    }
}

pub(super) async fn messages(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<MessageFilters>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let test = session_is_test(&engine, &s, tenant).await;
    let q = q.into_inner();
    let status = q.status.filter(|v| !v.is_empty());
    let to = q.to.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let before = q.before.as_deref().and_then(|b| ulid::Ulid::from_string(b).ok());
    let wanted: Option<MessageStatus> =
        status.as_deref().and_then(|v| serde_json::from_value(serde_json::Value::String(v.into())).ok());
    let keep = |m: &MessageRecord| {
        m.test == test
            && wanted.is_none_or(|w| m.status == w)
            && to.as_deref().is_none_or(|t| m.to == t || m.from.as_deref() == Some(t))
    };
    let (mut items, stopped) = match engine.reads(tenant).messages_newest(before, PER_PAGE + 1, keep) {
        Ok(r) => r,
        Err(_) => {
            return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Messages", Some(&s), unavailable()))
        }
    };
    let next = match stopped {
        Some(at) => Some(at),
        None if items.len() > PER_PAGE => {
            items.truncate(PER_PAGE);
            items.last().map(|m| m.id)
        }
        None => None,
    };
    let older = next.map(|n| {
        let mut q = vec![("before".to_owned(), n.to_string())];
        if let Some(v) = &status {
            q.push(("status".into(), v.clone()));
        }
        if let Some(v) = &to {
            q.push(("to".into(), v.clone()));
        }
        format!("/dashboard/messages?{}", serde_urlencoded::to_string(q).unwrap_or_default())
    });
    let body = html! {
        form method="get" action="/dashboard/messages" {
            label for="status" { "Status" }
            select id="status" name="status" {
                option value="" { "any" }
                @for st in STATUSES {
                    option value=(st) selected[status.as_deref() == Some(st)] { (st) }
                }
            }
            label for="to" { "Number" }
            input id="to" name="to" type="text" value=(to.clone().unwrap_or_default()) placeholder="+14155550100";
            div { button type="submit" { "Filter" } }
        }
        @if items.is_empty() {
            p { "No messages here." }
        } @else {
            table {
                caption { @if test { "Test messages, newest first" } @else { "Live messages, newest first" } }
                tr { th scope="col" { "Created" } th scope="col" { "Direction" } th scope="col" { "Number" }
                     th scope="col" { "Status" } th scope="col" { "Text" } }
                @for m in &items {
                    tr {
                        td { a href={ "/dashboard/messages/" (m.id) } { (ts(&m.created_at)) } }
                        td { (format!("{:?}", m.direction).to_lowercase()) }
                        td { (m.from.as_deref().filter(|_| m.to.is_empty()).unwrap_or(&m.to)) }
                        td { (status_name(m)) @if m.test { " (test)" } }
                        td { (m.body.chars().take(60).collect::<String>()) }
                    }
                }
            }
        }
        @if let Some(href) = older { p { a href=(href) { "Older messages" } } }
    };
    html_response(StatusCode::OK, page("Messages", Some(&s), body))
}

/// An attachment as a message's page shows it: a link (same origin, signed as a receiver's is,
/// since the page's session is no API key), and whether a browser draws it as an image.
struct Shown {
    link: String,
    image: bool,
    name: String,
    content_type: String,
    size: String,
}

fn attachments(engine: &Engine, m: &MessageRecord) -> Vec<Shown> {
    let now = engine.clock().now().timestamp();
    m.media
        .iter()
        .map(|f| {
            let id = f.id.to_string();
            Shown {
                link: format!("/v1/media/{id}/content?{}", engine.media_links().query(&id, now)),
                // HEIC is left a link: browsers other than Safari do not draw it.
                image: matches!(
                    f.content_type.as_str(),
                    "image/jpeg" | "image/png" | "image/gif" | "image/webp"
                ),
                name: f.filename.clone().unwrap_or_else(|| id.clone()),
                content_type: f.content_type.clone(),
                size: match f.size {
                    n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / 1048576.0),
                    n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
                    n => format!("{n} bytes"),
                },
            }
        })
        .collect()
}

pub(super) async fn message(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let test = session_is_test(&engine, &s, tenant).await;
    let found = ulid::Ulid::from_string(&id)
        .ok()
        .and_then(|id| engine.reads(tenant).message(id).ok())
        .filter(|m| m.test == test);
    let Some(m) = found else {
        let body = html! { p.error role="alert" { "No such message in this account." } };
        return html_response(StatusCode::NOT_FOUND, page("Message", Some(&s), body));
    };
    let steps: Vec<(&str, chrono::DateTime<chrono::Utc>)> = [
        ("Accepted", Some(m.created_at)),
        ("Scheduled for", m.scheduled_at),
        ("Sent", m.sent_at),
        ("Delivered", m.delivered_at),
        ("Read", m.read_at),
        ("Failed", m.failed_at),
    ]
    .into_iter()
    .filter_map(|(what, at)| at.map(|at| (what, at)))
    .collect();
    let body = html! {
        table {
            caption { "Message " code { (m.id) } }
            tr { th scope="row" { "Status" } td { (status_name(&m)) @if m.test { " (test key: no phone was used)" } } }
            tr { th scope="row" { "To" } td { (m.to) } }
            @if let Some(from) = &m.from { tr { th scope="row" { "From" } td { (from) } } }
            tr { th scope="row" { "Text" } td { (m.body) } }
            @if !m.media.is_empty() {
                tr { th scope="row" { "Attachments" } td { ul.attachments style="list-style:none;padding:0;margin:0" { @for a in &attachments(&engine, &m) {
                    li style="margin:0.25rem 0" { a href=(a.link) {
                        @if a.image { img src=(a.link) alt=(a.name) style="max-width:10rem;max-height:10rem;display:block"; }
                        (a.name) " (" (a.content_type) ", " (a.size) ")"
                    } }
                } } } }
            }
            @if let Some(r) = &m.failure_reason { tr { th scope="row" { "Failure reason" } td { (r) } } }
            @if let Some(c) = &m.error_code { tr { th scope="row" { "Code" } td { code { (c) } } } }
            @if let Some(at) = m.expires_at {
                tr { th scope="row" { "Expires" } td {
                    time datetime=(ts(&at)) { (ts(&at)) }
                    " (fails " code { "EXPIRED" } " if no phone has taken it by then)"
                } }
            }
        }
        h2 { "Timeline" }
        ol { @for (what, at) in &steps { li { (what) " " time datetime=(ts(at)) { (ts(at)) } } } }
        p { a href="/dashboard/messages" { "All messages" } }
    };
    html_response(StatusCode::OK, page("Message", Some(&s), body))
}
