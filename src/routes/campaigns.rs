//! `/v1/campaigns`: one text or template to many recipients.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Audience, CampaignRecord, CampaignStatus, Channel, MessageStatus};
use pigeon_actors::NewCampaign;
use pigeon_actors::{Engine, TenantReads};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::messages::{RequestedChannel, MAX_BODY_CHARS};
use super::{page as list_page, reply, DataBody, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{Json, Page, Tenant};

/// Most recipients a campaign may list.
const MAX_RECIPIENTS: usize = 100_000;

/// Body of `POST /v1/campaigns`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateCampaign {
    /// Label, 1–200 characters.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// Text, 1–10,000 characters; or
    #[serde(default)]
    #[schema(min_length = 1, max_length = 10000)]
    pub body: Option<String>,
    /// a template name or id.
    #[serde(default)]
    pub template: Option<String>,
    /// Shared template values (each recipient's contact attributes fill the rest).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub data: Option<serde_json::Map<String, serde_json::Value>>,
    /// `auto` (default), `imessage` or `sms`.
    #[serde(default)]
    pub channel: RequestedChannel,
    /// Up to 20 string values of the tenant's own, given to every message (as on a send).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
    /// Each message's `valid_for` (10–259,200 s from its own acceptance), as on a send.
    #[serde(default)]
    #[schema(minimum = 10, maximum = 259200)]
    pub valid_for: Option<u32>,
    /// Recipients: these contacts, or
    #[serde(default)]
    pub contact_ids: Option<Vec<String>>,
    /// these numbers (E.164, at most 100,000), or
    #[serde(default)]
    #[schema(max_items = 100000)]
    pub phones: Option<Vec<String>>,
    /// every contact at launch.
    #[serde(default)]
    pub all_contacts: Option<bool>,
    /// 1–10 attachments every message carries, as on a send: media ids, or `{"url"}`s fetched
    /// once, when the campaign is created.
    #[serde(default)]
    #[schema(min_items = 1, max_items = 10)]
    pub media: Option<Vec<super::send_media::MediaItem>>,
}

/// Counts of a campaign's messages by status.
#[derive(Serialize, ToSchema, Default)]
pub struct Counts {
    /// Waiting (or held).
    pub queued: u64,
    /// With a phone.
    pub sending: u64,
    /// Sent.
    pub sent: u64,
    /// Delivered (and not yet read).
    pub delivered: u64,
    /// Read by the recipient.
    pub read: u64,
    /// Failed.
    pub failed: u64,
    /// Cancelled.
    pub cancelled: u64,
}

/// A campaign.
#[derive(Serialize, ToSchema)]
pub struct CampaignView {
    /// Campaign id.
    pub id: String,
    /// Label.
    pub name: String,
    /// `draft`, `running`, `completed` or `cancelled`.
    #[schema(value_type = String)]
    pub status: CampaignStatus,
    /// Text, if not a template.
    pub body: Option<String>,
    /// Template name or id, if used.
    pub template: Option<String>,
    /// Shared template values.
    #[schema(value_type = Object)]
    pub data: serde_json::Map<String, serde_json::Value>,
    /// Requested channel.
    #[schema(value_type = String)]
    pub channel: Channel,
    /// The tenant's own values given to every message (`{}` when none).
    #[schema(value_type = Object)]
    pub metadata: BTreeMap<String, String>,
    /// Each message's `valid_for`, seconds.
    pub valid_for: Option<u32>,
    /// Attachments of every message, links signed now (`[]` when none).
    pub media: Vec<super::media::AttachmentView>,
    /// `{contact_ids: [...]}`, `{phones: [...]}` or `"all_contacts"`.
    #[schema(value_type = Object)]
    pub audience: Audience,
    /// Recipients resolved at launch.
    pub total: u64,
    /// Recipients handled so far (sent or skipped).
    pub processed: u64,
    /// Messages accepted, by current status (kept current as they move).
    pub counts: Counts,
    /// Recipients not sent, by the code that refused them.
    pub skipped: BTreeMap<String, u64>,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// Launch time.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub launched_at: Option<DateTime<Utc>>,
    /// Completion or cancellation time.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub finished_at: Option<DateTime<Utc>>,
}

fn view(engine: &Engine, reads: &TenantReads, c: CampaignRecord) -> Result<CampaignView, ApiError> {
    let mut counts = Counts::default();
    for (status, n) in reads.campaign_counts(c.id)? {
        match status {
            MessageStatus::Queued => counts.queued += n,
            MessageStatus::Sending => counts.sending += n,
            MessageStatus::Sent => counts.sent += n,
            MessageStatus::Delivered => counts.delivered += n,
            MessageStatus::Read => counts.read += n,
            MessageStatus::Failed => counts.failed += n,
            MessageStatus::Cancelled => counts.cancelled += n,
            MessageStatus::Received => {}
        }
    }
    Ok(CampaignView {
        id: c.id.to_string(),
        name: c.name,
        status: c.status,
        body: c.body,
        template: c.template,
        data: c.data,
        channel: c.channel,
        metadata: c.metadata,
        valid_for: c.valid_for,
        media: super::media::attachments(&c.media, engine),
        audience: c.audience,
        total: c.total,
        processed: c.processed,
        counts,
        skipped: c.skipped,
        created_at: c.created_at,
        launched_at: c.launched_at,
        finished_at: c.finished_at,
    })
}

fn campaign_id(s: &str) -> Result<ulid::Ulid, ApiError> {
    ulid::Ulid::from_string(s).map_err(|_| ApiError::CampaignNotFound)
}

/// Creates a draft campaign with a body or a template, shared `data`, and recipients.
#[utoipa::path(post, path = "/v1/campaigns", tag = "campaigns", security(("api_key" = [])),
    request_body = CreateCampaign,
    responses((status = 201, body = DataBody<CampaignView>), (status = 400, body = ErrorBody),
        (status = 404, description = "CONTACT_NOT_FOUND", body = ErrorBody)))]
pub async fn create(
    tenant: Tenant,
    engine: web::Data<Engine>,
    settings: web::Data<super::media::MediaSettings>,
    body: Result<Json<CreateCampaign>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let name = b.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(ApiError::Validation("name: must be 1 to 200 characters".into()));
    }
    let metadata = super::messages::parse_metadata(b.metadata)?;
    let valid_for = super::messages::check_valid_for(b.valid_for)?;
    match (&b.body, &b.template) {
        (Some(_), Some(_)) => {
            return Err(ApiError::Validation("body: give either body or template, not both".into()))
        }
        (None, None) if b.media.is_none() => {
            return Err(ApiError::Validation("body: required (or a template, or media)".into()))
        }
        (Some(t), None) if t.is_empty() || t.chars().count() > MAX_BODY_CHARS => {
            return Err(ApiError::Validation(format!("body: must be 1 to {MAX_BODY_CHARS} characters")))
        }
        _ => {}
    }
    let audience = match (b.contact_ids, b.phones, b.all_contacts) {
        (Some(ids), None, None | Some(false)) if !ids.is_empty() && ids.len() <= MAX_RECIPIENTS => Audience::ContactIds(
            ids.iter().map(|i| ulid::Ulid::from_string(i).map_err(|_| ApiError::ContactNotFound)).collect::<Result<_, _>>()?,
        ),
        (None, Some(phones), None | Some(false)) if !phones.is_empty() && phones.len() <= MAX_RECIPIENTS => {
            let mut v = Vec::with_capacity(phones.len());
            for (i, p) in phones.iter().enumerate() {
                let n = PhoneNumber::parse(p)
                    .ok_or_else(|| ApiError::InvalidPhoneNumber(format!("phones[{i}]: {p:?} is not E.164")))?;
                v.push(n.as_str().to_owned());
            }
            Audience::Phones(v)
        }
        (None, None, Some(true)) => Audience::AllContacts,
        _ => {
            return Err(ApiError::Validation(format!(
                "contact_ids: give exactly one of contact_ids, phones (1 to {MAX_RECIPIENTS} each) or all_contacts: true"
            )))
        }
    };
    let wanted = b.media.map(super::send_media::check_items).transpose()?.unwrap_or_default();
    let (mut media, urls) = super::send_media::resolve_ids(&engine, tenant.id, wanted)?;
    if !urls.is_empty() {
        super::send_media::fetch_into(&engine, &settings, &mut media, tenant.id, urls).await?;
    }
    let channel = b.channel.into();
    let test = tenant.environment == pigeon_actors::storage::model::Environment::Test;
    let new = NewCampaign {
        name,
        body: b.body,
        template: b.template,
        data: b.data.unwrap_or_default(),
        channel,
        metadata,
        valid_for,
        audience,
        test,
        media,
    };
    let c = tenant.handle.create_campaign(new).await?;
    Ok(reply(StatusCode::CREATED, view(&engine, &engine.reads(tenant.id), c)?))
}

/// The account's campaigns, oldest first.
#[utoipa::path(get, path = "/v1/campaigns", tag = "campaigns", security(("api_key" = [])),
    params(("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<CampaignView>)))]
pub async fn list(
    tenant: Tenant,
    engine: web::Data<Engine>,
    page: Result<Page, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let reads = engine.reads(tenant.id);
    let items = reads.campaigns(page.after, page.limit + 1)?;
    let items = items.into_iter().map(|c| view(&engine, &reads, c)).collect::<Result<Vec<_>, _>>()?;
    Ok(list_page(items, page.limit, |c| c.id.parse().unwrap_or_default()))
}

/// One campaign with its counts.
#[utoipa::path(get, path = "/v1/campaigns/{id}", tag = "campaigns", security(("api_key" = [])),
    params(("id" = String, Path, description = "campaign id")),
    responses((status = 200, body = DataBody<CampaignView>), (status = 404, description = "CAMPAIGN_NOT_FOUND", body = ErrorBody)))]
pub async fn get(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let reads = engine.reads(tenant.id);
    let c = reads.campaign(campaign_id(&id)?)?;
    Ok(reply(StatusCode::OK, view(&engine, &reads, c)?))
}

/// Launches a draft: 202, recipients are sent in the background.
#[utoipa::path(post, path = "/v1/campaigns/{id}/launch", tag = "campaigns", security(("api_key" = [])),
    params(("id" = String, Path, description = "campaign id")),
    responses((status = 202, body = DataBody<CampaignView>), (status = 404, body = ErrorBody),
        (status = 409, description = "INVALID_STATUS_TRANSITION: not a draft", body = ErrorBody)))]
pub async fn launch(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let c = tenant.handle.launch_campaign(campaign_id(&id)?).await?;
    Ok(reply(StatusCode::ACCEPTED, view(&engine, &engine.reads(tenant.id), c)?))
}

/// Cancels a draft or running campaign: no further recipients are sent.
#[utoipa::path(post, path = "/v1/campaigns/{id}/cancel", tag = "campaigns", security(("api_key" = [])),
    params(("id" = String, Path, description = "campaign id")),
    responses((status = 200, body = DataBody<CampaignView>), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn cancel(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let c = tenant.handle.cancel_campaign(campaign_id(&id)?).await?;
    Ok(reply(StatusCode::OK, view(&engine, &engine.reads(tenant.id), c)?))
}
