//! Media records: `media` keyed `tenant ++ id`, and two indexes written with it: `media_ids`
//! (id → tenant, global: a signed link names only the id) and `media_holders` (`sha256 ++ tenant
//! ++ id` → nothing: which records hold a stored file, so the file can go with the last of them).
//! The bytes themselves are not in the trees (`crate::media`).

use ulid::Ulid;

use super::tree::{Opener, Tree, Writes};
use super::{decode, encode, get_of, tkey, ulid_value};
use crate::model::MediaRecord;
use crate::StoreError;

/// The media trees.
pub struct Media {
    records: Tree,
    ids: Tree,
    holders: Tree,
}

impl Media {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self {
            records: db.tree("media")?,
            ids: db.tree("media_ids")?,
            holders: db.tree("media_holders")?,
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
        self.inner.files.keep(spool)
    }

    /// The bytes of a media record, `None` if they are not stored.
    pub fn media_content(
        &self,
        m: &crate::model::MediaRecord,
    ) -> Result<Option<crate::media::Content>, StoreError> {
        self.inner.files.open(&m.sha256, m.size)
    }
}

fn holder_key(m: &MediaRecord) -> Vec<u8> {
    let mut k = m.sha256.as_bytes().to_vec();
    k.extend_from_slice(&tkey(m.tenant_id, &m.id.to_bytes()));
    k
}
