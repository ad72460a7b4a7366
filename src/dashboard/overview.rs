//! The tenant's Overview: usage against the plan, phones, and the last 24 hours by the hour.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use pigeon_actors::Engine;

use pigeon_actors::storage::model::SessionPrincipal;

use super::*;

pub(super) async fn overview(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
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
        SessionPrincipal::Operator { .. } => "the operator token",
    };
    let last_day = engine.reads(tenant).last_day(engine.clock().now()).unwrap_or_default();
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
        h2 { "Last 24 hours" }
        (super::chart::last_day(&last_day))
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
