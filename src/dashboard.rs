//! The dashboard, first slice: sign-in with an API key, an identity provider's token or the
//! operator token; sessions in an HttpOnly, SameSite=Strict cookie (the store keeps only their
//! hash); a CSRF token on every form; the tenant's Overview and Messages (newest first, filtered,
//! paged by cursor, each with its timeline). Server-rendered HTML (maud),
//! no script, nothing fetched from elsewhere. Pages read through the engine like the API does and
//! count against no rate limit or quota.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, DOCTYPE};
use pigeon_actors::storage::model::{Environment, MessageRecord, MessageStatus, SessionPrincipal};
use pigeon_actors::{Engine, EngineError, Session};
use serde::Deserialize;

/// The session cookie.
pub const COOKIE: &str = "pigeon_session";

/// Registers the dashboard's pages under `/dashboard`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/dashboard")
            .route("/login", web::get().to(login_page))
            .route("/login", web::post().to(login))
            .route("/logout", web::post().to(logout))
            .route("/", web::get().to(overview))
            .route("/messages", web::get().to(messages))
            .route("/messages/{id}", web::get().to(message))
            .route("/webhooks", web::get().to(webhooks))
            .route("/webhooks/{id}", web::get().to(webhook_log))
            .route("/webhooks/{id}/deliveries/{delivery}/retry", web::post().to(retry_delivery))
            .route("/admin/tenants", web::get().to(admin_tenants))
            .route("/admin/tenants/{id}", web::get().to(admin_tenant))
            .route("/admin/tenants/{id}", web::post().to(admin_change_tenant))
            .route("/admin/node", web::get().to(admin_node))
            .route("/contacts", web::get().to(contacts))
            .route("/templates", web::get().to(templates))
            .route("/campaigns", web::get().to(campaigns))
            .route("/keys", web::get().to(keys))
            .route("/keys", web::post().to(create_key))
            .route("/keys/{id}/revoke", web::get().to(confirm_revoke))
            .route("/keys/{id}/revoke", web::post().to(revoke))
            .route("", web::get().to(overview)),
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
button{padding:.4rem 1rem;margin-top:.5rem}";

fn html_response(status: StatusCode, m: Markup) -> HttpResponse {
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(m.into_string())
}

fn login_form(message: Option<&str>) -> Markup {
    page(
        "Sign in",
        None,
        html! {
            @if let Some(m) = message { p.error role="alert" { (m) } }
            form method="post" action="/dashboard/login" {
                label for="key" { "API key" }
                input id="key" name="key" type="password" autocomplete="off" required;
                div { button type="submit" { "Sign in" } }
            }
            p { "A live or test API key, a token of your identity provider, or the operator token." }
        },
    )
}

async fn login_page() -> HttpResponse {
    html_response(StatusCode::OK, login_form(None))
}

#[derive(Deserialize)]
struct LoginForm {
    key: String,
}

/// Sends the browser to `to` (303: the next request is a GET).
fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, to)).finish()
}

async fn login(
    engine: web::Data<Engine>,
    secure: web::Data<SecureCookies>,
    form: Result<web::Form<LoginForm>, actix_web::Error>,
) -> HttpResponse {
    let Ok(form) = form else {
        return html_response(StatusCode::BAD_REQUEST, login_form(Some("Enter an API key.")));
    };
    match engine.sign_in(&form.key).await {
        Ok((id, _)) => {
            let cookie = Cookie::build(COOKIE, id)
                .path("/dashboard")
                .http_only(true)
                .same_site(SameSite::Strict)
                .secure(secure.0)
                .finish();
            let mut res = see_other("/dashboard/");
            let _ = res.add_cookie(&cookie);
            res
        }
        Err(e) => {
            let why = match e {
                EngineError::KeyInactive => "This key has been deactivated.".to_owned(),
                EngineError::TenantSuspended => "This account has been suspended.".to_owned(),
                EngineError::IdentityUnavailable => {
                    "The identity provider cannot be reached; try again shortly.".to_owned()
                }
                EngineError::InvalidToken(why) => format!("That token was refused: {why}."),
                EngineError::Store(_) => "The server cannot sign you in right now.".to_owned(),
                _ => "That key is not valid.".to_owned(),
            };
            html_response(StatusCode::UNAUTHORIZED, login_form(Some(&why)))
        }
    }
}

/// The session of the request's cookie, if it is live.
fn session(engine: &Engine, req: &HttpRequest) -> Option<(String, Session)> {
    let id = req.cookie(COOKIE)?.value().to_owned();
    let s = engine.session(&id).ok()?;
    Some((id, s))
}

#[derive(Deserialize)]
struct CsrfForm {
    csrf: String,
}

async fn logout(
    engine: web::Data<Engine>,
    req: HttpRequest,
    form: Result<web::Form<CsrfForm>, actix_web::Error>,
) -> HttpResponse {
    let Some((id, s)) = session(&engine, &req) else { return see_other("/dashboard/login") };
    let valid = form.is_ok_and(|f| csrf_ok(&s, &f.csrf));
    if !valid {
        return html_response(
            StatusCode::FORBIDDEN,
            page(
                "Refused",
                Some(&s),
                html! { p.error role="alert" { "The form was stale; nothing changed." } },
            ),
        );
    }
    let _ = engine.sign_out(&id).await;
    let mut res = see_other("/dashboard/login");
    let mut gone = Cookie::build(COOKIE, "").path("/dashboard").finish();
    gone.make_removal();
    let _ = res.add_cookie(&gone);
    res
}

async fn overview(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
    let Some((_, s)) = session(&engine, &req) else { return see_other("/dashboard/login") };
    let Some(tenant) = s.tenant() else { return see_other("/dashboard/admin/tenants") };
    let (record, usage) = match engine.tenant_view(tenant) {
        Ok(v) => v,
        Err(_) => {
            return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Overview", Some(&s), unavailable()))
        }
    };
    let phones = match engine.tenant(tenant) {
        Ok(h) => h.phones().await.unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let who = match &s.principal {
        SessionPrincipal::Key { .. } => "an API key",
        SessionPrincipal::Subject { .. } => "your identity provider",
        SessionPrincipal::Operator => "the operator token",
    };
    let calls_limit = record.effective_monthly_calls().map_or("unlimited".to_owned(), |l| l.to_string());
    let body = html! {
        p { "Account " strong { (record.name) } " (" code { (record.id) } "), signed in with " (who) "." }
        table {
            caption { "Usage" }
            tr { th scope="row" { "Plan" } td { (format!("{:?}", record.plan).to_lowercase()) } }
            tr { th scope="row" { "Status" } td { (format!("{:?}", record.status).to_lowercase()) } }
            tr { th scope="row" { "API calls this month" } td { (usage.api_calls_this_month) " of " (calls_limit) } }
            tr { th scope="row" { "New contacts today" } td { (usage.new_contacts_today) " of " (record.effective_new_contacts()) } }
        }
        h2 { "Phones" }
        @if phones.is_empty() {
            p { "No phones yet: the operator adds them." }
        } @else {
            table {
                tr { th scope="col" { "Number" } th scope="col" { "Online" } th scope="col" { "Sent today" } }
                @for p in &phones {
                    tr {
                        td { (p.record.number) }
                        td { @if p.online { "online" } @else { "offline" } }
                        td { (p.sent_today) " of " (p.record.daily_limit) }
                    }
                }
            }
        }
    };
    html_response(StatusCode::OK, page("Overview", Some(&s), body))
}

fn unavailable() -> Markup {
    html! { p.error role="alert" { "This page cannot be shown right now; try again shortly." } }
}

/// Messages shown per page.
const PER_PAGE: usize = 50;

#[derive(Deserialize)]
struct MessageFilters {
    status: Option<String>,
    to: Option<String>,
    before: Option<String>,
}

const STATUSES: [&str; 7] = ["queued", "sending", "sent", "delivered", "failed", "cancelled", "received"];

fn ts(t: &chrono::DateTime<chrono::Utc>) -> String {
    pigeon_actors::storage::ts::format(t)
}

/// A value's name as the API spells it (`delivered`, `growth`, `succeeded`).
fn wire_name(v: impl serde::Serialize) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn status_name(m: &MessageRecord) -> String {
    wire_name(m.status)
}

async fn messages(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<MessageFilters>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let q = q.into_inner();
    let status = q.status.filter(|v| !v.is_empty());
    let to = q.to.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let before = q.before.as_deref().and_then(|b| ulid::Ulid::from_string(b).ok());
    let wanted: Option<MessageStatus> =
        status.as_deref().and_then(|v| serde_json::from_value(serde_json::Value::String(v.into())).ok());
    let keep = |m: &MessageRecord| {
        wanted.is_none_or(|w| m.status == w)
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
                caption { "Newest first" }
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

async fn message(engine: web::Data<Engine>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let found = ulid::Ulid::from_string(&id).ok().and_then(|id| engine.reads(tenant).message(id).ok());
    let Some(m) = found else {
        let body = html! { p.error role="alert" { "No such message in this account." } };
        return html_response(StatusCode::NOT_FOUND, page("Message", Some(&s), body));
    };
    let steps: Vec<(&str, chrono::DateTime<chrono::Utc>)> = [
        ("Accepted", Some(m.created_at)),
        ("Scheduled for", m.scheduled_at),
        ("Sent", m.sent_at),
        ("Delivered", m.delivered_at),
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
            @if let Some(r) = &m.failure_reason { tr { th scope="row" { "Failure reason" } td { (r) } } }
            @if let Some(c) = &m.error_code { tr { th scope="row" { "Code" } td { code { (c) } } } }
        }
        h2 { "Timeline" }
        ol { @for (what, at) in &steps { li { (what) " " time datetime=(ts(at)) { (ts(at)) } } } }
        p { a href="/dashboard/messages" { "All messages" } }
    };
    html_response(StatusCode::OK, page("Message", Some(&s), body))
}

/// The environment new keys get by default: the signing-in key's; live for a provider's token.
async fn session_environment(handle: &pigeon_actors::TenantHandle, s: &Session) -> Environment {
    match &s.principal {
        SessionPrincipal::Key { key_id, .. } => handle
            .list_keys()
            .await
            .ok()
            .and_then(|ks| ks.into_iter().find(|(k, _)| k.id == *key_id).map(|(k, _)| k.environment))
            .unwrap_or(Environment::Test),
        _ => Environment::Live,
    }
}

fn env_name(e: Environment) -> &'static str {
    match e {
        Environment::Live => "live",
        Environment::Test => "test",
    }
}

/// The keys page, with a message and, right after creating one, the new key shown once.
async fn keys_page(engine: &Engine, s: &Session, notice: Option<Markup>, status: StatusCode) -> HttpResponse {
    let Some(tenant) = s.tenant() else { return see_other("/dashboard/") };
    let Ok(handle) = engine.tenant(tenant) else {
        return html_response(StatusCode::SERVICE_UNAVAILABLE, page("API keys", Some(s), unavailable()));
    };
    let list = handle.list_keys().await.unwrap_or_default();
    let mine = session_environment(&handle, s).await;
    let body = html! {
        @if let Some(n) = notice { (n) }
        table {
            caption { "Keys in use" }
            tr { th scope="col" { "Name" } th scope="col" { "Key" } th scope="col" { "Environment" }
                 th scope="col" { "Active" } th scope="col" { "Last used" } th scope="col" { "" } }
            @for (k, _) in &list {
                tr {
                    td { (k.name) }
                    td { code { (k.hint) } }
                    td { (env_name(k.environment)) }
                    td { @if k.active { "yes" } @else { "deactivated by the operator" } }
                    td { (k.last_used_at.map(|t| ts(&t)).unwrap_or_else(|| "never".into())) }
                    td { a href={ "/dashboard/keys/" (k.id) "/revoke" } { "Revoke " (k.name) } }
                }
            }
        }
        h2 { "Create a key" }
        form method="post" action="/dashboard/keys" {
            input type="hidden" name="csrf" value=(s.csrf);
            label for="name" { "Name" }
            input id="name" name="name" type="text" maxlength="100" required;
            label for="environment" { "Environment" }
            select id="environment" name="environment" {
                @if mine == Environment::Live { option value="live" { "live" } }
                option value="test" { "test" }
            }
            div { button type="submit" { "Create key" } }
        }
    };
    html_response(status, page("API keys", Some(s), body))
}

async fn keys(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
    let Some((_, s)) = session(&engine, &req) else { return see_other("/dashboard/login") };
    keys_page(&engine, &s, None, StatusCode::OK).await
}

#[derive(Deserialize)]
struct NewKeyForm {
    csrf: String,
    name: String,
    environment: Option<String>,
}

fn refused(s: &Session, title: &str) -> HttpResponse {
    let body =
        html! { p.error role="alert" { "The form was stale; nothing changed. Go back and try again." } };
    html_response(StatusCode::FORBIDDEN, page(title, Some(s), body))
}

fn csrf_ok(s: &Session, sent: &str) -> bool {
    pigeon_actors::credentials::hashes_match(sent, &s.csrf)
}

async fn create_key(
    engine: web::Data<Engine>,
    req: HttpRequest,
    form: Result<web::Form<NewKeyForm>, actix_web::Error>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let Ok(form) = form else { return refused(&s, "API keys") };
    if !csrf_ok(&s, &form.csrf) {
        return refused(&s, "API keys");
    }
    let Ok(handle) = engine.tenant(tenant) else { return refused(&s, "API keys") };
    let asked = match form.environment.as_deref() {
        Some("live") => Some(Environment::Live),
        Some("test") => Some(Environment::Test),
        _ => None,
    };
    let mine = session_environment(&handle, &s).await;
    let made = match crate::routes::keys::new_key_request(&form.name, asked, mine) {
        Ok((name, env)) => handle.create_key(name, None, env).await.map_err(crate::error::ApiError::from),
        Err(e) => Err(e),
    };
    match made {
        Ok(k) => {
            let notice = html! {
                div role="status" {
                    p { "Key " strong { (k.record.name) } " created. Copy it now: it is shown only this once." }
                    p { code id="new-key" { (k.key) } }
                }
            };
            keys_page(&engine, &s, Some(notice), StatusCode::CREATED).await
        }
        Err(e) => {
            let notice = html! { p.error role="alert" { (e.message()) } };
            keys_page(&engine, &s, Some(notice), StatusCode::BAD_REQUEST).await
        }
    }
}

async fn confirm_revoke(engine: web::Data<Engine>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let list = match engine.tenant(tenant) {
        Ok(h) => h.list_keys().await.unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let Some((k, _)) = list.into_iter().find(|(k, _)| k.id.to_string() == *id) else {
        let body = html! { p.error role="alert" { "No such key in this account." } };
        return html_response(StatusCode::NOT_FOUND, page("Revoke a key", Some(&s), body));
    };
    let body = html! {
        p { "Revoke " strong { (k.name) } " (" code { (k.hint) } ")? Calls with it fail from now on, and a dashboard session signed in with it ends. This cannot be undone." }
        form method="post" action={ "/dashboard/keys/" (k.id) "/revoke" } {
            input type="hidden" name="csrf" value=(s.csrf);
            button type="submit" { "Revoke" }
            " "
            a href="/dashboard/keys" { "Cancel" }
        }
    };
    html_response(StatusCode::OK, page("Revoke a key", Some(&s), body))
}

async fn revoke(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
    form: Result<web::Form<CsrfForm>, actix_web::Error>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    if !form.is_ok_and(|f| csrf_ok(&s, &f.csrf)) {
        return refused(&s, "Revoke a key");
    }
    let done = match (engine.tenant(tenant), ulid::Ulid::from_string(&id)) {
        (Ok(h), Ok(id)) => h.revoke_key(id).await.is_ok(),
        _ => false,
    };
    if !done {
        let body = html! { p.error role="alert" { "No such key in this account." } };
        return html_response(StatusCode::NOT_FOUND, page("Revoke a key", Some(&s), body));
    }
    // The session's own key may be the one revoked: the next page tells.
    see_other("/dashboard/keys")
}

/// Deliveries shown on an endpoint's page.
const DELIVERIES_SHOWN: usize = 50;

async fn webhooks(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
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
                tr { th scope="col" { "URL" } th scope="col" { "Events" } th scope="col" { "Secret" } th scope="col" { "" } }
                @for w in &list {
                    tr {
                        td { (w.url) }
                        td { (w.events.join(", ")) }
                        td { code { (pigeon_actors::credentials::hint(&w.secret)) } }
                        td { a href={ "/dashboard/webhooks/" (w.id) } { "Delivery log" } }
                    }
                }
            }
        }
    };
    html_response(StatusCode::OK, page("Webhooks", Some(&s), body))
}

async fn webhook_log(engine: web::Data<Engine>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
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
    let log = engine.reads(tenant).deliveries(w.id, None, DELIVERIES_SHOWN).unwrap_or_default();
    let body = html! {
        p { "Deliveries to " code { (w.url) } ", oldest first." }
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
                @if state != "pending" {
                    form method="post" action={ "/dashboard/webhooks/" (w.id) "/deliveries/" (d.id) "/retry" } {
                        input type="hidden" name="csrf" value=(s.csrf);
                        button type="submit" { "Retry" }
                    }
                }
            }
        }
    };
    html_response(StatusCode::OK, page("Delivery log", Some(&s), body))
}

async fn retry_delivery(
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
        let e = crate::error::ApiError::from(e);
        let body = html! { p.error role="alert" { (e.message()) } };
        return html_response(
            actix_web::ResponseError::status_code(&e),
            page("Delivery log", Some(&s), body),
        );
    }
    see_other(&format!("/dashboard/webhooks/{hook_id}"))
}

/// A tenant's session and its tenant, or where to send the browser instead.
fn tenant_session(engine: &Engine, req: &HttpRequest) -> Result<(Session, ulid::Ulid), &'static str> {
    let (_, s) = session(engine, req).ok_or("/dashboard/login")?;
    let tenant = s.tenant().ok_or("/dashboard/")?;
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

fn plan_name(p: pigeon_actors::storage::model::Plan) -> String {
    wire_name(p)
}

const PLANS: [&str; 4] = ["trial", "starter", "growth", "scale"];

#[derive(Deserialize)]
struct TenantsQuery {
    after: Option<String>,
}

async fn admin_tenants(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<TenantsQuery>,
) -> HttpResponse {
    let s = match operator(&engine, &req) {
        Ok(s) => s,
        Err(to) => return see_other(to),
    };
    let after = q.after.as_deref().and_then(|a| ulid::Ulid::from_string(a).ok());
    let mut list = engine.list_tenants(after, PER_PAGE + 1).unwrap_or_default();
    let next = (list.len() > PER_PAGE).then(|| {
        list.truncate(PER_PAGE);
        list.last().map(|(t, _)| t.id)
    });
    let body = html! {
        table {
            caption { "Tenants, oldest first" }
            tr { th scope="col" { "Name" } th scope="col" { "Plan" } th scope="col" { "Status" }
                 th scope="col" { "Calls this month" } th scope="col" { "" } }
            @for (t, u) in &list {
                tr {
                    td { (t.name) " " small { code { (t.id) } } }
                    td { (plan_name(t.plan)) }
                    td { (format!("{:?}", t.status).to_lowercase()) }
                    td { (u.api_calls_this_month) }
                    td { a href={ "/dashboard/admin/tenants/" (t.id) } { "Manage " (t.name) } }
                }
            }
        }
        @if let Some(Some(n)) = next { p { a href={ "/dashboard/admin/tenants?after=" (n) } { "More tenants" } } }
    };
    html_response(StatusCode::OK, page("Tenants", Some(&s), body))
}

async fn admin_tenant(engine: web::Data<Engine>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    let s = match operator(&engine, &req) {
        Ok(s) => s,
        Err(to) => return see_other(to),
    };
    admin_tenant_page(&engine, &s, &id, None).await
}

async fn admin_tenant_page(engine: &Engine, s: &Session, id: &str, notice: Option<Markup>) -> HttpResponse {
    let found = ulid::Ulid::from_string(id).ok().and_then(|id| engine.tenant_view(id).ok());
    let Some((t, u)) = found else {
        let body = html! { p.error role="alert" { "No such tenant." } };
        return html_response(StatusCode::NOT_FOUND, page("Tenant", Some(s), body));
    };
    let phones = match engine.tenant(t.id) {
        Ok(h) => h.phones().await.unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let suspended = t.status == pigeon_actors::storage::model::TenantStatus::Suspended;
    let body = html! {
        @if let Some(n) = notice { (n) }
        table {
            caption { (t.name) " " code { (t.id) } }
            tr { th scope="row" { "Plan" } td { (plan_name(t.plan)) } }
            tr { th scope="row" { "Status" } td { (format!("{:?}", t.status).to_lowercase()) } }
            tr { th scope="row" { "Calls this month" } td { (u.api_calls_this_month) } }
            tr { th scope="row" { "New contacts today" } td { (u.new_contacts_today) } }
        }
        form method="post" action={ "/dashboard/admin/tenants/" (t.id) } {
            input type="hidden" name="csrf" value=(s.csrf);
            @if suspended {
                input type="hidden" name="status" value="active";
                button type="submit" { "Reactivate" }
            } @else {
                input type="hidden" name="status" value="suspended";
                button type="submit" { "Suspend" }
            }
        }
        form method="post" action={ "/dashboard/admin/tenants/" (t.id) } {
            input type="hidden" name="csrf" value=(s.csrf);
            label for="plan" { "Plan" }
            select id="plan" name="plan" {
                @for p in PLANS { option value=(p) selected[plan_name(t.plan) == p] { (p) } }
            }
            div { button type="submit" { "Change plan" } }
        }
        h2 { "Phones" }
        @if phones.is_empty() { p { "No phones." } } @else {
            table {
                tr { th scope="col" { "Number" } th scope="col" { "Driver" } th scope="col" { "Online" } th scope="col" { "Sent today" } }
                @for p in &phones {
                    tr {
                        td { (p.record.number) }
                        td { (format!("{:?}", p.record.driver).to_lowercase()) }
                        td { @if p.online { "online" } @else { "offline" } }
                        td { (p.sent_today) " of " (p.record.daily_limit) }
                    }
                }
            }
        }
        p { a href="/dashboard/admin/tenants" { "All tenants" } }
    };
    html_response(StatusCode::OK, page("Tenant", Some(s), body))
}

/// A lowercase enum name as the API spells it (`suspended`, `growth`).
fn parse_name<T: serde::de::DeserializeOwned>(v: &Option<String>) -> Option<T> {
    v.as_deref().and_then(|v| serde_json::from_value(serde_json::Value::String(v.into())).ok())
}

#[derive(Deserialize)]
struct TenantChange {
    csrf: String,
    status: Option<String>,
    plan: Option<String>,
}

async fn admin_change_tenant(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
    form: Result<web::Form<TenantChange>, actix_web::Error>,
) -> HttpResponse {
    let s = match operator(&engine, &req) {
        Ok(s) => s,
        Err(to) => return see_other(to),
    };
    let Some(form) = form.ok().filter(|f| csrf_ok(&s, &f.csrf)) else { return refused(&s, "Tenant") };
    let patch = pigeon_actors::TenantPatch {
        plan: parse_name(&form.plan),
        status: parse_name(&form.status),
        subscription_active: None,
        trial_ends_at: None,
        new_contact_daily_limit: None,
        monthly_call_limit: None,
        quiet_hours: None,
    };
    let done = match ulid::Ulid::from_string(&id).ok().map(|id| engine.tenant(id)) {
        Some(Ok(h)) => h.patch(patch).await.map(|_| ()).map_err(crate::error::ApiError::from),
        _ => Err(crate::error::ApiError::NotFound("No such tenant.".into())),
    };
    let notice = match done {
        Ok(()) => html! { p role="status" { "Saved." } },
        Err(e) => html! { p.error role="alert" { (e.message()) } },
    };
    admin_tenant_page(&engine, &s, &id, Some(notice)).await
}

async fn admin_node(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
    let s = match operator(&engine, &req) {
        Ok(s) => s,
        Err(to) => return see_other(to),
    };
    let d = engine.depths().await;
    let c = engine.commit_stats();
    let body = html! {
        table {
            caption { "Work waiting" }
            tr { th scope="row" { "Messages queued for phones" } td { (d.queued) } }
            tr { th scope="row" { "Messages being sent" } td { (d.in_flight) } }
            tr { th scope="row" { "Messages held (quiet hours, send_at)" } td { (d.held) } }
            tr { th scope="row" { "Webhook deliveries pending" } td { (d.webhook_deliveries) } }
        }
        table {
            caption { "Store" }
            tr { th scope="row" { "Size on disk" } td { (format!("{:.1} MiB", engine.store_size() as f64 / 1048576.0)) } }
            tr { th scope="row" { "Writes since start" } td { (engine.store_writes()) } }
            tr { th scope="row" { "Flushes / commits" } td { (c.flushes) " / " (c.commits) } }
            tr { th scope="row" { "Running tenant actors" } td { (engine.running_tenants()) } }
        }
        p { "Webhook attempt outcomes and latencies: " a href="/metrics" { "/metrics" } " (Prometheus)." }
    };
    html_response(StatusCode::OK, page("Node", Some(&s), body))
}

#[derive(Deserialize)]
struct After {
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

async fn contacts(engine: web::Data<Engine>, req: HttpRequest, q: web::Query<After>) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let reads = engine.reads(tenant);
    let Some((list, next)) = paged("/dashboard/contacts", &q, |a, n| reads.contacts(a, n), |c| c.id) else {
        return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Contacts", Some(&s), unavailable()));
    };
    let body = html! {
        @if list.is_empty() { p { "No contacts yet: add them with " code { "POST /v1/contacts" } "." } } @else {
            table {
                caption { "Contacts, oldest first" }
                tr { th scope="col" { "Phone" } th scope="col" { "Name" } th scope="col" { "Time zone" } th scope="col" { "Attributes" } }
                @for c in &list {
                    tr {
                        td { (c.phone) }
                        td { (c.name.as_deref().unwrap_or("")) }
                        td { (c.timezone.as_deref().unwrap_or("")) }
                        td { (c.attributes.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")) }
                    }
                }
            }
        }
        @if let Some(href) = next { p { a href=(href) { "More contacts" } } }
    };
    html_response(StatusCode::OK, page("Contacts", Some(&s), body))
}

async fn templates(engine: web::Data<Engine>, req: HttpRequest, q: web::Query<After>) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let reads = engine.reads(tenant);
    let Some((list, next)) = paged("/dashboard/templates", &q, |a, n| reads.templates(a, n), |t| t.id) else {
        return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Templates", Some(&s), unavailable()));
    };
    let body = html! {
        @if list.is_empty() { p { "No templates yet: add them with " code { "POST /v1/templates" } "." } } @else {
            table {
                caption { "Templates, oldest first" }
                tr { th scope="col" { "Name" } th scope="col" { "Body" } th scope="col" { "Variables" } }
                @for t in &list {
                    tr { td { (t.name) } td { (t.body) } td { (t.variables.join(", ")) } }
                }
            }
        }
        @if let Some(href) = next { p { a href=(href) { "More templates" } } }
    };
    html_response(StatusCode::OK, page("Templates", Some(&s), body))
}

async fn campaigns(engine: web::Data<Engine>, req: HttpRequest, q: web::Query<After>) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let reads = engine.reads(tenant);
    let Some((list, next)) = paged("/dashboard/campaigns", &q, |a, n| reads.campaigns(a, n), |c| c.id) else {
        return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Campaigns", Some(&s), unavailable()));
    };
    let body = html! {
        @if list.is_empty() { p { "No campaigns yet: create one with " code { "POST /v1/campaigns" } "." } } @else {
            table {
                caption { "Campaigns, oldest first" }
                tr { th scope="col" { "Name" } th scope="col" { "Status" } th scope="col" { "Progress" } th scope="col" { "Skipped" } }
                @for c in &list {
                    @let status = wire_name(c.status);
                    tr {
                        td { (c.name) @if c.test { " (test)" } }
                        td { (status) }
                        td { (c.processed) " of " (c.total) }
                        td { (c.skipped.values().sum::<u64>()) }
                    }
                }
            }
        }
        @if let Some(href) = next { p { a href=(href) { "More campaigns" } } }
    };
    html_response(StatusCode::OK, page("Campaigns", Some(&s), body))
}
