//! The typed trees. Every record a tenant owns is keyed `tenant id (16 bytes) ++ record key`, so a
//! tenant's data is one contiguous range and no lookup can cross tenants by accident. The global
//! indexes are the exception, and hold no tenant data: `key_hashes`/`phone_tokens` (credential →
//! owner), `key_ids`/`phone_ids` (id → owner), needed to find a tenant before we know it, and
//! `pending` (phone → messages it still owes), the work list a restart resumes from.

use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;

use serde::{de::DeserializeOwned, Serialize};
use sled::transaction::ConflictableTransactionError as Cte;
use sled::Transactional;
use ulid::Ulid;

use crate::commit::{CommitStats, Committer};
use crate::model::{
    ApiKeyRecord, DeliveryRecord, DeliveryState, IdempotencyRecord, MessageRecord, PhoneRecord,
    RecipientRecord, TenantRecord, WebhookRecord,
};
use crate::model::{CampaignRecord, ContactRecord, DetectionRecord, TemplateRecord};
use crate::StoreError;

/// Handle to the store; cheap to clone, shared by the HTTP layer and every actor.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    db: sled::Db,
    tenants: sled::Tree,
    keys: sled::Tree,
    key_hashes: sled::Tree,
    key_ids: sled::Tree,
    counters: sled::Tree,
    meta: sled::Tree,
    phones: sled::Tree,
    phone_ids: sled::Tree,
    phone_tokens: sled::Tree,
    messages: sled::Tree,
    pending: sled::Tree,
    recipients: sled::Tree,
    optouts: sled::Tree,
    idempotency: sled::Tree,
    webhooks: sled::Tree,
    deliveries: sled::Tree,
    due: sled::Tree,
    templates: sled::Tree,
    template_names: sled::Tree,
    contacts: sled::Tree,
    contact_phones: sled::Tree,
    schedule: sled::Tree,
    detections: sled::Tree,
    campaigns: sled::Tree,
    campaign_recipients: sled::Tree,
    campaign_messages: sled::Tree,
    committer: Committer,
}

/// How many leading hex characters of a key's SHA-256 index it. The full hash is compared, in
/// constant time, by the engine after the lookup.
const HASH_INDEX_LEN: usize = 32;
const ADMIN_TOKEN_HASH: &[u8] = b"admin_token_sha256";
const DEMO_TENANT: &[u8] = b"demo_tenant";

fn tkey(tenant: Ulid, rest: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(16 + rest.len());
    k.extend_from_slice(&tenant.to_bytes());
    k.extend_from_slice(rest);
    k
}

fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).expect("records always serialize")
}

fn decode<T: DeserializeOwned>(tree: &'static str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|source| StoreError::Decode { tree, source })
}

fn ulid_at(bytes: &[u8]) -> Ulid {
    let mut b = [0u8; 16];
    b.copy_from_slice(&bytes[..16]);
    Ulid::from_bytes(b)
}

/// sled's page cache, in MiB, unless the operator sets another size.
pub const DEFAULT_CACHE_MB: u64 = 64;

impl Store {
    /// Opens (or creates) the store in `dir` with the default cache and starts its committer.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        Self::open_with_cache(dir, DEFAULT_CACHE_MB)
    }

    /// Opens the store with a page cache of `cache_mb` MiB. The cache is most of the server's
    /// memory: reads of recent records (a message's phone and webhook steps) hit it, older ones
    /// go to disk.
    pub fn open_with_cache(dir: &Path, cache_mb: u64) -> Result<Self, StoreError> {
        let db = sled::Config::new()
            .path(dir)
            .cache_capacity(cache_mb.max(1) * 1024 * 1024)
            .flush_every_ms(Some(500))
            .open()?;
        let committer = Committer::start(db.clone())
            .map_err(|e| StoreError::Flush(format!("cannot start committer: {e}")))?;
        let tree = |n: &str| db.open_tree(n);
        Ok(Self {
            inner: Arc::new(Inner {
                tenants: tree("tenants")?,
                keys: tree("keys")?,
                key_hashes: tree("key_hashes")?,
                key_ids: tree("key_ids")?,
                counters: tree("counters")?,
                meta: tree("meta")?,
                phones: tree("phones")?,
                phone_ids: tree("phone_ids")?,
                phone_tokens: tree("phone_tokens")?,
                messages: tree("messages")?,
                pending: tree("pending")?,
                recipients: tree("recipients")?,
                optouts: tree("optouts")?,
                idempotency: tree("idempotency")?,
                webhooks: tree("webhooks")?,
                deliveries: tree("deliveries")?,
                due: tree("due")?,
                templates: tree("templates")?,
                template_names: tree("template_names")?,
                contacts: tree("contacts")?,
                contact_phones: tree("contact_phones")?,
                schedule: tree("schedule")?,
                detections: tree("detections")?,
                campaigns: tree("campaigns")?,
                campaign_recipients: tree("campaign_recipients")?,
                campaign_messages: tree("campaign_messages")?,
                db,
                committer,
            }),
        })
    }

    /// Waits until every write made before this call is on disk, sharing the flush with every
    /// other writer waiting at the same time. Call it after the write, before answering 2xx.
    pub fn commit(&self) -> impl std::future::Future<Output = Result<(), StoreError>> + Send + 'static {
        self.inner.committer.commit()
    }

    /// Flushes on the caller's thread without sharing: one fsync per call. Only the benchmark uses
    /// it, to show what group commit saves.
    pub fn flush_unshared(&self) -> Result<(), StoreError> {
        self.inner.db.flush()?;
        Ok(())
    }

    /// How many flushes served how many commits so far.
    pub fn commit_stats(&self) -> CommitStats {
        self.inner.committer.stats()
    }

    /// True while the database answers reads.
    pub fn is_healthy(&self) -> bool {
        self.inner.meta.get(ADMIN_TOKEN_HASH).is_ok()
    }

    /// Bytes the store takes on disk.
    pub fn size_on_disk(&self) -> u64 {
        self.inner.db.size_on_disk().unwrap_or(0)
    }

    // ---- operator token ----

    /// The SHA-256 (hex) of the operator token, once one has been set.
    pub fn admin_token_hash(&self) -> Result<Option<String>, StoreError> {
        Ok(self.inner.meta.get(ADMIN_TOKEN_HASH)?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Replaces the operator token's hash. Follow with [`Store::commit`].
    pub fn set_admin_token_hash(&self, hash_hex: &str) -> Result<(), StoreError> {
        self.inner.meta.insert(ADMIN_TOKEN_HASH, hash_hex.as_bytes())?;
        Ok(())
    }

    /// The demo tenant made by `serve --demo`, once.
    pub fn demo_tenant(&self) -> Result<Option<Ulid>, StoreError> {
        Ok(self.inner.meta.get(DEMO_TENANT)?.filter(|v| v.len() == 16).map(|v| ulid_at(&v)))
    }

    /// Marks the demo tenant as made. Follow with [`Store::commit`].
    pub fn set_demo_tenant(&self, id: Ulid) -> Result<(), StoreError> {
        self.inner.meta.insert(DEMO_TENANT, &id.to_bytes())?;
        Ok(())
    }

    // ---- tenants ----

    /// Writes a new tenant and its first keys atomically. Follow with [`Store::commit`].
    pub fn create_tenant(&self, t: &TenantRecord, keys: &[ApiKeyRecord]) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.tenants, &i.keys, &i.key_hashes, &i.key_ids)
            .transaction(|(tenants, kt, kh, ki)| {
                tenants.insert(&t.id.to_bytes(), encode(t))?;
                for k in keys {
                    kt.insert(tkey(k.tenant_id, &k.id.to_bytes()), encode(k))?;
                    ki.insert(&k.id.to_bytes(), &k.tenant_id.to_bytes())?;
                    kh.insert(&k.hash.as_bytes()[..HASH_INDEX_LEN], tkey(k.tenant_id, &k.id.to_bytes()))?;
                }
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// Replaces a tenant's record. Follow with [`Store::commit`].
    pub fn put_tenant(&self, t: &TenantRecord) -> Result<(), StoreError> {
        self.inner.tenants.insert(t.id.to_bytes(), encode(t))?;
        Ok(())
    }

    /// One tenant.
    pub fn tenant(&self, id: Ulid) -> Result<Option<TenantRecord>, StoreError> {
        self.inner.tenants.get(id.to_bytes())?.map(|v| decode("tenants", &v)).transpose()
    }

    /// Tenants in id (= creation) order, starting after `after`.
    pub fn tenants(&self, after: Option<Ulid>, limit: usize) -> Result<Vec<TenantRecord>, StoreError> {
        let start = match after {
            Some(a) => Bound::Excluded(a.to_bytes().to_vec()),
            None => Bound::Unbounded,
        };
        self.inner
            .tenants
            .range::<Vec<u8>, _>((start, Bound::Unbounded))
            .take(limit)
            .map(|kv| decode("tenants", &kv?.1))
            .collect()
    }

    // ---- API keys ----

    /// Writes a key and keeps both indexes in step: a revoked key leaves the credential index, so
    /// it can never authenticate again. Follow with [`Store::commit`] when the change must last.
    pub fn put_key(&self, k: &ApiKeyRecord) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.keys, &i.key_hashes, &i.key_ids)
            .transaction(|(kt, kh, ki)| {
                let rk = tkey(k.tenant_id, &k.id.to_bytes());
                kt.insert(rk.clone(), encode(k))?;
                ki.insert(&k.id.to_bytes(), &k.tenant_id.to_bytes())?;
                let hk = &k.hash.as_bytes()[..HASH_INDEX_LEN];
                if k.revoked_at.is_some() {
                    kh.remove(hk)?;
                } else {
                    kh.insert(hk, rk)?;
                }
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// Every key of a tenant, revoked ones included, in creation order.
    pub fn keys_of(&self, tenant: Ulid) -> Result<Vec<ApiKeyRecord>, StoreError> {
        self.inner.keys.scan_prefix(tenant.to_bytes()).map(|kv| decode("keys", &kv?.1)).collect()
    }

    /// Finds the `(tenant, key id)` a credential hash (hex) may belong to. The caller must still
    /// compare the full hash.
    pub fn key_by_hash(&self, hash_hex: &str) -> Result<Option<(Ulid, Ulid)>, StoreError> {
        let Some(prefix) = hash_hex.as_bytes().get(..HASH_INDEX_LEN) else {
            return Ok(None);
        };
        Ok(self
            .inner
            .key_hashes
            .get(prefix)?
            .filter(|v| v.len() == 32)
            .map(|v| (ulid_at(&v), ulid_at(&v[16..]))))
    }

    /// The tenant owning a key id, for the operator's key calls.
    pub fn key_owner(&self, key_id: Ulid) -> Result<Option<Ulid>, StoreError> {
        Ok(self.inner.key_ids.get(key_id.to_bytes())?.filter(|v| v.len() == 16).map(|v| ulid_at(&v)))
    }

    // ---- counters ----

    /// A tenant's named counter (0 when never set).
    pub fn counter(&self, tenant: Ulid, name: &str) -> Result<u64, StoreError> {
        Ok(self
            .inner
            .counters
            .get(tkey(tenant, name.as_bytes()))?
            .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
            .map(u64::from_be_bytes)
            .unwrap_or(0))
    }

    /// Sets a counter in memory; it reaches disk with the next flush of any kind (see crate docs).
    pub fn set_counter(&self, tenant: Ulid, name: &str, value: u64) -> Result<(), StoreError> {
        self.inner.counters.insert(tkey(tenant, name.as_bytes()), &value.to_be_bytes())?;
        Ok(())
    }
}

/// The `pending` key of a message: its phone (nil for test messages) then its id, so each phone's
/// work is one range in acceptance order.
fn pending_key(m: &MessageRecord) -> [u8; 32] {
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&m.phone_id.unwrap_or(Ulid::nil()).to_bytes());
    k[16..].copy_from_slice(&m.id.to_bytes());
    k
}

/// The `schedule` key of a held message: release time (ms, big-endian), tenant, id, so the tree
/// reads in release order.
fn schedule_key(m: &MessageRecord) -> Option<[u8; 40]> {
    let at = m.scheduled_at?.timestamp_millis().max(0) as u64;
    let mut k = [0u8; 40];
    k[..8].copy_from_slice(&at.to_be_bytes());
    k[8..24].copy_from_slice(&m.tenant_id.to_bytes());
    k[24..].copy_from_slice(&m.id.to_bytes());
    Some(k)
}

/// A unit of pending work found at start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingWork {
    /// The phone that owes it; `None` for a test message.
    pub phone_id: Option<Ulid>,
    /// Owner.
    pub tenant_id: Ulid,
    /// Message.
    pub message_id: Ulid,
}

impl Store {
    // ---- phones ----

    /// Writes a phone and its indexes. Follow with [`Store::commit`].
    pub fn put_phone(&self, p: &PhoneRecord) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.phones, &i.phone_ids, &i.phone_tokens)
            .transaction(|(ph, ids, tokens)| {
                ph.insert(tkey(p.tenant_id, &p.id.to_bytes()), encode(p))?;
                ids.insert(&p.id.to_bytes(), &p.tenant_id.to_bytes())?;
                if let Some(h) = &p.agent_token_hash {
                    tokens.insert(&h.as_bytes()[..HASH_INDEX_LEN], tkey(p.tenant_id, &p.id.to_bytes()))?;
                }
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// Removes a phone and its indexes. Follow with [`Store::commit`].
    pub fn delete_phone(&self, p: &PhoneRecord) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.phones, &i.phone_ids, &i.phone_tokens)
            .transaction(|(ph, ids, tokens)| {
                ph.remove(tkey(p.tenant_id, &p.id.to_bytes()))?;
                ids.remove(&p.id.to_bytes())?;
                if let Some(h) = &p.agent_token_hash {
                    tokens.remove(&h.as_bytes()[..HASH_INDEX_LEN])?;
                }
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// A tenant's phones in creation order.
    pub fn phones_of(&self, tenant: Ulid) -> Result<Vec<PhoneRecord>, StoreError> {
        self.inner.phones.scan_prefix(tenant.to_bytes()).map(|kv| decode("phones", &kv?.1)).collect()
    }

    /// One phone of a tenant.
    pub fn phone(&self, tenant: Ulid, id: Ulid) -> Result<Option<PhoneRecord>, StoreError> {
        self.inner.phones.get(tkey(tenant, &id.to_bytes()))?.map(|v| decode("phones", &v)).transpose()
    }

    /// The tenant owning a phone.
    pub fn phone_owner(&self, id: Ulid) -> Result<Option<Ulid>, StoreError> {
        Ok(self.inner.phone_ids.get(id.to_bytes())?.filter(|v| v.len() == 16).map(|v| ulid_at(&v)))
    }

    /// The `(tenant, phone)` an agent token hash (hex) may belong to; compare the full hash after.
    pub fn phone_by_token(&self, hash_hex: &str) -> Result<Option<(Ulid, Ulid)>, StoreError> {
        let Some(prefix) = hash_hex.as_bytes().get(..HASH_INDEX_LEN) else {
            return Ok(None);
        };
        Ok(self
            .inner
            .phone_tokens
            .get(prefix)?
            .filter(|v| v.len() == 32)
            .map(|v| (ulid_at(&v), ulid_at(&v[16..]))))
    }

    // ---- messages ----

    /// Writes a newly accepted message with what it changes (the recipient's record, counters,
    /// the idempotency key). Follow with [`Store::commit`] before answering 202.
    ///
    /// Hot path, so no sled transaction (each one makes sled write out a buffer of its own): the
    /// writes go in an order where the message record comes last and is the commit point. sled
    /// recovers a prefix of the log, so a crash can leave the side records without the message
    /// (a stale `pending` entry, which recovery drops; a counter one too high), never the message
    /// without its `pending` entry.
    pub fn accept_message(
        &self,
        m: &MessageRecord,
        recipient: Option<(&str, &RecipientRecord)>,
        counters: &[(&str, u64)],
        idempotency: Option<(&str, &IdempotencyRecord)>,
    ) -> Result<(), StoreError> {
        let i = &self.inner;
        for (name, value) in counters {
            i.counters.insert(tkey(m.tenant_id, name.as_bytes()), &value.to_be_bytes())?;
        }
        if let Some((number, r)) = recipient {
            i.recipients.insert(tkey(m.tenant_id, number.as_bytes()), encode(r))?;
        }
        if let Some((key, r)) = idempotency {
            i.idempotency.insert(tkey(m.tenant_id, key.as_bytes()), encode(r))?;
        }
        if m.held {
            if let Some(k) = schedule_key(m) {
                i.schedule.insert(k, &[])?;
            }
        } else if m.status.is_pending() {
            i.pending.insert(pending_key(m), &m.tenant_id.to_bytes())?;
        }
        i.messages.insert(tkey(m.tenant_id, &m.id.to_bytes()), encode(m))?;
        Ok(())
    }

    /// Writes a message's new state; the pending index follows its status. The record goes first:
    /// a crash in between leaves a stale `pending` entry (dropped at recovery), never a pending
    /// message missing from the index.
    pub fn put_message(&self, m: &MessageRecord) -> Result<(), StoreError> {
        let i = &self.inner;
        // A released message enters `pending` before its record says so, and leaves `schedule`
        // after: a crash in between leaves it findable in both lists, never in neither.
        let owed_by_phone = m.status.is_pending() && !m.held;
        if owed_by_phone {
            i.pending.insert(pending_key(m), &m.tenant_id.to_bytes())?;
        }
        i.messages.insert(tkey(m.tenant_id, &m.id.to_bytes()), encode(m))?;
        if !owed_by_phone {
            i.pending.remove(pending_key(m))?;
        }
        if !m.held {
            if let Some(k) = schedule_key(m) {
                i.schedule.remove(k)?;
            }
        }
        Ok(())
    }

    /// Every held message as `(release time, tenant, message)`, earliest first.
    pub fn scheduled(&self) -> Result<Vec<(chrono::DateTime<chrono::Utc>, Ulid, Ulid)>, StoreError> {
        self.inner
            .schedule
            .iter()
            .keys()
            .map(|k| {
                let k = k?;
                let ms = u64::from_be_bytes(k[..8].try_into().expect("8 bytes")) as i64;
                let at = chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default();
                Ok((at, ulid_at(&k[8..]), ulid_at(&k[24..])))
            })
            .collect()
    }

    /// Drops a `pending` entry whose message is gone or finished (found at recovery).
    pub fn drop_pending(&self, w: &PendingWork) -> Result<(), StoreError> {
        let mut k = [0u8; 32];
        k[..16].copy_from_slice(&w.phone_id.unwrap_or(Ulid::nil()).to_bytes());
        k[16..].copy_from_slice(&w.message_id.to_bytes());
        self.inner.pending.remove(k)?;
        Ok(())
    }

    /// One message of a tenant.
    pub fn message(&self, tenant: Ulid, id: Ulid) -> Result<Option<MessageRecord>, StoreError> {
        self.inner.messages.get(tkey(tenant, &id.to_bytes()))?.map(|v| decode("messages", &v)).transpose()
    }

    /// A tenant's messages in acceptance order after `after`, those `keep` accepts, at most `limit`.
    pub fn messages(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
        keep: impl Fn(&MessageRecord) -> bool,
    ) -> Result<Vec<MessageRecord>, StoreError> {
        let start = match after {
            Some(a) => Bound::Excluded(tkey(tenant, &a.to_bytes())),
            None => Bound::Included(tkey(tenant, &[])),
        };
        let end = match u128::from(tenant).checked_add(1) {
            Some(next) => Bound::Excluded(Ulid::from(next).to_bytes().to_vec()),
            None => Bound::Unbounded,
        };
        let mut out = Vec::new();
        for kv in self.inner.messages.range::<Vec<u8>, _>((start, end)) {
            let m: MessageRecord = decode("messages", &kv?.1)?;
            if keep(&m) {
                out.push(m);
                if out.len() >= limit {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// Every message still owed by a phone (or a test completion), phone by phone, oldest first.
    pub fn pending(&self) -> Result<Vec<PendingWork>, StoreError> {
        self.inner
            .pending
            .iter()
            .map(|kv| {
                let (k, v) = kv?;
                let phone = ulid_at(&k);
                Ok(PendingWork {
                    phone_id: (!phone.is_nil()).then_some(phone),
                    tenant_id: ulid_at(&v),
                    message_id: ulid_at(&k[16..]),
                })
            })
            .collect()
    }

    /// The first answer given to an idempotency key of a tenant, if any.
    pub fn idempotency(&self, tenant: Ulid, key: &str) -> Result<Option<IdempotencyRecord>, StoreError> {
        self.inner
            .idempotency
            .get(tkey(tenant, key.as_bytes()))?
            .map(|v| decode("idempotency", &v))
            .transpose()
    }

    // ---- webhooks ----

    /// Writes a webhook. Follow with [`Store::commit`].
    pub fn put_webhook(&self, w: &WebhookRecord) -> Result<(), StoreError> {
        self.inner.webhooks.insert(tkey(w.tenant_id, &w.id.to_bytes()), encode(w))?;
        Ok(())
    }

    /// Removes a webhook; its delivery log stays readable until the tenant's data goes.
    pub fn delete_webhook(&self, w: &WebhookRecord) -> Result<(), StoreError> {
        self.inner.webhooks.remove(tkey(w.tenant_id, &w.id.to_bytes()))?;
        for k in self.inner.due.scan_prefix(w.id.to_bytes()).keys() {
            self.inner.due.remove(k?)?;
        }
        Ok(())
    }

    /// A tenant's webhooks in creation order.
    pub fn webhooks_of(&self, tenant: Ulid) -> Result<Vec<WebhookRecord>, StoreError> {
        self.inner.webhooks.scan_prefix(tenant.to_bytes()).map(|kv| decode("webhooks", &kv?.1)).collect()
    }

    /// Writes a delivery; the `due` index follows its state. Written before the state change that
    /// caused it (the outbox rule), so a recorded change always has its deliveries.
    pub fn put_delivery(&self, d: &DeliveryRecord) -> Result<(), StoreError> {
        let mut k = tkey(d.tenant_id, &d.webhook_id.to_bytes());
        k.extend_from_slice(&d.id.to_bytes());
        self.inner.deliveries.insert(k, encode(d))?;
        let mut due = d.webhook_id.to_bytes().to_vec();
        due.extend_from_slice(&d.id.to_bytes());
        if d.state == DeliveryState::Pending {
            self.inner.due.insert(due, &d.tenant_id.to_bytes())?;
        } else {
            self.inner.due.remove(due)?;
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
        let mut k = tkey(tenant, &webhook.to_bytes());
        k.extend_from_slice(&id.to_bytes());
        self.inner.deliveries.get(k)?.map(|v| decode("deliveries", &v)).transpose()
    }

    /// A webhook's deliveries, oldest first, after `after`.
    pub fn deliveries(
        &self,
        tenant: Ulid,
        webhook: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StoreError> {
        let prefix = tkey(tenant, &webhook.to_bytes());
        let start = match after {
            Some(a) => {
                let mut k = prefix.clone();
                k.extend_from_slice(&a.to_bytes());
                Bound::Excluded(k)
            }
            None => Bound::Included(prefix.clone()),
        };
        self.inner
            .deliveries
            .range::<Vec<u8>, _>((start, Bound::Unbounded))
            .take_while(|kv| kv.as_ref().map_or(true, |(k, _)| k.starts_with(&prefix)))
            .take(limit)
            .map(|kv| decode("deliveries", &kv?.1))
            .collect()
    }

    /// Every pending delivery as `(tenant, webhook, delivery)`, webhook by webhook, oldest first.
    pub fn due_deliveries(&self) -> Result<Vec<(Ulid, Ulid, Ulid)>, StoreError> {
        self.inner
            .due
            .iter()
            .map(|kv| {
                let (k, v) = kv?;
                Ok((ulid_at(&v), ulid_at(&k), ulid_at(&k[16..])))
            })
            .collect()
    }

    // ---- templates ----

    /// Writes a template and its name index (dropping `old_name` when renamed). Follow with
    /// [`Store::commit`]. Uniqueness is the caller's (the tenant actor serialises writes).
    pub fn put_template(&self, t: &TemplateRecord, old_name: Option<&str>) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.templates, &i.template_names)
            .transaction(|(tt, names)| {
                if let Some(old) = old_name {
                    names.remove(tkey(t.tenant_id, old.as_bytes()))?;
                }
                names.insert(tkey(t.tenant_id, t.name.as_bytes()), &t.id.to_bytes())?;
                tt.insert(tkey(t.tenant_id, &t.id.to_bytes()), encode(t))?;
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// Deletes a template. Follow with [`Store::commit`].
    pub fn delete_template(&self, t: &TemplateRecord) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.templates, &i.template_names)
            .transaction(|(tt, names)| {
                names.remove(tkey(t.tenant_id, t.name.as_bytes()))?;
                tt.remove(tkey(t.tenant_id, &t.id.to_bytes()))?;
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// A template by id.
    pub fn template(&self, tenant: Ulid, id: Ulid) -> Result<Option<TemplateRecord>, StoreError> {
        self.inner.templates.get(tkey(tenant, &id.to_bytes()))?.map(|v| decode("templates", &v)).transpose()
    }

    /// A template by name.
    pub fn template_by_name(&self, tenant: Ulid, name: &str) -> Result<Option<TemplateRecord>, StoreError> {
        match self.inner.template_names.get(tkey(tenant, name.as_bytes()))? {
            Some(id) if id.len() == 16 => self.template(tenant, ulid_at(&id)),
            _ => Ok(None),
        }
    }

    /// A tenant's templates in creation order after `after`.
    pub fn templates(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<TemplateRecord>, StoreError> {
        self.page(&self.inner.templates, "templates", tenant, after, limit)
    }

    // ---- contacts ----

    /// Writes a contact and its phone index (dropping `old_phone` when it changed). Follow with
    /// [`Store::commit`]. Uniqueness is the caller's (the tenant actor serialises writes).
    pub fn put_contact(&self, c: &ContactRecord, old_phone: Option<&str>) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.contacts, &i.contact_phones)
            .transaction(|(ct, phones)| {
                if let Some(old) = old_phone {
                    phones.remove(tkey(c.tenant_id, old.as_bytes()))?;
                }
                phones.insert(tkey(c.tenant_id, c.phone.as_bytes()), &c.id.to_bytes())?;
                ct.insert(tkey(c.tenant_id, &c.id.to_bytes()), encode(c))?;
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// Deletes a contact. Follow with [`Store::commit`].
    pub fn delete_contact(&self, c: &ContactRecord) -> Result<(), StoreError> {
        let i = &self.inner;
        (&i.contacts, &i.contact_phones)
            .transaction(|(ct, phones)| {
                phones.remove(tkey(c.tenant_id, c.phone.as_bytes()))?;
                ct.remove(tkey(c.tenant_id, &c.id.to_bytes()))?;
                Ok::<_, Cte<StoreError>>(())
            })
            .map_err(StoreError::from)
    }

    /// A contact by id.
    pub fn contact(&self, tenant: Ulid, id: Ulid) -> Result<Option<ContactRecord>, StoreError> {
        self.inner.contacts.get(tkey(tenant, &id.to_bytes()))?.map(|v| decode("contacts", &v)).transpose()
    }

    /// A contact by phone number.
    pub fn contact_by_phone(&self, tenant: Ulid, phone: &str) -> Result<Option<ContactRecord>, StoreError> {
        match self.inner.contact_phones.get(tkey(tenant, phone.as_bytes()))? {
            Some(id) if id.len() == 16 => self.contact(tenant, ulid_at(&id)),
            _ => Ok(None),
        }
    }

    /// A tenant's contacts in creation order after `after`.
    pub fn contacts(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<ContactRecord>, StoreError> {
        self.page(&self.inner.contacts, "contacts", tenant, after, limit)
    }

    /// One page of a tenant's records in a tree keyed `tenant ++ id`.
    fn page<T: DeserializeOwned>(
        &self,
        tree: &sled::Tree,
        name: &'static str,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<T>, StoreError> {
        let start = match after {
            Some(a) => Bound::Excluded(tkey(tenant, &a.to_bytes())),
            None => Bound::Included(tkey(tenant, &[])),
        };
        let prefix = tenant.to_bytes();
        tree.range::<Vec<u8>, _>((start, Bound::Unbounded))
            .take_while(|kv| kv.as_ref().map_or(true, |(k, _)| k.starts_with(&prefix)))
            .take(limit)
            .map(|kv| decode(name, &kv?.1))
            .collect()
    }

    // ---- campaigns ----

    /// Writes a campaign. Follow with [`Store::commit`] when the change must last.
    pub fn put_campaign(&self, c: &CampaignRecord) -> Result<(), StoreError> {
        self.inner.campaigns.insert(tkey(c.tenant_id, &c.id.to_bytes()), encode(c))?;
        Ok(())
    }

    /// A campaign by id.
    pub fn campaign(&self, tenant: Ulid, id: Ulid) -> Result<Option<CampaignRecord>, StoreError> {
        self.inner.campaigns.get(tkey(tenant, &id.to_bytes()))?.map(|v| decode("campaigns", &v)).transpose()
    }

    /// A tenant's campaigns in creation order after `after`.
    pub fn campaigns(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<CampaignRecord>, StoreError> {
        self.page(&self.inner.campaigns, "campaigns", tenant, after, limit)
    }

    /// Every running campaign of every tenant (resumed at start-up).
    pub fn running_campaigns(&self) -> Result<Vec<CampaignRecord>, StoreError> {
        let mut out = Vec::new();
        for kv in self.inner.campaigns.iter() {
            let c: CampaignRecord = decode("campaigns", &kv?.1)?;
            if c.status == crate::model::CampaignStatus::Running {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// Stores a campaign's resolved recipients, numbered from 0, in batches.
    pub fn put_campaign_recipients(
        &self,
        tenant: Ulid,
        campaign: Ulid,
        phones: &[String],
    ) -> Result<(), StoreError> {
        for chunk in phones.chunks(10_000).enumerate() {
            let mut batch = sled::Batch::default();
            for (j, p) in chunk.1.iter().enumerate() {
                let i = (chunk.0 * 10_000 + j) as u64;
                let mut k = tkey(tenant, &campaign.to_bytes());
                k.extend_from_slice(&i.to_be_bytes());
                batch.insert(k, p.as_bytes());
            }
            self.inner.campaign_recipients.apply_batch(batch)?;
        }
        Ok(())
    }

    /// Recipients `from..from+n` of a campaign.
    pub fn campaign_recipients(
        &self,
        tenant: Ulid,
        campaign: Ulid,
        from: u64,
        n: usize,
    ) -> Result<Vec<String>, StoreError> {
        let prefix = tkey(tenant, &campaign.to_bytes());
        let mut start = prefix.clone();
        start.extend_from_slice(&from.to_be_bytes());
        self.inner
            .campaign_recipients
            .range(start..)
            .take_while(|kv| kv.as_ref().map_or(true, |(k, _)| k.starts_with(&prefix)))
            .take(n)
            .map(|kv| Ok(String::from_utf8_lossy(&kv?.1).into_owned()))
            .collect()
    }

    /// Links a message to its campaign (for the campaign's counts).
    pub fn link_campaign_message(
        &self,
        tenant: Ulid,
        campaign: Ulid,
        message: Ulid,
    ) -> Result<(), StoreError> {
        let mut k = tkey(tenant, &campaign.to_bytes());
        k.extend_from_slice(&message.to_bytes());
        self.inner.campaign_messages.insert(k, &[])?;
        Ok(())
    }

    /// The messages a campaign made.
    pub fn campaign_messages(&self, tenant: Ulid, campaign: Ulid) -> Result<Vec<MessageRecord>, StoreError> {
        let prefix = tkey(tenant, &campaign.to_bytes());
        let mut out = Vec::new();
        for k in self.inner.campaign_messages.scan_prefix(&prefix).keys() {
            let k = k?;
            if let Some(m) = self.message(tenant, ulid_at(&k[32..]))? {
                out.push(m);
            }
        }
        Ok(out)
    }

    // ---- detection ----

    /// The last detection of a number by this tenant's phones.
    pub fn detection(&self, tenant: Ulid, number: &str) -> Result<Option<DetectionRecord>, StoreError> {
        self.inner
            .detections
            .get(tkey(tenant, number.as_bytes()))?
            .map(|v| decode("detections", &v))
            .transpose()
    }

    /// Records a detection (no flush needed: a lost one is asked again).
    pub fn put_detection(&self, tenant: Ulid, number: &str, d: &DetectionRecord) -> Result<(), StoreError> {
        self.inner.detections.insert(tkey(tenant, number.as_bytes()), encode(d))?;
        Ok(())
    }

    // ---- recipients and opt-outs ----

    /// What the tenant knows of a number, if it has messaged it.
    pub fn recipient(&self, tenant: Ulid, number: &str) -> Result<Option<RecipientRecord>, StoreError> {
        self.inner
            .recipients
            .get(tkey(tenant, number.as_bytes()))?
            .map(|v| decode("recipients", &v))
            .transpose()
    }

    /// Opts a number out of (or back into) a tenant. Follow with [`Store::commit`].
    pub fn set_opted_out(&self, tenant: Ulid, number: &str, out: bool) -> Result<(), StoreError> {
        let k = tkey(tenant, number.as_bytes());
        if out {
            self.inner.optouts.insert(k, &[1u8])?;
        } else {
            self.inner.optouts.remove(k)?;
        }
        Ok(())
    }

    /// True if the number sent STOP to this tenant and not START since.
    pub fn is_opted_out(&self, tenant: Ulid, number: &str) -> Result<bool, StoreError> {
        Ok(self.inner.optouts.contains_key(tkey(tenant, number.as_bytes()))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;
    use chrono::Utc;

    fn tenant() -> TenantRecord {
        let now = crate::ts::truncate(Utc::now());
        TenantRecord {
            id: Ulid::generate(),
            name: "acme".into(),
            plan: Plan::Trial,
            status: TenantStatus::Active,
            subscription_active: false,
            trial_ends_at: now,
            new_contact_daily_limit: None,
            monthly_call_limit: None,
            quiet_hours: QuietHours::default(),
            created_at: now,
        }
    }

    fn key(t: Ulid, hash: &str) -> ApiKeyRecord {
        ApiKeyRecord {
            id: Ulid::generate(),
            tenant_id: t,
            name: "k".into(),
            environment: Environment::Live,
            hash: hash.into(),
            hint: "...abcd".into(),
            rate_limit: None,
            active: true,
            revoked_at: None,
            last_used_at: None,
            created_at: crate::ts::truncate(Utc::now()),
        }
    }

    #[tokio::test]
    async fn records_survive_reopen_and_revocation_leaves_the_index() {
        let dir = tempfile::tempdir().unwrap();
        let t = tenant();
        let mut k = key(t.id, &"a1".repeat(32));
        {
            let s = Store::open(dir.path()).unwrap();
            s.create_tenant(&t, std::slice::from_ref(&k)).unwrap();
            s.set_counter(t.id, "calls:2026-11", 7).unwrap();
            s.commit().await.unwrap();
            assert_eq!(s.key_by_hash(&k.hash).unwrap(), Some((t.id, k.id)));
        }
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(s.tenant(t.id).unwrap(), Some(t.clone()));
        assert_eq!(s.keys_of(t.id).unwrap(), vec![k.clone()]);
        assert_eq!(s.key_owner(k.id).unwrap(), Some(t.id));
        assert_eq!(s.counter(t.id, "calls:2026-11").unwrap(), 7);
        k.revoked_at = Some(crate::ts::truncate(Utc::now()));
        s.put_key(&k).unwrap();
        assert_eq!(s.key_by_hash(&k.hash).unwrap(), None);
        assert_eq!(s.keys_of(t.id).unwrap()[0].revoked_at, k.revoked_at);
    }

    #[tokio::test]
    async fn tenants_page_in_id_order() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let mut ids = vec![];
        for _ in 0..5 {
            let t = tenant();
            s.put_tenant(&t).unwrap();
            ids.push(t.id);
        }
        ids.sort();
        let page: Vec<_> = s.tenants(Some(ids[1]), 2).unwrap().into_iter().map(|t| t.id).collect();
        assert_eq!(page, ids[2..4].to_vec());
    }

    fn message(tenant: Ulid, phone: Option<Ulid>) -> MessageRecord {
        MessageRecord {
            id: new_id(),
            tenant_id: tenant,
            direction: Direction::Outbound,
            status: MessageStatus::Queued,
            to: "+14155550100".into(),
            from: None,
            phone_id: phone,
            channel: Channel::Auto,
            channel_used: None,
            body: "hi".into(),
            template: None,
            campaign_id: None,
            test: phone.is_none(),
            created_at: crate::ts::truncate(Utc::now()),
            scheduled_at: None,
            sent_at: None,
            delivered_at: None,
            failed_at: None,
            failure_reason: None,
            error_code: None,
            lease: None,
            held: false,
            notice: None,
        }
    }

    #[tokio::test]
    async fn the_pending_index_follows_message_status_across_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let (t, p) = (new_id(), new_id());
        let (a, mut b, c) = (message(t, Some(p)), message(t, Some(p)), message(t, None));
        {
            let s = Store::open(dir.path()).unwrap();
            for m in [&a, &b, &c] {
                s.accept_message(m, None, &[("calls:x", 1)], None).unwrap();
            }
            b.status = MessageStatus::Sending;
            s.put_message(&b).unwrap();
            let mut done = a.clone();
            done.status = MessageStatus::Delivered;
            s.put_message(&done).unwrap();
            s.commit().await.unwrap();
        }
        let s = Store::open(dir.path()).unwrap();
        let work = s.pending().unwrap();
        let ids: Vec<_> = work.iter().map(|w| (w.phone_id, w.message_id)).collect();
        // Test messages (no phone) sort first; the delivered one left the index.
        assert_eq!(ids, vec![(None, c.id), (Some(p), b.id)]);
        assert_eq!(s.message(t, b.id).unwrap().unwrap().status, MessageStatus::Sending);
        s.drop_pending(&work[0]).unwrap();
        assert_eq!(s.pending().unwrap().len(), 1);
        assert_eq!(s.counter(t, "calls:x").unwrap(), 1);
    }

    #[tokio::test]
    async fn concurrent_commits_share_flushes() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let t = Ulid::generate();
        let tasks: Vec<_> = (0..64u64)
            .map(|i| {
                let s = s.clone();
                tokio::spawn(async move {
                    s.set_counter(t, &format!("c{i}"), i).unwrap();
                    s.commit().await.unwrap();
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        let st = s.commit_stats();
        assert_eq!(st.commits, 64);
        // The first writer may get a flush of its own; the rest queue behind it and share.
        assert!(st.flushes <= 8, "64 concurrent commits took {} flushes", st.flushes);
        // Each flush writes and syncs: it takes time, and the slow ones are a subset.
        assert!(st.flush_micros > 0, "flush time was not counted");
        assert!(st.slow_flushes <= st.flushes);
    }
}
