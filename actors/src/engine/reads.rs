//! Tenant-scoped reads for the HTTP layer: every read names the tenant once, when the reader is
//! made ([`Engine::reads`]), so no read can reach another tenant's records; a record that is not
//! the tenant's is simply not found. Reads go straight to the store: a record is written by one
//! actor and read by many, and sled's reads need no actor turn.

use pigeon_storage::model::{
    CampaignRecord, ContactRecord, DeliveryRecord, MessageRecord, MessageStatus, OptOutRecord,
    TemplateRecord, TenantRecord,
};
use pigeon_storage::{HourCounts, Store};
use serde_json::{Map, Value};
use ulid::Ulid;

use super::Engine;
use crate::domain::PhoneNumber;
use crate::error::Missing;
use crate::EngineError;

/// Reads of one tenant's records.
pub struct TenantReads<'a> {
    store: &'a Store,
    tenant: Ulid,
}

impl Engine {
    /// Reads of `tenant`'s records.
    pub fn reads(&self, tenant: Ulid) -> TenantReads<'_> {
        TenantReads { store: &self.inner.store, tenant }
    }
}

/// Messages a list reads at most per call, whatever its filters: a filter that matches few of a
/// million messages answers a short page and a cursor instead of walking them all.
pub const MAX_LIST_READ: usize = 5_000;

impl TenantReads<'_> {
    /// Sent, delivered and failed per hour over the 24 hours up to `now`, oldest first.
    pub fn last_day(&self, now: chrono::DateTime<chrono::Utc>) -> Result<Vec<HourCounts>, EngineError> {
        Ok(self.store.tenants().hours(self.tenant, crate::clock::hour_number(now))?)
    }

    /// One message.
    pub fn message(&self, id: Ulid) -> Result<MessageRecord, EngineError> {
        self.store.messages().get(self.tenant, id)?.ok_or(EngineError::NotFound(Missing::Message))
    }

    /// Messages in acceptance order after `after`, those `keep` accepts, at most `limit`, reading
    /// at most [`MAX_LIST_READ`] of them; the id is where a scan the read limit cut short stopped
    /// (see [`pigeon_storage::Messages::page`]).
    pub fn messages(
        &self,
        after: Option<Ulid>,
        limit: usize,
        keep: impl Fn(&MessageRecord) -> bool,
    ) -> Result<(Vec<MessageRecord>, Option<Ulid>), EngineError> {
        Ok(self.store.messages().page(self.tenant, after, limit, MAX_LIST_READ, keep)?)
    }

    /// The same newest first, before `before` (the dashboard's lists).
    pub fn messages_newest(
        &self,
        before: Option<Ulid>,
        limit: usize,
        keep: impl Fn(&MessageRecord) -> bool,
    ) -> Result<(Vec<MessageRecord>, Option<Ulid>), EngineError> {
        Ok(self.store.messages().page_newest(self.tenant, before, limit, MAX_LIST_READ, keep)?)
    }

    /// One of the tenant's media records.
    pub fn media(&self, id: Ulid) -> Result<pigeon_storage::model::MediaRecord, EngineError> {
        self.store.media().get(self.tenant, id)?.ok_or(EngineError::NotFound(Missing::Media))
    }

    /// One template.
    pub fn template(&self, id: Ulid) -> Result<TemplateRecord, EngineError> {
        self.store.templates().get(self.tenant, id)?.ok_or(EngineError::NotFound(Missing::Template))
    }

    /// Templates in creation order after `after`.
    pub fn templates(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<TemplateRecord>, EngineError> {
        Ok(self.store.templates().page(self.tenant, after, limit)?)
    }

    /// A send's text from a template (by name or id), `data` and the recipient's contact
    /// attributes, with the template's name.
    pub fn render(
        &self,
        template: &str,
        data: &Map<String, Value>,
        to: &PhoneNumber,
    ) -> Result<(String, String), EngineError> {
        crate::tenant::render(self.store, self.tenant, template, data, to)
    }

    /// One contact.
    pub fn contact(&self, id: Ulid) -> Result<ContactRecord, EngineError> {
        self.store.contacts().get(self.tenant, id)?.ok_or(EngineError::NotFound(Missing::Contact))
    }

    /// The contact with this phone number, if any.
    pub fn contact_by_phone(&self, phone: &PhoneNumber) -> Result<Option<ContactRecord>, EngineError> {
        Ok(self.store.contacts().find(self.tenant, phone.as_str())?)
    }

    /// Contacts in creation order after `after`.
    pub fn contacts(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<ContactRecord>, EngineError> {
        Ok(self.store.contacts().page(self.tenant, after, limit)?)
    }

    /// The tenant's own record (its settings).
    pub fn tenant(&self) -> Result<TenantRecord, EngineError> {
        self.store.tenants().get(self.tenant)?.ok_or(EngineError::NotFound(Missing::Tenant))
    }

    /// True if the number opted out of this tenant.
    pub fn is_opted_out(&self, number: &str) -> Result<bool, EngineError> {
        Ok(self.store.numbers().is_opted_out(self.tenant, number)?)
    }

    /// Up to `limit` opt-outs in number order, after the number `after`.
    pub fn opt_outs(
        &self,
        after: Option<&PhoneNumber>,
        limit: usize,
    ) -> Result<Vec<OptOutRecord>, EngineError> {
        Ok(self.store.numbers().opt_outs(self.tenant, after.map(PhoneNumber::as_str), limit)?)
    }

    /// One campaign.
    pub fn campaign(&self, id: Ulid) -> Result<CampaignRecord, EngineError> {
        self.store.campaigns().get(self.tenant, id)?.ok_or(EngineError::NotFound(Missing::Campaign))
    }

    /// Campaigns in creation order after `after`.
    pub fn campaigns(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<CampaignRecord>, EngineError> {
        Ok(self.store.campaigns().page(self.tenant, after, limit)?)
    }

    /// How many of a campaign's messages stand at each status: those still kept, read now, and
    /// those retention deleted, counted when they went.
    pub fn campaign_counts(&self, id: Ulid) -> Result<Vec<(MessageStatus, u64)>, EngineError> {
        let mut counts: Vec<(MessageStatus, u64)> = MessageStatus::ALL.iter().map(|s| (*s, 0)).collect();
        let mut add = |status: MessageStatus, n: u64| {
            if let Some(c) = counts.iter_mut().find(|(s, _)| *s == status) {
                c.1 += n;
            }
        };
        for m in self.store.campaign_messages(self.tenant, id)? {
            add(m.status, 1);
        }
        for (status, n) in self.store.campaigns().pruned(self.tenant, id)? {
            add(status, n);
        }
        Ok(counts)
    }

    /// A webhook's deliveries, oldest first, after `after` (the caller checks the webhook is the
    /// tenant's; a foreign id finds nothing here anyway).
    pub fn deliveries(
        &self,
        webhook: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, EngineError> {
        Ok(self.store.webhooks().deliveries(self.tenant, webhook, after, limit)?)
    }

    /// The same newest first, before `before` (the dashboard's delivery log).
    pub fn deliveries_newest(
        &self,
        webhook: Ulid,
        before: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, EngineError> {
        Ok(self.store.webhooks().deliveries_newest(self.tenant, webhook, before, limit)?)
    }
}
