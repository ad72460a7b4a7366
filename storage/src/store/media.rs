//! Media records: `media` keyed `tenant ++ id`, and two indexes written with it: `media_ids`
//! (id → tenant, global: a signed link names only the id) and `media_holders` (`sha256 ++ tenant
//! ++ id` → nothing: which records hold a stored file, so the file can go with the last of them).
//! The bytes themselves are not in the trees (`crate::media`).
//!
//! Retention: a record goes once it is a day old and nothing holds it: no message (the
//! `media_uses` index, written with each message, `messages.rs`) and no campaign still to send.
//! A file goes once it was last kept over [`crate::media::GRACE_MS`] ago and no record holds it.

use std::collections::HashSet;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use ulid::Ulid;

use super::tree::{Opener, Tree, Writes};
use super::{decode, encode, get_of, tkey, ulid_value, Cursor};
use crate::model::{CampaignStatus, MediaRecord, MessageRecord};
use crate::StoreError;

/// How long an upload no message holds is kept.
pub const UNUSED_FOR: chrono::Duration = chrono::Duration::hours(24);

/// The media trees.
pub struct Media {
    records: Tree,
    ids: Tree,
    holders: Tree,
    /// Held while retention decides on a record and deletes it, and while a message naming media
    /// is accepted: a send never names a record retention is deleting (`Store::accept_message`).
    gate: Mutex<()>,
    /// Uploads made before this time may be held by messages written before `media_uses`
    /// existed, which no use names: retention leaves them alone.
    indexed_since: DateTime<Utc>,
}

/// The `meta` key of [`Media::indexed_since`] (ms since the epoch, big-endian).
pub(super) const INDEXED_SINCE: &[u8] = b"media_uses_since";

impl Media {
    /// Opens the trees; a store opened for the first time with the uses index notes from when
    /// uploads are indexed (from the start, for a store with no uploads yet).
    pub(super) fn open(db: &Opener, meta: &Tree, now: DateTime<Utc>) -> Result<Self, StoreError> {
        let records = db.tree("media")?;
        let since_ms = match meta.get(INDEXED_SINCE)? {
            Some(v) => v.as_ref().try_into().map_or(i64::MAX, i64::from_be_bytes),
            None => {
                let ms = if records.iter().next().is_none() { 0 } else { now.timestamp_millis() };
                meta.insert(INDEXED_SINCE, &ms.to_be_bytes())?;
                ms
            }
        };
        Ok(Self {
            records,
            ids: db.tree("media_ids")?,
            holders: db.tree("media_holders")?,
            gate: Mutex::new(()),
            indexed_since: DateTime::from_timestamp_millis(since_ms).unwrap_or(DateTime::<Utc>::MAX_UTC),
        })
    }

    /// Writes a record and its indexes. Follow with [`super::Store::commit`].
    pub fn put(&self, m: &MediaRecord) -> Result<(), StoreError> {
        let mut w = Writes::default();
        w.insert(&self.records, tkey(m.tenant_id, &m.id.to_bytes()), encode(m));
        w.insert(&self.ids, m.id.to_bytes(), &m.tenant_id.to_bytes());
        w.insert(&self.holders, holder_key(m), &[][..]);
        w.apply()
    }

    /// One of a tenant's media.
    pub fn get(&self, tenant: Ulid, id: Ulid) -> Result<Option<MediaRecord>, StoreError> {
        get_of(&self.records, "media", tenant, id)
    }

    /// The tenant a media id belongs to.
    pub fn owner(&self, id: Ulid) -> Result<Option<Ulid>, StoreError> {
        Ok(ulid_value(self.ids.get(id.to_bytes())?))
    }

    /// Bytes of media the tenant holds, counted per record.
    pub fn bytes(&self, tenant: Ulid) -> Result<u64, StoreError> {
        self.records.scan_prefix(tenant.to_bytes()).try_fold(0u64, |sum, kv| {
            let (_, v) = kv?;
            Ok(sum + decode::<MediaRecord>("media", &v)?.size)
        })
    }

    /// Whether any record holds the file of `sha256`.
    pub fn held(&self, sha256: &str) -> Result<bool, StoreError> {
        Ok(self.holders.scan_prefix(sha256.as_bytes()).keys().next().transpose()?.is_some())
    }

    /// Deletes a record and its indexes together.
    fn delete(&self, m: &MediaRecord) -> Result<(), StoreError> {
        let mut w = Writes::default();
        w.remove(&self.records, tkey(m.tenant_id, &m.id.to_bytes()));
        w.remove(&self.ids, m.id.to_bytes());
        w.remove(&self.holders, holder_key(m));
        w.apply()
    }

    /// Waits for the gate (see the field).
    pub(super) fn gate(&self) -> std::sync::MutexGuard<'_, ()> {
        self.gate.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl super::Store {
    /// Media records.
    pub fn media(&self) -> &Media {
        &self.inner.media
    }

    /// A new upload, to write a media file's bytes into before [`Store::keep_media`].
    pub fn media_spool(&self) -> Result<crate::media::Spool, StoreError> {
        self.inner.files.spool()
    }

    /// Makes an upload durable under its hash (stored once however often it comes). Its record
    /// is written after this returns, so no record names a file that is not whole.
    pub fn keep_media(&self, spool: crate::media::Spool) -> Result<crate::media::Kept, StoreError> {
        self.inner.files.keep(spool, self.clock().now().timestamp_millis())
    }

    /// The bytes of a media record, `None` if they are not stored.
    pub fn media_content(
        &self,
        m: &crate::model::MediaRecord,
    ) -> Result<Option<crate::media::Content>, StoreError> {
        self.inner.files.open(&m.sha256, m.size)
    }
}

impl super::Store {
    /// Writes a newly accepted message that names media, under the gate, once its media are
    /// sure to stay: one retention deleted as it was sent is refused, nothing written.
    pub(super) fn accept_with_media(
        &self,
        m: &MessageRecord,
        accept: impl FnOnce() -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let _gate = self.inner.media.gate();
        for f in &m.media {
            if self.inner.media.get(m.tenant_id, f.id)?.is_none() {
                return Err(StoreError::MediaGone(f.id));
            }
        }
        accept()
    }

    /// Looks at up to `max` media records from `cursor` and deletes those uploaded before
    /// `now - UNUSED_FOR` that nothing holds; returns where to go on and how many went. A use
    /// whose message is gone (pruned) is deleted on the way, unless its message may still be
    /// being written. In a fleet, only a tenant's owner deletes its records.
    pub fn prune_media(
        &self,
        cursor: Cursor,
        now: DateTime<Utc>,
        max: usize,
    ) -> Result<(Cursor, usize), StoreError> {
        let media = &self.inner.media;
        let start = match &cursor {
            Some(k) => std::ops::Bound::Excluded(k.clone()),
            None => std::ops::Bound::Unbounded,
        };
        let (mut looked, mut deleted) = (0, 0);
        let mut campaigns: Option<(Ulid, HashSet<Ulid>)> = None;
        for kv in media.records.range::<super::tree::IVec, _>((start, std::ops::Bound::Unbounded)) {
            let (k, v) = kv?;
            looked += 1;
            let m: MediaRecord = decode("media", &v)?;
            let indexed = m.created_at >= media.indexed_since;
            if indexed && m.created_at < now - UNUSED_FOR && self.mine(m.tenant_id) {
                if campaigns.as_ref().is_none_or(|(t, _)| *t != m.tenant_id) {
                    campaigns = Some((m.tenant_id, self.campaign_media(m.tenant_id)?));
                }
                let held_by_campaign = campaigns.as_ref().is_some_and(|(_, ids)| ids.contains(&m.id));
                let _gate = media.gate();
                if !held_by_campaign && !self.used(&m, now)? {
                    media.delete(&m)?;
                    deleted += 1;
                }
            }
            if looked >= max {
                return Ok((Some(k), deleted));
            }
        }
        Ok((None, deleted))
    }

    /// Whether a message holds `m`, deleting the uses of messages that are gone.
    fn used(&self, m: &MediaRecord, now: DateTime<Utc>) -> Result<bool, StoreError> {
        let uses = self.inner.messages.uses_tree();
        let writing_since = crate::id_bound(now - chrono::Duration::milliseconds(crate::media::GRACE_MS));
        for k in uses.scan_prefix(tkey(m.tenant_id, &m.id.to_bytes())).keys() {
            let k = k?;
            let Some(message) =
                k.get(32..48).and_then(|b| <[u8; 16]>::try_from(b).ok()).map(Ulid::from_bytes)
            else {
                continue;
            };
            if message >= writing_since || self.inner.messages.get(m.tenant_id, message)?.is_some() {
                return Ok(true);
            }
            uses.remove(&k)?;
        }
        Ok(false)
    }

    /// The media a tenant's campaigns still to send carry.
    fn campaign_media(&self, tenant: Ulid) -> Result<HashSet<Ulid>, StoreError> {
        let mut out = HashSet::new();
        let mut after = None;
        loop {
            let page = self.inner.campaigns.page(tenant, after, 500)?;
            let Some(last) = page.last() else { return Ok(out) };
            after = Some(last.id);
            for c in &page {
                if matches!(c.status, CampaignStatus::Draft | CampaignStatus::Running) {
                    out.extend(c.media.iter().map(|f| f.id));
                }
            }
        }
    }

    /// Deletes up to `max` stored files, by hash after `cursor`, last kept before `before_ms`
    /// that no record holds; returns where to go on (`None`: the end was reached) and how many
    /// went. Any node may: a file is the fleet's, and one kept again since is left alone.
    pub fn prune_media_files(
        &self,
        cursor: Option<String>,
        before_ms: i64,
        max: usize,
    ) -> Result<(Option<String>, usize), StoreError> {
        let stale = self.inner.files.stale(before_ms, cursor.as_deref(), max)?;
        let mut deleted = 0;
        for sha256 in &stale {
            if !self.inner.media.held(sha256)? && self.inner.files.remove(sha256, before_ms)? {
                deleted += 1;
            }
        }
        Ok((if stale.len() < max { None } else { stale.last().cloned() }, deleted))
    }
}

fn holder_key(m: &MediaRecord) -> Vec<u8> {
    let mut k = m.sha256.as_bytes().to_vec();
    k.extend_from_slice(&tkey(m.tenant_id, &m.id.to_bytes()));
    k
}
