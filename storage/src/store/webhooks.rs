//! Webhook endpoints, their deliveries (the outbox: keyed `tenant ++ webhook ++ delivery`) and
//! `due`, the work list of deliveries not yet settled (`webhook ++ delivery` → tenant), which a
//! restart resumes from (young entries only in memory, see `worklist.rs`).

use std::sync::Arc;

use ulid::Ulid;

use super::spans::Spanned;
use super::tree::{Opener, Tree};
use super::worklist::WorkList;
use super::{all_of, decode, encode, page, page_newest, tkey, ulid_at};
use crate::model::{DeliveryRecord, DeliveryState, WebhookRecord};
use crate::StoreError;

/// A delivery still pending, found at start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DueDelivery {
    /// Owner.
    pub tenant_id: Ulid,
    /// The endpoint.
    pub webhook_id: Ulid,
    /// The delivery.
    pub delivery_id: Ulid,
}

/// The `webhooks`, `deliveries` and `due` trees.
pub struct Webhooks {
    webhooks: Tree,
    deliveries: Arc<Spanned>,
    due: Arc<WorkList>,
}

/// The `due` key of a delivery.
pub(super) fn due_key(webhook: Ulid, id: Ulid) -> [u8; 32] {
    super::worklist::key(webhook, id)
}

fn delivery_key(tenant: Ulid, webhook: Ulid, id: Ulid) -> Vec<u8> {
    let mut k = tkey(tenant, &webhook.to_bytes());
    k.extend_from_slice(&id.to_bytes());
    k
}

impl Webhooks {
    pub(super) fn open(db: &Opener, meta: &Tree) -> Result<Self, StoreError> {
        Ok(Self {
            webhooks: db.tree("webhooks")?,
            // Keys `tenant ++ webhook ++ id`.
            deliveries: Arc::new(Spanned::open(db, meta, "deliveries", 32)?),
            due: Arc::new(WorkList::new(db.tree("due")?, db.clock.clone())),
        })
    }

    pub(super) fn webhooks_tree(&self) -> &Tree {
        &self.webhooks
    }

    pub(super) fn due_list(&self) -> &Arc<WorkList> {
        &self.due
    }

    pub(super) fn deliveries_tree(&self) -> &Arc<Spanned> {
        &self.deliveries
    }

    /// Writes a webhook. Follow with [`super::Store::commit`].
    pub fn put(&self, w: &WebhookRecord) -> Result<(), StoreError> {
        self.webhooks.insert(tkey(w.tenant_id, &w.id.to_bytes()), encode(w))?;
        Ok(())
    }

    /// Removes a webhook and its pending work; its delivery log stays readable until the
    /// tenant's data goes.
    pub fn delete(&self, w: &WebhookRecord) -> Result<(), StoreError> {
        self.webhooks.remove(tkey(w.tenant_id, &w.id.to_bytes()))?;
        self.due.remove_group(w.id)
    }

    /// A tenant's webhooks in creation order.
    pub fn of(&self, tenant: Ulid) -> Result<Vec<WebhookRecord>, StoreError> {
        all_of(&self.webhooks, "webhooks", tenant)
    }

    /// Writes a delivery; the `due` list follows its state (a pending delivery is listed before
    /// it is written, a settled one leaves after). Written before the state change that caused
    /// it (the outbox rule), so a recorded change always has its deliveries.
    pub fn put_delivery(&self, d: &DeliveryRecord) -> Result<(), StoreError> {
        let due = due_key(d.webhook_id, d.id);
        let pending = d.state == DeliveryState::Pending;
        if pending {
            self.due.add(due, d.tenant_id)?;
        }
        self.deliveries.insert(&delivery_key(d.tenant_id, d.webhook_id, d.id), encode(d))?;
        if !pending {
            self.due.remove(&due)?;
        }
        Ok(())
    }

    /// One delivery of a tenant's webhook.
    pub fn delivery(
        &self,
        tenant: Ulid,
        webhook: Ulid,
        id: Ulid,
    ) -> Result<Option<DeliveryRecord>, StoreError> {
        self.deliveries.get(&delivery_key(tenant, webhook, id))?.map(|v| decode("deliveries", &v)).transpose()
    }

    /// A webhook's deliveries, oldest first, after `after`.
    pub fn deliveries(
        &self,
        tenant: Ulid,
        webhook: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StoreError> {
        page(&self.deliveries, "deliveries", &tkey(tenant, &webhook.to_bytes()), after, limit)
    }

    /// The same newest first, before `before` (the dashboard's delivery log).
    pub fn deliveries_newest(
        &self,
        tenant: Ulid,
        webhook: Ulid,
        before: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StoreError> {
        page_newest(&self.deliveries, "deliveries", &tkey(tenant, &webhook.to_bytes()), before, limit)
    }

    /// Every pending delivery, webhook by webhook, oldest first.
    pub fn due(&self) -> Result<Vec<DueDelivery>, StoreError> {
        Ok(self
            .due
            .entries()?
            .into_iter()
            .map(|(k, tenant_id)| DueDelivery {
                tenant_id,
                webhook_id: ulid_at(&k),
                delivery_id: ulid_at(&k[16..]),
            })
            .collect())
    }
}
