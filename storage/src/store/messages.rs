//! Messages and what the send path writes beside them: the recipient's record, the idempotency
//! key, and the two work lists a restart resumes from: `pending` (phone → messages it still
//! owes, in acceptance order; young entries only in memory, see `worklist.rs`) and `schedule`
//! (held messages by release time).

use std::ops::Bound;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use ulid::Ulid;

use super::spans::Spanned;
use super::tree::{Opener, Tree};
use super::worklist::WorkList;
use super::{decode, encode, get_of, tkey, ulid_at};
use crate::model::{IdempotencyRecord, MessageRecord, RecipientRecord};
use crate::StoreError;

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

/// A held message on the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct HeldMessage {
    /// When it is due (to the millisecond): its release, or its expiry if that comes first.
    pub at: DateTime<Utc>,
    /// Owner.
    pub tenant_id: Ulid,
    /// Message.
    pub message_id: Ulid,
}

/// The `messages`, `pending`, `schedule`, `recipients` and `idempotency` trees.
pub struct Messages {
    messages: Arc<Spanned>,
    pending: Arc<WorkList>,
    schedule: Tree,
    recipients: Tree,
    idempotency: Tree,
    /// `tenant ++ media ++ message` → nothing: which messages hold a media record, so retention
    /// lets the record go with the last of them (`media.rs`).
    uses: Tree,
}

/// The `pending` key of a message: its phone (nil for test messages) then its id, so each phone's
/// work is one range in acceptance order.
pub(super) fn pending_key(phone: Option<Ulid>, id: Ulid) -> [u8; 32] {
    super::worklist::key(phone.unwrap_or(Ulid::nil()), id)
}

/// The `schedule` key of a held message: release time (ms, big-endian), tenant, id, so the tree
/// reads in release order. A message that expires while held is due at its expiry instead.
fn schedule_key(m: &MessageRecord) -> Option<[u8; 40]> {
    let release = m.scheduled_at?;
    let due = m.expires_at.map_or(release, |e| e.min(release));
    let at = due.timestamp_millis().max(0) as u64;
    let mut k = [0u8; 40];
    k[..8].copy_from_slice(&at.to_be_bytes());
    k[8..24].copy_from_slice(&m.tenant_id.to_bytes());
    k[24..].copy_from_slice(&m.id.to_bytes());
    Some(k)
}

impl Messages {
    pub(super) fn open(db: &Opener, meta: &Tree) -> Result<Self, StoreError> {
        Ok(Self {
            // Keys `tenant ++ id`.
            messages: Arc::new(Spanned::open(db, meta, "messages", 16)?),
            pending: Arc::new(WorkList::new(db.tree("pending")?, db.clock.clone())),
            schedule: db.tree("schedule")?,
            recipients: db.tree("recipients")?,
            idempotency: db.tree("idempotency")?,
            uses: db.tree("media_uses")?,
        })
    }

    pub(super) fn tree(&self) -> &Arc<Spanned> {
        &self.messages
    }

    pub(super) fn pending_list(&self) -> &Arc<WorkList> {
        &self.pending
    }

    pub(super) fn idempotency_tree(&self) -> &Tree {
        &self.idempotency
    }

    pub(super) fn uses_tree(&self) -> &Tree {
        &self.uses
    }

    /// Notes the media `m` holds, before its record is written: no record is ever without them.
    fn hold_media(&self, m: &MessageRecord) -> Result<(), StoreError> {
        for f in &m.media {
            let mut k = tkey(m.tenant_id, &f.id.to_bytes());
            k.extend_from_slice(&m.id.to_bytes());
            self.uses.insert(k, &[][..])?;
        }
        Ok(())
    }

    /// Writes a newly accepted message after what it changes (the recipient's record, the
    /// idempotency key, its work list entry): the message record comes last and is the commit
    /// point. See [`super::Store::accept_message`], the one caller.
    pub(super) fn accept(
        &self,
        m: &MessageRecord,
        recipient: Option<(&str, &RecipientRecord)>,
        idempotency: Option<(&str, &IdempotencyRecord)>,
    ) -> Result<(), StoreError> {
        if let Some((number, r)) = recipient {
            self.recipients.insert(tkey(m.tenant_id, number.as_bytes()), encode(r))?;
        }
        if let Some((key, r)) = idempotency {
            self.idempotency.insert(tkey(m.tenant_id, key.as_bytes()), encode(r))?;
        }
        if m.held {
            if let Some(k) = schedule_key(m) {
                self.schedule.insert(k, &[])?;
            }
        } else if m.status.is_pending() {
            self.pending.add(pending_key(m.phone_id, m.id), m.tenant_id)?;
        }
        self.hold_media(m)?;
        self.messages.insert(&tkey(m.tenant_id, &m.id.to_bytes()), encode(m))?;
        Ok(())
    }

    /// Writes a message's new state; the pending index follows its status. The record goes first:
    /// a crash in between leaves a stale `pending` entry (dropped at recovery), never a pending
    /// message missing from the index.
    pub fn put(&self, m: &MessageRecord) -> Result<(), StoreError> {
        // A released message enters `pending` before its record says so, and leaves `schedule`
        // after: a crash in between leaves it findable in both lists, never in neither.
        let owed_by_phone = m.status.is_pending() && !m.held;
        let pk = pending_key(m.phone_id, m.id);
        if owed_by_phone {
            self.pending.add(pk, m.tenant_id)?;
        }
        // An inbound message's first write is a put.
        self.hold_media(m)?;
        self.messages.insert(&tkey(m.tenant_id, &m.id.to_bytes()), encode(m))?;
        if !owed_by_phone {
            self.pending.remove(&pk)?;
        }
        if !m.held {
            if let Some(k) = schedule_key(m) {
                self.schedule.remove(k)?;
            }
        }
        Ok(())
    }

    /// Writes a message moved from phone `from` to the phone it names now, with the recipient's
    /// sticky phone moved along: the new phone's work-list entry first, the old one's last, so a
    /// crash in between leaves it findable (a stale entry is dropped at recovery), never lost.
    pub fn put_moved(
        &self,
        m: &MessageRecord,
        from: Ulid,
        recipient: &RecipientRecord,
    ) -> Result<(), StoreError> {
        self.recipients.insert(tkey(m.tenant_id, m.to.as_bytes()), encode(recipient))?;
        self.put(m)?;
        self.pending.remove(&pending_key(Some(from), m.id))?;
        Ok(())
    }

    /// One message of a tenant.
    pub fn get(&self, tenant: Ulid, id: Ulid) -> Result<Option<MessageRecord>, StoreError> {
        get_of(&self.messages, "messages", tenant, id)
    }

    /// A tenant's messages in acceptance order after `after`, those `keep` accepts, at most
    /// `limit`, reading at most `max_read` records. When the read limit stops the scan before
    /// `limit` were found and before the tenant's last message, the second value is the last id
    /// read: the caller continues from there (a filter that matches little never walks every
    /// message in one call).
    pub fn page(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
        max_read: usize,
        keep: impl Fn(&MessageRecord) -> bool,
    ) -> Result<(Vec<MessageRecord>, Option<Ulid>), StoreError> {
        let start = match after {
            Some(a) => Bound::Excluded(tkey(tenant, &a.to_bytes())),
            None => Bound::Included(tkey(tenant, &[])),
        };
        let end = match u128::from(tenant).checked_add(1) {
            Some(next) => Bound::Excluded(Ulid::from(next).to_bytes().to_vec()),
            None => Bound::Unbounded,
        };
        scan(self.messages.range(start, end, false), limit, max_read, keep)
    }

    /// The same newest first: messages before `before` (all when `None`), read backwards with
    /// the same read limit and cursor (the dashboard's lists).
    pub fn page_newest(
        &self,
        tenant: Ulid,
        before: Option<Ulid>,
        limit: usize,
        max_read: usize,
        keep: impl Fn(&MessageRecord) -> bool,
    ) -> Result<(Vec<MessageRecord>, Option<Ulid>), StoreError> {
        let start = Bound::Included(tkey(tenant, &[]));
        let end = match before {
            Some(b) => Bound::Excluded(tkey(tenant, &b.to_bytes())),
            None => match u128::from(tenant).checked_add(1) {
                Some(next) => Bound::Excluded(Ulid::from(next).to_bytes().to_vec()),
                None => Bound::Unbounded,
            },
        };
        scan(self.messages.range(start, end, true), limit, max_read, keep)
    }

    /// Every message still owed by a phone (or a test completion), phone by phone, oldest first.
    pub fn pending(&self) -> Result<Vec<PendingWork>, StoreError> {
        Ok(self
            .pending
            .entries()?
            .into_iter()
            .map(|(k, tenant_id)| {
                let phone = ulid_at(&k);
                PendingWork {
                    phone_id: (!phone.is_nil()).then_some(phone),
                    tenant_id,
                    message_id: ulid_at(&k[16..]),
                }
            })
            .collect())
    }

    /// Drops a `pending` entry whose message is gone or finished (found at recovery).
    pub fn drop_pending(&self, w: &PendingWork) -> Result<(), StoreError> {
        self.pending.remove(&pending_key(w.phone_id, w.message_id))
    }

    /// Every held message, earliest release first.
    pub fn scheduled(&self) -> Result<Vec<HeldMessage>, StoreError> {
        self.schedule
            .iter()
            .keys()
            .map(|k| {
                let k = k?;
                let ms = u64::from_be_bytes(k[..8].try_into().expect("8 bytes")) as i64;
                let at = DateTime::from_timestamp_millis(ms).unwrap_or_default();
                Ok(HeldMessage { at, tenant_id: ulid_at(&k[8..]), message_id: ulid_at(&k[24..]) })
            })
            .collect()
    }

    /// What the tenant knows of a number, if it has messaged it.
    pub fn recipient(&self, tenant: Ulid, number: &str) -> Result<Option<RecipientRecord>, StoreError> {
        self.recipients.get(tkey(tenant, number.as_bytes()))?.map(|v| decode("recipients", &v)).transpose()
    }

    /// Records the first answer to an idempotency key of a tenant (a caller other than a send, which
    /// writes its key with the message).
    pub fn set_idempotency(&self, tenant: Ulid, key: &str, r: &IdempotencyRecord) -> Result<(), StoreError> {
        self.idempotency.insert(tkey(tenant, key.as_bytes()), encode(r))?;
        Ok(())
    }

    /// The first answer given to an idempotency key of a tenant, if any.
    pub fn idempotency(&self, tenant: Ulid, key: &str) -> Result<Option<IdempotencyRecord>, StoreError> {
        self.idempotency.get(tkey(tenant, key.as_bytes()))?.map(|v| decode("idempotency", &v)).transpose()
    }
}

/// Reads messages from `records` until `limit` are kept or `max_read` are read. When the read
/// limit stops it before the end, the second value is the last id read, to go on from.
fn scan(
    mut records: impl Iterator<Item = Result<(super::tree::IVec, super::tree::IVec), StoreError>>,
    limit: usize,
    max_read: usize,
    keep: impl Fn(&MessageRecord) -> bool,
) -> Result<(Vec<MessageRecord>, Option<Ulid>), StoreError> {
    let mut out = Vec::new();
    let mut last_read = None;
    for _ in 0..max_read {
        let Some(kv) = records.next() else { return Ok((out, None)) };
        let m: MessageRecord = decode("messages", &kv?.1)?;
        last_read = Some(m.id);
        if keep(&m) {
            out.push(m);
            if out.len() >= limit {
                return Ok((out, None));
            }
        }
    }
    // Stopped by the read limit: say where, unless nothing is left anyway.
    Ok((out, if records.next().is_some() { last_read } else { None }))
}
