//! Templates and contacts: the tenant actor writes them (so names and phones stay unique without
//! locks); reads go straight to the store. Rendering a template for a send lives here too.

use std::borrow::Cow;
use std::collections::BTreeMap;

use actix::prelude::*;
use pigeon_storage::model::{ContactRecord, TemplateRecord};
use pigeon_storage::Store;
use serde_json::Value;
use ulid::Ulid;

use super::TenantActor;
use crate::domain::{PhoneNumber, RenderError, TemplateBody};
use crate::durable::after_commit;
use crate::error::Missing;
use crate::EngineError;

/// Most characters in a template name and body.
const MAX_NAME: usize = 100;
const MAX_BODY: usize = 10_000;

fn check_template(name: &str, body: &str) -> Result<Vec<String>, EngineError> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME {
        return Err(EngineError::Validation(format!("name: must be 1 to {MAX_NAME} characters")));
    }
    if body.is_empty() || body.chars().count() > MAX_BODY {
        return Err(EngineError::Validation(format!("body: must be 1 to {MAX_BODY} characters")));
    }
    Ok(TemplateBody::parse(body).map_err(|e| EngineError::Validation(format!("body: {e}")))?.variables())
}

/// Most bytes of UTF-8 in a contact's attributes, names and values together (DESIGN "Bounds").
pub const MAX_ATTRIBUTE_BYTES: usize = 4096;

/// The kinds of record a tenant holds a bounded number of (DESIGN "Bounds every tenant lives
/// within"): whatever key makes them, test keys included, so no tenant can fill the disk.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Bounded {
    Contacts,
    Templates,
    Campaigns,
}

impl Bounded {
    fn bound(self) -> usize {
        match self {
            Bounded::Contacts => 100_000,
            Bounded::Templates | Bounded::Campaigns => 1_000,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Bounded::Contacts => "contacts",
            Bounded::Templates => "templates",
            Bounded::Campaigns => "campaigns",
        }
    }
}

/// How many records of each [`Bounded`] kind the tenant holds, counted from the store at the
/// first create after the actor starts and kept up by the actor, the kinds' only writer.
#[derive(Debug, Default)]
pub(crate) struct RecordCounts([Option<usize>; 3]);

impl TenantActor {
    /// `LimitReached` if one more `kind` would pass its bound.
    pub(crate) fn room_for(&mut self, kind: Bounded) -> Result<(), EngineError> {
        let n = match self.counts.0[kind as usize] {
            Some(n) => n,
            None => {
                let tenant = self.tenant.id;
                let n = match kind {
                    Bounded::Contacts => self.store.contacts().count(tenant)?,
                    Bounded::Templates => self.store.templates().count(tenant)?,
                    Bounded::Campaigns => self.store.campaigns().count(tenant)?,
                };
                *self.counts.0.get_mut(kind as usize).expect("one slot a kind") = Some(n);
                n
            }
        };
        if n >= kind.bound() {
            return Err(EngineError::LimitReached(format!(
                "{}: the account holds {} {}, the most allowed; delete some first",
                kind.name(),
                kind.bound(),
                kind.name()
            )));
        }
        Ok(())
    }

    /// One `kind` made (`+1`) or deleted (`-1`).
    pub(crate) fn counted(&mut self, kind: Bounded, change: isize) {
        if let Some(n) = self.counts.0.get_mut(kind as usize).and_then(Option::as_mut) {
            *n = n.saturating_add_signed(change);
        }
    }
}

/// Checks a contact's optional fields: an IANA zone, and at most 100 attributes with names of
/// letters, digits, `_ . -` (1–64), values up to 1,000 characters, and 4,096 bytes in all.
fn check_contact(timezone: Option<&str>, attributes: &BTreeMap<String, String>) -> Result<(), EngineError> {
    if let Some(tz) = timezone {
        if tz.parse::<chrono_tz::Tz>().is_err() {
            return Err(EngineError::Validation(format!("timezone: {tz:?} is not an IANA time zone")));
        }
    }
    let bytes: usize = attributes.iter().map(|(k, v)| k.len() + v.len()).sum();
    if bytes > MAX_ATTRIBUTE_BYTES {
        return Err(EngineError::Validation(format!(
            "attributes: at most {MAX_ATTRIBUTE_BYTES} bytes of names and values together; these have {bytes}"
        )));
    }
    if attributes.len() > 100 {
        return Err(EngineError::Validation("attributes: at most 100".into()));
    }
    for (k, v) in attributes {
        let ok = (1..=64).contains(&k.len())
            && k.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !ok {
            return Err(EngineError::Validation(format!(
                "attributes: name {k:?} must be 1 to 64 letters, digits, _ . -"
            )));
        }
        if v.chars().count() > 1000 {
            return Err(EngineError::Validation(format!("attributes.{k}: at most 1000 characters")));
        }
    }
    Ok(())
}

/// Create or change a template.
#[derive(Message, Clone)]
#[rtype(result = "Result<TemplateRecord, EngineError>")]
pub(crate) struct PutTemplate {
    /// `None` creates.
    pub id: Option<Ulid>,
    pub name: Option<String>,
    pub body: Option<String>,
}

impl Handler<PutTemplate> for TenantActor {
    type Result = ResponseFuture<Result<TemplateRecord, EngineError>>;

    fn handle(&mut self, msg: PutTemplate, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let now = self.clock.now();
            let tenant = self.tenant.id;
            let old = match msg.id {
                Some(id) => Some(
                    self.store
                        .templates()
                        .get(tenant, id)?
                        .ok_or(EngineError::NotFound(Missing::Template))?,
                ),
                None => None,
            };
            let name = msg.name.or_else(|| old.as_ref().map(|t| t.name.clone())).unwrap_or_default();
            let body = msg.body.or_else(|| old.as_ref().map(|t| t.body.clone())).unwrap_or_default();
            let variables = check_template(&name, &body)?;
            if let Some(other) = self.store.templates().find(tenant, &name)? {
                if Some(other.id) != msg.id {
                    return Err(EngineError::DuplicateTemplate(name));
                }
            }
            if old.is_none() {
                self.room_for(Bounded::Templates)?;
            }
            let t = TemplateRecord {
                id: old.as_ref().map_or_else(|| self.store.new_id(), |o| o.id),
                tenant_id: tenant,
                name,
                body,
                variables,
                created_at: old.as_ref().map_or(now, |o| o.created_at),
                updated_at: now,
            };
            self.store.templates().put(&t, old.as_ref().map(|o| o.name.as_str()).filter(|n| *n != t.name))?;
            if old.is_none() {
                self.counted(Bounded::Templates, 1);
            }
            Ok(t)
        })();
        after_commit(&self.store, res)
    }
}

/// Delete a template (messages already sent keep its name).
#[derive(Message, Clone)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct DeleteTemplate(pub Ulid);

impl Handler<DeleteTemplate> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: DeleteTemplate, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let t = self
                .store
                .templates()
                .get(self.tenant.id, msg.0)?
                .ok_or(EngineError::NotFound(Missing::Template))?;
            self.store.templates().delete(&t)?;
            self.counted(Bounded::Templates, -1);
            Ok(())
        })();
        after_commit(&self.store, res)
    }
}

/// Changes to a contact; `Some(None)` clears a field.
#[derive(Debug, Default, Clone)]
pub struct ContactChanges {
    /// New phone.
    pub phone: Option<PhoneNumber>,
    /// Display name.
    pub name: Option<Option<String>>,
    /// IANA zone.
    pub timezone: Option<Option<String>>,
    /// Replaces all attributes.
    pub attributes: Option<BTreeMap<String, String>>,
}

/// Create (`id: None`, `phone` required) or change a contact.
#[derive(Message, Clone)]
#[rtype(result = "Result<ContactRecord, EngineError>")]
pub(crate) struct PutContact {
    pub id: Option<Ulid>,
    pub changes: ContactChanges,
}

impl Handler<PutContact> for TenantActor {
    type Result = ResponseFuture<Result<ContactRecord, EngineError>>;

    fn handle(&mut self, msg: PutContact, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let now = self.clock.now();
            let tenant = self.tenant.id;
            let ch = msg.changes;
            let old = match msg.id {
                Some(id) => Some(
                    self.store.contacts().get(tenant, id)?.ok_or(EngineError::NotFound(Missing::Contact))?,
                ),
                None => None,
            };
            let phone = match (&ch.phone, &old) {
                (Some(p), _) => p.as_str().to_owned(),
                (None, Some(o)) => o.phone.clone(),
                (None, None) => return Err(EngineError::Validation("phone: required".into())),
            };
            let name = ch.name.unwrap_or_else(|| old.as_ref().and_then(|o| o.name.clone()));
            if name.as_ref().is_some_and(|n| n.chars().count() > 200) {
                return Err(EngineError::Validation("name: at most 200 characters".into()));
            }
            let timezone = ch.timezone.unwrap_or_else(|| old.as_ref().and_then(|o| o.timezone.clone()));
            let attributes = ch
                .attributes
                .unwrap_or_else(|| old.as_ref().map(|o| o.attributes.clone()).unwrap_or_default());
            check_contact(timezone.as_deref(), &attributes)?;
            if let Some(other) = self.store.contacts().find(tenant, &phone)? {
                if Some(other.id) != msg.id {
                    return Err(EngineError::DuplicateContact(other.id));
                }
            }
            if old.is_none() {
                self.room_for(Bounded::Contacts)?;
            }
            let c = ContactRecord {
                id: old.as_ref().map_or_else(|| self.store.new_id(), |o| o.id),
                tenant_id: tenant,
                phone,
                name,
                timezone,
                attributes,
                created_at: old.as_ref().map_or(now, |o| o.created_at),
                updated_at: now,
            };
            self.store
                .contacts()
                .put(&c, old.as_ref().map(|o| o.phone.as_str()).filter(|p| *p != c.phone))?;
            if old.is_none() {
                self.counted(Bounded::Contacts, 1);
            }
            Ok(c)
        })();
        after_commit(&self.store, res)
    }
}

/// Delete a contact (its messages and opt-out stay).
#[derive(Message, Clone)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct DeleteContact(pub Ulid);

impl Handler<DeleteContact> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: DeleteContact, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let c = self
                .store
                .contacts()
                .get(self.tenant.id, msg.0)?
                .ok_or(EngineError::NotFound(Missing::Contact))?;
            self.store.contacts().delete(&c)?;
            self.counted(Bounded::Contacts, -1);
            Ok(())
        })();
        after_commit(&self.store, res)
    }
}

/// A tenant's template by id or, failing that, by name; `INVALID_TEMPLATE` when neither names one.
pub(crate) fn find_template(
    store: &Store,
    tenant: Ulid,
    template: &str,
) -> Result<TemplateRecord, EngineError> {
    let by_id =
        Ulid::from_string(template).ok().map(|id| store.templates().get(tenant, id)).transpose()?.flatten();
    match by_id {
        Some(t) => Ok(t),
        None => store
            .templates()
            .find(tenant, template)?
            .ok_or_else(|| EngineError::InvalidTemplate(template.to_owned())),
    }
}

/// Refuses a template that would pass a message's length with `data` alone, whatever the
/// recipients' contact attributes add (a missing variable counts as empty here).
pub(crate) fn check_fits(template: &str, data: &serde_json::Map<String, Value>) -> Result<(), EngineError> {
    let body =
        TemplateBody::parse(template).map_err(|e| EngineError::Validation(format!("template: {e}")))?;
    match body.render(MAX_BODY, |name| Some(data.get(name).map_or(Cow::Borrowed(""), value_text))) {
        Err(RenderError::TooLong(limit)) => Err(EngineError::Validation(format!(
            "template: renders to more than {limit} characters with this data; a message holds 1 to {limit}"
        ))),
        _ => Ok(()),
    }
}

/// How a `data` value reads in a text: strings as they are, numbers and booleans as JSON writes
/// them.
fn value_text(v: &Value) -> Cow<'_, str> {
    match v {
        Value::String(s) => Cow::Borrowed(s.as_str()),
        v => Cow::Owned(v.to_string()),
    }
}

/// Renders a template for a send to `to`: values from `data`, then the contact's attributes.
/// Returns the text and the template's name.
pub fn render(
    store: &Store,
    tenant: Ulid,
    template: &str,
    data: &serde_json::Map<String, Value>,
    to: &PhoneNumber,
) -> Result<(String, String), EngineError> {
    let t = find_template(store, tenant, template)?;
    let body = TemplateBody::parse(&t.body).map_err(|e| EngineError::Validation(format!("template: {e}")))?;
    for (k, v) in data {
        if matches!(v, Value::Null | Value::Array(_) | Value::Object(_)) {
            return Err(EngineError::Validation(format!("data.{k}: must be a string, number or boolean")));
        }
    }
    let contact = if body.variables().iter().any(|v| !data.contains_key(v)) {
        store.contacts().find(tenant, to.as_str())?
    } else {
        None
    };
    let text = body
        .render(MAX_BODY, |name| match data.get(name) {
            Some(v) => Some(value_text(v)),
            None => contact.as_ref().and_then(|c| c.attributes.get(name)).map(|s| Cow::Borrowed(s.as_str())),
        })
        .map_err(|e| match e {
            RenderError::Missing(vars) => EngineError::MissingTemplateVar(vars),
            RenderError::TooLong(limit) => EngineError::Validation(format!(
                "template: renders to more than {limit} characters; a message holds 1 to {limit}"
            )),
        })?;
    if text.is_empty() {
        return Err(EngineError::Validation(format!(
            "template: renders to 0 characters; a message holds 1 to {MAX_BODY}"
        )));
    }
    Ok((text, t.name))
}

#[cfg(test)]
mod tests {
    use pigeon_storage::model::Plan;

    use super::*;
    use crate::{Engine, EngineConfig};

    /// The contacts' bound at its real size: the first create after the actor starts counts
    /// what the store holds (written here straight to the store, as a long-lived tenant's would
    /// be), then the actor keeps the count.
    #[actix_rt::test]
    async fn the_100_001st_contact_is_refused_and_a_delete_makes_room() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let engine =
            Engine::start(store.clone(), EngineConfig { arbiters: 1, ..Default::default() }).unwrap();
        let tenant = engine.create_tenant("many".into(), Plan::Scale).await.unwrap().tenant.id;
        let at = chrono::Utc::now();
        for i in 0..Bounded::Contacts.bound() - 1 {
            let c = ContactRecord {
                id: Ulid::generate(),
                tenant_id: tenant,
                phone: format!("+1415{i:07}"),
                name: None,
                timezone: None,
                attributes: BTreeMap::new(),
                created_at: at,
                updated_at: at,
            };
            store.contacts().put(&c, None).unwrap();
        }
        store.commit().await.unwrap();
        let handle = engine.tenant(tenant).unwrap();
        let phone = |s: &str| ContactChanges { phone: PhoneNumber::parse(s), ..Default::default() };
        let last = handle.put_contact(None, phone("+14160000001")).await.unwrap();
        let refused = handle.put_contact(None, phone("+14160000002")).await.unwrap_err();
        assert!(
            matches!(&refused, EngineError::LimitReached(m) if m.contains("100000 contacts")),
            "{refused}"
        );
        // Changing one is no new record.
        handle
            .put_contact(
                Some(last.id),
                ContactChanges { name: Some(Some("Ada".into())), ..Default::default() },
            )
            .await
            .unwrap();
        handle.delete_contact(last.id).await.unwrap();
        handle.put_contact(None, phone("+14160000002")).await.unwrap();
        engine.shutdown().await.unwrap();
    }
}
