//! `/v1/contacts`: recipients the tenant knows by name, time zone and attributes.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::ContactRecord;
use pigeon_actors::ContactChanges;
use pigeon_actors::{Engine, TenantReads};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{page as list_page, reply, DataBody, Deleted, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{Json, Page, Tenant};

/// Body of `POST /v1/contacts`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateContact {
    /// E.164, unique in the account.
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub phone: String,
    /// Display name.
    #[serde(default)]
    pub name: Option<String>,
    /// IANA time zone (quiet hours use it).
    #[serde(default)]
    pub timezone: Option<String>,
    /// String attributes; they also fill template variables.
    #[serde(default)]
    pub attributes: Option<BTreeMap<String, String>>,
}

/// Body of `PATCH /v1/contacts/{id}`; `null` clears `name` or `timezone`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchContact {
    /// New phone (E.164, unique).
    #[serde(default)]
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub phone: Option<String>,
    /// Display name.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(value_type = Option<String>)]
    pub name: Option<Option<String>>,
    /// IANA zone.
    #[serde(default, deserialize_with = "super::nullable")]
    #[schema(value_type = Option<String>)]
    pub timezone: Option<Option<String>>,
    /// Replaces every attribute.
    #[serde(default)]
    pub attributes: Option<BTreeMap<String, String>>,
}

/// A contact.
#[derive(Serialize, ToSchema)]
pub struct ContactView {
    /// Contact id.
    pub id: String,
    /// E.164 number.
    pub phone: String,
    /// Display name.
    pub name: Option<String>,
    /// IANA zone.
    pub timezone: Option<String>,
    /// Attributes.
    pub attributes: BTreeMap<String, String>,
    /// The number sent STOP (and not START since).
    pub opted_out: bool,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub updated_at: DateTime<Utc>,
}

fn view(reads: &TenantReads, c: ContactRecord) -> Result<ContactView, ApiError> {
    let opted_out = reads.is_opted_out(&c.phone)?;
    Ok(ContactView {
        id: c.id.to_string(),
        phone: c.phone,
        name: c.name,
        timezone: c.timezone,
        attributes: c.attributes,
        opted_out,
        created_at: c.created_at,
        updated_at: c.updated_at,
    })
}

fn contact_id(s: &str) -> Result<ulid::Ulid, ApiError> {
    ulid::Ulid::from_string(s).map_err(|_| ApiError::ContactNotFound)
}

fn phone(field: &str, s: &str) -> Result<PhoneNumber, ApiError> {
    PhoneNumber::parse(s).ok_or_else(|| {
        ApiError::InvalidPhoneNumber(format!("{field}: {s:?} is not E.164: + then 10 to 15 digits"))
    })
}

/// Creates a contact. A phone already in the account is 409 `DUPLICATE_CONTACT` with the
/// existing contact's id in `contact_id`.
#[utoipa::path(post, path = "/v1/contacts", tag = "contacts", security(("api_key" = [])),
    request_body = CreateContact,
    responses((status = 201, body = DataBody<ContactView>), (status = 400, body = ErrorBody),
        (status = 409, description = "DUPLICATE_CONTACT, with contact_id", body = ErrorBody)))]
pub async fn create(
    tenant: Tenant,
    engine: web::Data<Engine>,
    body: Result<Json<CreateContact>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let changes = ContactChanges {
        phone: Some(phone("phone", &b.phone)?),
        name: Some(b.name),
        timezone: Some(b.timezone),
        attributes: b.attributes,
    };
    let c = tenant.handle.put_contact(None, changes).await?;
    Ok(reply(StatusCode::CREATED, view(&engine.reads(tenant.id), c)?))
}

/// Query of the contact list.
#[derive(Deserialize)]
pub struct ContactQuery {
    phone: Option<String>,
}

/// The account's contacts, oldest first; `?phone=` looks one up by number.
#[utoipa::path(get, path = "/v1/contacts", tag = "contacts", security(("api_key" = [])),
    params(("phone" = Option<String>, Query, description = "E.164 number to look up"),
        ("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<ContactView>)))]
pub async fn list(
    tenant: Tenant,
    engine: web::Data<Engine>,
    page: Result<Page, ApiError>,
    q: web::Query<ContactQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let reads = engine.reads(tenant.id);
    let found = match &q.phone {
        Some(p) => {
            reads.contact_by_phone(&super::message_list::phone_filter("phone", p)?)?.into_iter().collect()
        }
        None => reads.contacts(page.after, page.limit + 1)?,
    };
    let items = found.into_iter().map(|c| view(&reads, c)).collect::<Result<Vec<_>, _>>()?;
    Ok(list_page(items, page.limit, |c| c.id.parse().unwrap_or_default()))
}

/// One contact.
#[utoipa::path(get, path = "/v1/contacts/{id}", tag = "contacts", security(("api_key" = [])),
    params(("id" = String, Path, description = "contact id")),
    responses((status = 200, body = DataBody<ContactView>), (status = 404, description = "CONTACT_NOT_FOUND", body = ErrorBody)))]
pub async fn get(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let reads = engine.reads(tenant.id);
    let c = reads.contact(contact_id(&id)?)?;
    Ok(reply(StatusCode::OK, view(&reads, c)?))
}

/// Changes a contact's phone, name, zone or attributes.
#[utoipa::path(patch, path = "/v1/contacts/{id}", tag = "contacts", security(("api_key" = [])),
    params(("id" = String, Path, description = "contact id")), request_body = PatchContact,
    responses((status = 200, body = DataBody<ContactView>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn patch(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
    body: Result<Json<PatchContact>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = contact_id(&id)?;
    let Json(b) = body?;
    let changes = ContactChanges {
        phone: b.phone.as_deref().map(|p| phone("phone", p)).transpose()?,
        name: b.name,
        timezone: b.timezone,
        attributes: b.attributes,
    };
    let c = tenant.handle.put_contact(Some(id), changes).await?;
    Ok(reply(StatusCode::OK, view(&engine.reads(tenant.id), c)?))
}

/// Deletes a contact (its messages and opt-out stay).
#[utoipa::path(delete, path = "/v1/contacts/{id}", tag = "contacts", security(("api_key" = [])),
    params(("id" = String, Path, description = "contact id")),
    responses((status = 200, body = DataBody<Deleted>), (status = 404, body = ErrorBody)))]
pub async fn delete(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = contact_id(&id)?;
    tenant.handle.delete_contact(id).await?;
    Ok(reply(StatusCode::OK, Deleted { id: id.to_string(), deleted: true }))
}
