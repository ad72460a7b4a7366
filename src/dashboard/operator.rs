//! The operator's pages: tenants (suspend, reactivate, change plan), phones and the node.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use pigeon_actors::Engine;
use serde::Deserialize;

use super::*;

fn plan_name(p: pigeon_actors::storage::model::Plan) -> String {
    wire_name(p)
}

const PLANS: [&str; 4] = ["trial", "starter", "growth", "scale"];

#[derive(Deserialize)]
pub(super) struct TenantsQuery {
    after: Option<String>,
}

pub(super) async fn admin_tenants(
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

pub(super) async fn admin_tenant(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
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
                tr { th scope="col" { "Number" } th scope="col" { "Driver" } th scope="col" { "Online" }
                     th scope="col" { "Last poll" } th scope="col" { "Agent" } th scope="col" { "Sent today" } }
                @for p in &phones {
                    tr {
                        td { (p.record.number) }
                        td { (format!("{:?}", p.record.driver).to_lowercase()) }
                        td { @if p.online { "online" } @else { "offline" } }
                        td { (last_poll(p)) }
                        td { (p.agent.as_deref().unwrap_or("—")) }
                        td { (p.sent_today) " of " (p.record.daily_limit) }
                    }
                }
            }
        }
        p { a href="/dashboard/admin/tenants" { "All tenants" } }
    };
    html_response(StatusCode::OK, page("Tenant", Some(s), body))
}

/// An agent's last call, to the second (UTC); a dash for a sim or an agent not heard from.
fn last_poll(p: &pigeon_actors::PhoneView) -> String {
    p.last_poll_at.map_or_else(|| "—".to_owned(), |t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string())
}

/// A lowercase enum name as the API spells it (`suspended`, `growth`).
fn parse_name<T: serde::de::DeserializeOwned>(v: &Option<String>) -> Option<T> {
    v.as_deref().and_then(|v| serde_json::from_value(serde_json::Value::String(v.into())).ok())
}

#[derive(Deserialize)]
pub(super) struct TenantChange {
    csrf: String,
    status: Option<String>,
    plan: Option<String>,
}

pub(super) async fn admin_change_tenant(
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
        ..Default::default()
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

pub(super) async fn admin_node(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
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
            tr { th scope="row" { "Tenants passivated since start" } td { (engine.passivations()) } }
        }
        @let outcomes = engine.webhook_outcomes();
        table {
            caption { "Webhook attempts since start" }
            @if outcomes.is_empty() {
                tr { td { "None yet." } }
            }
            @for (kind, n) in &outcomes {
                tr { th scope="row" { (kind.replace('_', " ")) } td { (n) } }
            }
        }
        @if engine.in_fleet() {
            @match engine.nodes() {
                Ok(nodes) => {
                    table {
                        caption { "Fleet: the live nodes on this database" }
                        tr { th scope="col" { "Node" } th scope="col" { "Address" } th scope="col" { "Version" }
                             th scope="col" { "Tenants owned" } th scope="col" { "Last renewal" } th scope="col" { "Started" } }
                        @for n in &nodes {
                            tr {
                                td { (n.id) @if engine.node_id() == Some(n.id.as_str()) { " (this node)" } }
                                td { (n.url) }
                                td { (n.version) }
                                td { (n.tenants) }
                                td { (n.renewed_at.format("%Y-%m-%d %H:%M:%S UTC")) }
                                td { (n.started_at.format("%Y-%m-%d %H:%M:%S UTC")) }
                            }
                        }
                    }
                }
                Err(_) => { p.error role="alert" { "The fleet cannot be read: the database does not answer." } }
            }
        }
        p { "Latencies and the same counts for scraping: " a href="/metrics" { "/metrics" } " (Prometheus)." }
    };
    html_response(StatusCode::OK, page("Node", Some(&s), body))
}

pub(super) async fn admin_phones(
    engine: web::Data<Engine>,
    req: HttpRequest,
    q: web::Query<After>,
) -> HttpResponse {
    let s = match operator(&engine, &req) {
        Ok(s) => s,
        Err(to) => return see_other(to),
    };
    let Some((list, next)) =
        paged("/dashboard/admin/phones", &q, |a, n| engine.list_phones(a, n), |p| p.record.id)
    else {
        return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Phones", Some(&s), unavailable()));
    };
    // Each tenant's name once per page, from the store.
    let mut names: std::collections::HashMap<ulid::Ulid, String> = std::collections::HashMap::new();
    for p in &list {
        if let std::collections::hash_map::Entry::Vacant(e) = names.entry(p.record.tenant_id) {
            e.insert(engine.tenant_record(p.record.tenant_id).map(|t| t.name).unwrap_or_default());
        }
    }
    let body = html! {
        @if list.is_empty() { p { "No phones yet: add them with " code { "POST /admin/v1/phones" } "." } } @else {
            table {
                caption { "Phones, by tenant" }
                tr { th scope="col" { "Number" } th scope="col" { "Tenant" } th scope="col" { "Driver" }
                     th scope="col" { "Enabled" } th scope="col" { "Online" } th scope="col" { "Last poll" }
                     th scope="col" { "Agent" } th scope="col" { "Sent today" } }
                @for p in &list {
                    tr {
                        td { (p.record.number) }
                        td { a href={ "/dashboard/admin/tenants/" (p.record.tenant_id) } { (names[&p.record.tenant_id]) } }
                        td { (wire_name(p.record.driver)) }
                        td {
                            @if p.record.enabled { "yes" } @else { "disabled" }
                            @if let Some(why) = &p.record.disabled_reason { br; small.disabled-reason { (why) } }
                        }
                        td { @if p.online { "online" } @else { "offline" } }
                        td { (last_poll(p)) }
                        td { (p.agent.as_deref().unwrap_or("—")) }
                        td { (p.sent_today) " of " (p.record.daily_limit) }
                    }
                }
            }
        }
        @if let Some(href) = next { p { a href=(href) { "More phones" } } }
    };
    html_response(StatusCode::OK, page("Phones", Some(&s), body))
}
