//! Webhook endpoints, each one's delivery log, Retry, the on/off switch and "recover since".

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use pigeon_actors::Engine;

use super::*;

/// Deliveries shown on an endpoint's page.
const DELIVERIES_SHOWN: usize = 50;

pub(super) async fn webhooks(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let list = match engine.tenant(tenant) {
        Ok(h) => h.webhooks().await.unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let body = html! {
        @if list.is_empty() {
            p { "No webhooks yet: register one with " code { "POST /v1/webhooks" } "." }
        } @else {
            table {
                caption { "Endpoints" }
                tr { th scope="col" { "URL" } th scope="col" { "Events" } th scope="col" { "On" } th scope="col" { "Secret" } th scope="col" { "" } }
                @for w in &list {
                    tr {
                        td { (w.url) }
                        td { (w.events.join(", ")) }
                        td { @if w.enabled { "on" } @else { "off" } }
                        td { code { (pigeon_actors::credentials::hint(&w.secret)) } }
                        td { a href={ "/dashboard/webhooks/" (w.id) } { "Delivery log" } }
                    }
                }
            }
        }
    };
    html_response(StatusCode::OK, page("Webhooks", Some(&s), body))
}

#[derive(serde::Deserialize)]
pub(super) struct Before {
    before: Option<String>,
    /// Set after a recovery: how many it started again.
    recovered: Option<usize>,
}

pub(super) async fn webhook_log(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
    q: web::Query<Before>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let hooks = match engine.tenant(tenant) {
        Ok(h) => h.webhooks().await.unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let Some(w) = hooks.into_iter().find(|w| w.id.to_string() == *id) else {
        let body = html! { p.error role="alert" { "No such webhook in this account." } };
        return html_response(StatusCode::NOT_FOUND, page("Delivery log", Some(&s), body));
    };
    let before = q.before.as_deref().and_then(|b| ulid::Ulid::from_string(b).ok());
    let mut log =
        engine.reads(tenant).deliveries_newest(w.id, before, DELIVERIES_SHOWN + 1).unwrap_or_default();
    let older = (log.len() > DELIVERIES_SHOWN).then(|| {
        log.truncate(DELIVERIES_SHOWN);
        log.last().map(|d| format!("/dashboard/webhooks/{}?before={}", w.id, d.id)).unwrap_or_default()
    });
    let body = html! {
        p { "Deliveries to " code { (w.url) } ", newest first." }
        form.switch method="post" action={ "/dashboard/webhooks/" (w.id) "/switch" } {
            input type="hidden" name="csrf" value=(s.csrf);
            @if w.enabled {
                p { "This webhook is " strong { "on" } "." }
                input type="hidden" name="on" value="false";
                button type="submit" { "Turn off" }
            } @else {
                p { "This webhook is " strong { "off" } ": it gets no deliveries." }
                input type="hidden" name="on" value="true";
                button type="submit" { "Turn on" }
            }
        }
        @if w.enabled {
            form.recover method="post" action={ "/dashboard/webhooks/" (w.id) "/recover" } {
                input type="hidden" name="csrf" value=(s.csrf);
                label for="since" { "Send again every delivery that failed since (UTC)" }
                " "
                input type="datetime-local" id="since" name="since" step="1" required;
                " "
                button type="submit" { "Recover" }
            }
        }
        @if let Some(n) = q.recovered { p.notice role="status" { (n) " failed deliveries started again." } }
        @if log.is_empty() { p { "Nothing delivered yet." } }
        @for d in &log {
            @let state = wire_name(d.state);
            section.delivery aria-label={ "Delivery " (d.id) } {
                h2 { (d.event) " " small { code { (d.id) } } }
                p {
                    "State: " strong.state { (state) }
                    @if state == "failed" { " — all attempts failed" }
                }
                table {
                    tr { th scope="col" { "Attempt" } th scope="col" { "At" } th scope="col" { "Answer" } th scope="col" { "ms" } }
                    @for (i, a) in d.attempts.iter().enumerate() {
                        @let ok = a.status_code.is_some_and(|c| (200..300).contains(&c));
                        tr {
                            td { (i + 1) @if a.cycle > 0 { " (retry " (a.cycle) ")" } }
                            td { (ts(&a.at)) }
                            td {
                                @match (a.status_code, &a.error) {
                                    (Some(c), _) => { (c) }
                                    (None, Some(e)) => { (e) }
                                    _ => { "—" }
                                }
                                @if !ok { " (failed)" }
                            }
                            td { (a.duration_ms) }
                        }
                    }
                }
                @if state != "pending" && w.enabled {
                    form method="post" action={ "/dashboard/webhooks/" (w.id) "/deliveries/" (d.id) "/retry" } {
                        input type="hidden" name="csrf" value=(s.csrf);
                        button type="submit" { "Retry" }
                    }
                }
            }
        }
        @if let Some(href) = older { p { a href=(href) { "Older deliveries" } } }
    };
    html_response(StatusCode::OK, page("Delivery log", Some(&s), body))
}

pub(super) async fn retry_delivery(
    engine: web::Data<Engine>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    form: Result<web::Form<CsrfForm>, actix_web::Error>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    if !form.is_ok_and(|f| csrf_ok(&s, &f.csrf)) {
        return refused(&s, "Delivery log");
    }
    let (hook, delivery) = path.into_inner();
    let ids = (ulid::Ulid::from_string(&hook), ulid::Ulid::from_string(&delivery));
    let (Ok(h), (Ok(hook_id), Ok(delivery_id))) = (engine.tenant(tenant), ids) else {
        return html_response(StatusCode::NOT_FOUND, page("Delivery log", Some(&s), unavailable()));
    };
    // Only this tenant's own webhooks: the tenant actor knows no other.
    if let Err(e) = h.retry_delivery(hook_id, delivery_id).await {
        return failed(&s, e);
    }
    see_other(&format!("/dashboard/webhooks/{hook_id}"))
}

#[derive(serde::Deserialize)]
pub(super) struct SwitchForm {
    csrf: String,
    on: bool,
}

/// Turns a webhook on or off.
pub(super) async fn switch(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
    form: Result<web::Form<SwitchForm>, actix_web::Error>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let Some(form) = form.ok().filter(|f| csrf_ok(&s, &f.csrf)) else {
        return refused(&s, "Delivery log");
    };
    let (Ok(h), Ok(hook)) = (engine.tenant(tenant), ulid::Ulid::from_string(&id)) else {
        return html_response(StatusCode::NOT_FOUND, page("Delivery log", Some(&s), unavailable()));
    };
    if let Err(e) = h.patch_webhook(hook, None, None, Some(form.on)).await {
        return failed(&s, e);
    }
    see_other(&format!("/dashboard/webhooks/{hook}"))
}

#[derive(serde::Deserialize)]
pub(super) struct RecoverForm {
    csrf: String,
    /// `YYYY-MM-DDTHH:MM[:SS]`, UTC (a `datetime-local` input).
    since: String,
}

/// Starts again what failed since the time given.
pub(super) async fn recover(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
    form: Result<web::Form<RecoverForm>, actix_web::Error>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let Some(form) = form.ok().filter(|f| csrf_ok(&s, &f.csrf)) else {
        return refused(&s, "Delivery log");
    };
    let (Ok(h), Ok(hook)) = (engine.tenant(tenant), ulid::Ulid::from_string(&id)) else {
        return html_response(StatusCode::NOT_FOUND, page("Delivery log", Some(&s), unavailable()));
    };
    let since = ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|f| chrono::NaiveDateTime::parse_from_str(&form.since, f).ok());
    let Some(since) = since else {
        let body = html! { p.error role="alert" { "Give a date and time to recover from." } };
        return html_response(StatusCode::BAD_REQUEST, page("Delivery log", Some(&s), body));
    };
    match h.recover_webhook(hook, since.and_utc(), None).await {
        Ok(n) => see_other(&format!("/dashboard/webhooks/{hook}?recovered={n}")),
        Err(e) => failed(&s, e),
    }
}

/// The page for an engine's refusal, with its words and status.
fn failed(s: &Session, e: pigeon_actors::EngineError) -> HttpResponse {
    let e = crate::error::ApiError::from(e);
    let body = html! { p.error role="alert" { (e.message()) } };
    html_response(actix_web::ResponseError::status_code(&e), page("Delivery log", Some(s), body))
}
