//! `/v1/settings`: what the tenant decides for itself: the replies to a recipient's STOP, START
//! and HELP, and its quiet hours.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use pigeon_actors::storage::model::TenantRecord;
use pigeon_actors::{Engine, QuietHoursPatch, TenantPatch};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::admin::{QuietHoursBody, QuietHoursPatchBody};
use super::{reply, DataBody, ErrorBody};
use crate::error::ApiError;
use crate::extract::{Json, Tenant};

/// A tenant's settings.
#[derive(Serialize, ToSchema)]
pub struct SettingsView {
    /// Texted once to a number whose STOP opted it out; null sends nothing.
    pub opt_out_reply: Option<String>,
    /// Texted to a number whose START opted it back in; null sends nothing.
    pub opt_in_reply: Option<String>,
    /// Texted to a number that sends HELP or INFO; null (the default) sends nothing.
    pub help_reply: Option<String>,
    /// Quiet hours, in the recipient's local time.
    pub quiet_hours: QuietHoursBody,
}

impl From<TenantRecord> for SettingsView {
    fn from(t: TenantRecord) -> Self {
        Self {
            opt_out_reply: t.replies.opt_out_reply,
            opt_in_reply: t.replies.opt_in_reply,
            help_reply: t.replies.help_reply,
            quiet_hours: t.quiet_hours.into(),
        }
    }
}

/// Body of `PATCH /v1/settings`: a field left out keeps its value; null turns a reply off.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchSettings {
    /// 1–10,000 characters, or null.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(value_type = Option<String>)]
    pub opt_out_reply: Option<Option<String>>,
    /// 1–10,000 characters, or null.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(value_type = Option<String>)]
    pub opt_in_reply: Option<Option<String>>,
    /// 1–10,000 characters, or null.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(value_type = Option<String>)]
    pub help_reply: Option<Option<String>>,
    /// Changes to the quiet-hours window: only the fields given change.
    #[serde(default, deserialize_with = "super::object")]
    pub quiet_hours: Option<QuietHoursPatchBody>,
}

/// The tenant's settings.
#[utoipa::path(get, path = "/v1/settings", tag = "settings", security(("api_key" = [])),
    responses((status = 200, body = DataBody<SettingsView>)))]
pub async fn get(tenant: Tenant, engine: web::Data<Engine>) -> Result<HttpResponse, ApiError> {
    let t = engine.reads(tenant.id).tenant()?;
    Ok(reply(StatusCode::OK, SettingsView::from(t)))
}

/// Changes the keyword replies or the quiet hours.
#[utoipa::path(patch, path = "/v1/settings", tag = "settings", security(("api_key" = [])),
    request_body = PatchSettings,
    responses((status = 200, body = DataBody<SettingsView>), (status = 400, body = ErrorBody)))]
pub async fn patch(
    tenant: Tenant,
    body: Result<Json<PatchSettings>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let patch = TenantPatch {
        opt_out_reply: b.opt_out_reply,
        opt_in_reply: b.opt_in_reply,
        help_reply: b.help_reply,
        quiet_hours: b.quiet_hours.map(QuietHoursPatch::from),
        ..Default::default()
    };
    let t = tenant.handle.patch(patch).await?;
    Ok(reply(StatusCode::OK, SettingsView::from(t)))
}
