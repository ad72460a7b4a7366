//! The tenant's settings: the replies to STOP, START and HELP, quiet hours, and the numbers
//! opted out.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use pigeon_actors::storage::model::{Scope, TenantRecord};
use pigeon_actors::{Engine, QuietHoursPatch, TenantPatch};
use serde::Deserialize;

use super::keys::session_key;
use super::*;

/// Opt-outs listed on the page; the rest are in `GET /v1/opt-outs`.
const OPT_OUTS_SHOWN: usize = 50;

pub(super) async fn settings(engine: web::Data<Engine>, req: HttpRequest) -> HttpResponse {
    let (s, _) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    settings_page(&engine, &s, None, StatusCode::OK).await
}

async fn settings_page(
    engine: &Engine,
    s: &Session,
    notice: Option<Markup>,
    status: StatusCode,
) -> HttpResponse {
    let Some(tenant) = s.tenant() else { return see_other("/dashboard/") };
    let reads = engine.reads(tenant);
    let (Ok(t), Ok(handle)) = (reads.tenant(), engine.tenant(tenant)) else {
        return html_response(StatusCode::SERVICE_UNAVAILABLE, page("Settings", Some(s), unavailable()));
    };
    let may_change = session_key(&handle, s).await.1.has(Scope::Manage);
    let mut opt_outs = reads.opt_outs(None, OPT_OUTS_SHOWN + 1).unwrap_or_default();
    let more = opt_outs.len() > OPT_OUTS_SHOWN;
    opt_outs.truncate(OPT_OUTS_SHOWN);
    let body = html! {
        @if let Some(n) = notice { (n) }
        (settings_form(s, &t, may_change))
        h2 { "Opt-outs" }
        @if opt_outs.is_empty() { p { "No number has opted out." } } @else {
            table {
                caption { "Numbers that may not be messaged, in number order" }
                tr { th scope="col" { "Phone" } th scope="col" { "Since" } th scope="col" { "How" } }
                @for o in &opt_outs {
                    tr {
                        td { (o.phone) }
                        td { (o.opted_out_at.as_ref().map(ts).unwrap_or_default()) }
                        td { @match &o.keyword { Some(k) => { "texted " (k) }, None => { "through the API" } } }
                    }
                }
            }
            @if more { p { "More in " code { "GET /v1/opt-outs" } "." } }
        }
    };
    html_response(status, page("Settings", Some(s), body))
}

fn settings_form(s: &Session, t: &TenantRecord, may_change: bool) -> Markup {
    let r = &t.replies;
    let q = &t.quiet_hours;
    let reply = |name: &str, label: &str, value: &Option<String>| {
        html! {
            label for=(name) { (label) }
            textarea id=(name) name=(name) rows="2" cols="60" disabled[!may_change] {
                (value.as_deref().unwrap_or(""))
            }
        }
    };
    html! {
        form.settings method="post" action="/dashboard/settings" {
            input type="hidden" name="csrf" value=(s.csrf);
            p { "Replies are texted from the phone that got the keyword; leave one empty to send none." }
            (reply("opt_out_reply", "Reply to STOP", &r.opt_out_reply))
            (reply("opt_in_reply", "Reply to START", &r.opt_in_reply))
            (reply("help_reply", "Reply to HELP", &r.help_reply))
            fieldset {
                legend { "Quiet hours, in the recipient's local time" }
                input type="checkbox" id="quiet_enabled" name="quiet_enabled" checked[q.enabled] disabled[!may_change];
                label.inline for="quiet_enabled" { "Hold messages during quiet hours" }
                label for="quiet_start" { "From" }
                input type="time" id="quiet_start" name="quiet_start" value=(q.start) required disabled[!may_change];
                label for="quiet_end" { "Until" }
                input type="time" id="quiet_end" name="quiet_end" value=(q.end) required disabled[!may_change];
                label for="quiet_timezone" { "Zone when a recipient's is unknown (IANA; empty: UTC)" }
                input type="text" id="quiet_timezone" name="quiet_timezone"
                    value=(q.timezone.as_deref().unwrap_or("")) disabled[!may_change];
            }
            @if may_change { button type="submit" { "Save" } } @else {
                p { "Changing settings needs a key with the " code { "manage" } " scope." }
            }
        }
    }
}

#[derive(Deserialize)]
pub(super) struct SettingsForm {
    csrf: String,
    opt_out_reply: String,
    opt_in_reply: String,
    help_reply: String,
    /// `on` when ticked; absent otherwise.
    quiet_enabled: Option<String>,
    quiet_start: String,
    quiet_end: String,
    quiet_timezone: String,
}

/// Empty (or only spaces) is "send none".
fn text(v: String) -> Option<String> {
    (!v.trim().is_empty()).then_some(v)
}

pub(super) async fn save_settings(
    engine: web::Data<Engine>,
    req: HttpRequest,
    form: Result<web::Form<SettingsForm>, actix_web::Error>,
) -> HttpResponse {
    let (s, tenant) = match tenant_session(&engine, &req) {
        Ok(v) => v,
        Err(to) => return see_other(to),
    };
    let Some(web::Form(f)) = form.ok().filter(|f| csrf_ok(&s, &f.csrf)) else {
        return refused(&s, "Settings");
    };
    let Ok(handle) = engine.tenant(tenant) else { return refused(&s, "Settings") };
    if !session_key(&handle, &s).await.1.has(Scope::Manage) {
        let notice = html! { p.error role="alert" { (pigeon_actors::lacks(Scope::Manage)) } };
        return settings_page(&engine, &s, Some(notice), StatusCode::FORBIDDEN).await;
    }
    let patch = TenantPatch {
        opt_out_reply: Some(text(f.opt_out_reply)),
        opt_in_reply: Some(text(f.opt_in_reply)),
        help_reply: Some(text(f.help_reply)),
        quiet_hours: Some(QuietHoursPatch {
            enabled: Some(f.quiet_enabled.is_some()),
            start: Some(f.quiet_start),
            end: Some(f.quiet_end),
            timezone: Some(text(f.quiet_timezone).map(|z| z.trim().to_owned())),
        }),
        ..Default::default()
    };
    let (notice, status) = match handle.patch(patch).await {
        Ok(_) => (html! { p role="status" { "Saved." } }, StatusCode::OK),
        Err(e) => {
            let e = crate::error::ApiError::from(e);
            (html! { p.error role="alert" { (e.message()) } }, actix_web::ResponseError::status_code(&e))
        }
    };
    settings_page(&engine, &s, Some(notice), status).await
}
