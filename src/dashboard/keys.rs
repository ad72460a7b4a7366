//! API keys: the list, a new key shown once, and revoking after a confirmation.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use pigeon_actors::Engine;
use serde::Deserialize;

use pigeon_actors::storage::model::{Environment, Scope, Scopes, SessionPrincipal};

use super::*;

/// The environment new keys get by default: the signing-in key's; live for a provider's token.
/// The signed-in key's mode and scopes (an identity provider's sign-in: live, all scopes); a key
/// revoked meanwhile counts as test, with none.
pub(super) async fn session_key(handle: &pigeon_actors::TenantHandle, s: &Session) -> (Environment, Scopes) {
    match &s.principal {
        SessionPrincipal::Key { key_id, .. } => handle
            .list_keys()
            .await
            .ok()
            .and_then(|ks| {
                ks.into_iter().find(|(k, _)| k.id == *key_id).map(|(k, _)| (k.environment, k.scopes))
            })
            .unwrap_or((Environment::Test, Scopes::of([]))),
        _ => (Environment::Live, Scopes::ALL),
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
    let (mine, my_scopes) = session_key(&handle, s).await;
    let body = html! {
        @if let Some(n) = notice { (n) }
        table {
            caption { "Keys in use" }
            tr { th scope="col" { "Name" } th scope="col" { "Key" } th scope="col" { "Environment" }
                 th scope="col" { "Scopes" } th scope="col" { "Active" } th scope="col" { "Last used" } th scope="col" { "" } }
            @for (k, _) in &list {
                tr {
                    td { (k.name) }
                    td { code { (k.hint) } }
                    td { (env_name(k.environment)) }
                    td { (k.scopes.list().iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ")) }
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
            fieldset {
                legend { "Scopes" }
                @for scope in Scope::ALL {
                    @let id = format!("scope-{}", scope.as_str());
                    @if my_scopes.has(scope) {
                        input type="checkbox" id=(id) name=(scope.as_str()) checked;
                    } @else {
                        input type="checkbox" id=(id) name=(scope.as_str()) disabled;
                    }
                    label for=(id) { (scope.as_str()) }
                    " "
                }
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
    /// The scope checkboxes (`on` when ticked).
    send: Option<String>,
    read: Option<String>,
    manage: Option<String>,
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
    let (mine, allowed) = session_key(&handle, &s).await;
    let ticked: Vec<String> = [("send", &form.send), ("read", &form.read), ("manage", &form.manage)]
        .into_iter()
        .filter(|(_, v)| v.is_some())
        .map(|(n, _)| n.to_owned())
        .collect();
    let asked_scopes = crate::routes::keys::key_scopes(Some(ticked), allowed, allowed);
    let made = match (crate::routes::keys::new_key_request(&form.name, asked, mine), asked_scopes) {
        (Ok((name, env)), Ok(scopes)) => {
            handle.create_key(name, None, env, scopes).await.map_err(crate::error::ApiError::from)
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
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
