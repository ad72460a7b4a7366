//! The dashboard: a console for tenants and the operator under `/dashboard/`. Server-rendered
//! HTML (maud), no script, nothing fetched from elsewhere. Pages read through the engine like the
//! API does and count against no rate limit or quota. This file holds what every page shares:
//! the layout, the session checks and CSRF; each page family has its own file.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, DOCTYPE};
use pigeon_actors::{Engine, EngineError, Session};
use serde::Deserialize;

mod chart;
mod keys;
mod messages;
mod operator;
mod overview;
mod records;
mod settings;
mod sign_in;
mod webhooks;

/// The session cookie.
pub const COOKIE: &str = "pigeon_session";

/// What every dashboard answer carries: nothing but our own styles and images, no framing
/// (clickjacking), no content sniffing, no full URLs to other sites, and nothing cached (the
/// pages show message bodies and numbers, also after "Sign out" on a shared computer).
const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; \
         frame-ancestors 'none'; base-uri 'none'",
    ),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("cache-control", "no-store"),
];

/// Registers the dashboard's pages under `/dashboard`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let headers = SECURITY_HEADERS
        .iter()
        .fold(actix_web::middleware::DefaultHeaders::new(), |h, (name, value)| h.add((*name, *value)));
    cfg.service(
        web::scope("/dashboard")
            .wrap(headers)
            .route("/login", web::get().to(sign_in::login_page))
            .route("/login", web::post().to(sign_in::login))
            .route("/logout", web::post().to(sign_in::logout))
            .route("/", web::get().to(overview::overview))
            .route("/messages", web::get().to(messages::messages))
            .route("/messages/{id}", web::get().to(messages::message))
            .route("/webhooks", web::get().to(webhooks::webhooks))
            .route("/webhooks/{id}", web::get().to(webhooks::webhook_log))
            .route("/webhooks/{id}/deliveries/{delivery}/retry", web::post().to(webhooks::retry_delivery))
            .route("/webhooks/{id}/switch", web::post().to(webhooks::switch))
            .route("/webhooks/{id}/recover", web::post().to(webhooks::recover))
            .route("/admin/tenants", web::get().to(operator::admin_tenants))
            .route("/admin/tenants/{id}", web::get().to(operator::admin_tenant))
            .route("/admin/tenants/{id}", web::post().to(operator::admin_change_tenant))
            .route("/admin/node", web::get().to(operator::admin_node))
            .route("/admin/phones", web::get().to(operator::admin_phones))
            .route("/contacts", web::get().to(records::contacts))
            .route("/templates", web::get().to(records::templates))
            .route("/campaigns", web::get().to(records::campaigns))
            .route("/settings", web::get().to(settings::settings))
            .route("/settings", web::post().to(settings::save_settings))
            .route("/keys", web::get().to(keys::keys))
            .route("/keys", web::post().to(keys::create_key))
            .route("/keys/{id}/revoke", web::get().to(keys::confirm_revoke))
            .route("/keys/{id}/revoke", web::post().to(keys::revoke))
            .route("", web::get().to(overview::overview)),
    );
}

/// Whether cookies get `Secure` (the node is served over https).
#[derive(Clone, Copy)]
pub struct SecureCookies(pub bool);

fn page(title: &str, session: Option<&Session>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · pigeon" }
                style { (maud::PreEscaped(STYLE)) }
            }
            body {
                header {
                    strong { "pigeon" }
                    @if let Some(s) = session {
                        nav aria-label="Main" {
                            @if s.tenant().is_none() {
                                a href="/dashboard/admin/tenants" { "Tenants" }
                                a href="/dashboard/admin/phones" { "Phones" }
                                a href="/dashboard/admin/node" { "Node" }
                            }
                            @if s.tenant().is_some() {
                                a href="/dashboard/" { "Overview" }
                                a href="/dashboard/messages" { "Messages" }
                                a href="/dashboard/webhooks" { "Webhooks" }
                                a href="/dashboard/keys" { "API keys" }
                                a href="/dashboard/contacts" { "Contacts" }
                                a href="/dashboard/templates" { "Templates" }
                                a href="/dashboard/campaigns" { "Campaigns" }
                                a href="/dashboard/settings" { "Settings" }
                            }
                            form method="post" action="/dashboard/logout" {
                                input type="hidden" name="csrf" value=(s.csrf);
                                button type="submit" { "Sign out" }
                            }
                        }
                    }
                }
                main { h1 { (title) } (body) }
            }
        }
    }
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b}\
header{display:flex;gap:1.5rem;align-items:center;padding:.75rem 1.5rem;background:#1d3557;color:#fff}\
header nav{display:flex;gap:1rem;align-items:center}header a{color:#fff}\
header form{margin:0}main{padding:1rem 1.5rem;max-width:60rem}\
table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3rem .6rem;text-align:left}\
.error{border-left:4px solid #b00020;padding:.4rem .8rem;background:#fdecee}\
label{display:block;font-weight:600;margin:.5rem 0 .25rem}input[type=password]{width:28rem;max-width:100%;padding:.4rem}\
button{padding:.4rem 1rem;margin-top:.5rem}\
label.inline{display:inline;font-weight:400}fieldset{margin:1rem 0;max-width:40rem}\
caption{text-align:left;font-weight:600;padding:.3rem 0}table{margin-bottom:1.25rem}\
figure.chart{margin:0;max-width:48rem}figcaption{font-size:.9rem}.legend{margin-right:1rem}";

fn html_response(status: StatusCode, m: Markup) -> HttpResponse {
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(m.into_string())
}

/// Sends the browser to `to` (303: the next request is a GET).
fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, to)).finish()
}

/// The session of the request's cookie, if it is live.
fn session(engine: &Engine, req: &HttpRequest) -> Option<(String, Session)> {
    let id = req.cookie(COOKIE)?.value().to_owned();
    let s = engine.session(&id).ok()?;
    Some((id, s))
}

#[derive(Deserialize)]
pub(super) struct CsrfForm {
    csrf: String,
}

fn unavailable() -> Markup {
    html! { p.error role="alert" { "This page cannot be shown right now; try again shortly." } }
}

/// Messages shown per page.
const PER_PAGE: usize = 50;

fn ts(t: &chrono::DateTime<chrono::Utc>) -> String {
    pigeon_actors::storage::ts::format(t)
}

/// A value's name as the API spells it (`delivered`, `growth`, `succeeded`).
fn wire_name(v: impl serde::Serialize) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn refused(s: &Session, title: &str) -> HttpResponse {
    let body =
        html! { p.error role="alert" { "The form was stale; nothing changed. Go back and try again." } };
    html_response(StatusCode::FORBIDDEN, page(title, Some(s), body))
}

fn csrf_ok(s: &Session, sent: &str) -> bool {
    pigeon_actors::credentials::hashes_match(sent, &s.csrf)
}

/// A tenant's session and its tenant, or where to send the browser instead.
fn tenant_session(engine: &Engine, req: &HttpRequest) -> Result<(Session, ulid::Ulid), &'static str> {
    let (_, s) = session(engine, req).ok_or("/dashboard/login")?;
    let tenant = s.tenant().ok_or("/dashboard/")?;
    crate::edge::Caller::mark(req, tenant);
    Ok((s, tenant))
}

/// The operator's session, or where to send the browser instead.
fn operator(engine: &Engine, req: &HttpRequest) -> Result<Session, &'static str> {
    match session(engine, req) {
        None => Err("/dashboard/login"),
        Some((_, s)) if s.tenant().is_some() => Err("/dashboard/"),
        Some((_, s)) => Ok(s),
    }
}

#[derive(Deserialize)]
pub(super) struct After {
    after: Option<String>,
}

/// A page of records read with `read(after, limit + 1)`, and the link to the next, if any.
fn paged<T>(
    path: &str,
    after: &After,
    read: impl FnOnce(Option<ulid::Ulid>, usize) -> Result<Vec<T>, EngineError>,
    id: impl Fn(&T) -> ulid::Ulid,
) -> Option<(Vec<T>, Option<String>)> {
    let after = after.after.as_deref().and_then(|a| ulid::Ulid::from_string(a).ok());
    let mut items = read(after, PER_PAGE + 1).ok()?;
    let next = (items.len() > PER_PAGE).then(|| {
        items.truncate(PER_PAGE);
        items.last().map(|i| format!("{path}?after={}", id(i))).unwrap_or_default()
    });
    Some((items, next))
}
