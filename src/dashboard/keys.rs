//! API keys: the list, a new key shown once, and revoking after a confirmation.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use pigeon_actors::Engine;
use serde::Deserialize;

use pigeon_actors::storage::model::{Environment, SessionPrincipal};

use super::*;

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

pub(super) async fn keys(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
    let Some((_, s)) = session(&engine, &req) else { return see_other("/dashboard/login") };
    keys_page(&engine, &s, None, StatusCode::OK).await
}

#[derive(Deserialize)]
pub(super) struct NewKeyForm {
    csrf: String,
    name: String,
    environment: Option<String>,
}

pub(super) async fn create_key(
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

pub(super) async fn confirm_revoke(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
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

pub(super) async fn revoke(
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
