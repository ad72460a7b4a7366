//! Read-only lists of contacts, templates and campaigns.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use pigeon_actors::Engine;

use super::*;

pub(super) async fn contacts(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<After>,
) -> HttpResponse {
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

pub(super) async fn templates(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<After>,
) -> HttpResponse {
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

pub(super) async fn campaigns(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<After>,
) -> HttpResponse {
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
