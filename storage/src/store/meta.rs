//! Node-wide settings that are not a tenant's: the operator token's hash, the demo marker and
//! the key media links are signed with.

use ulid::Ulid;

use super::tree::{Opener, Tree};
use super::ulid_value;
use crate::StoreError;

const ADMIN_TOKEN_HASH: &[u8] = b"admin_token_sha256";
const DEMO_TENANT: &[u8] = b"demo_tenant";

/// The `meta` tree.
pub struct Meta {
    meta: Tree,
}

impl Meta {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self { meta: db.tree("meta")? })
    }

    pub(super) fn tree(&self) -> &Tree {
        &self.meta
    }

    /// The SHA-256 (hex) of the operator token, once one has been set.
    pub fn admin_token_hash(&self) -> Result<Option<String>, StoreError> {
        Ok(self.meta.get(ADMIN_TOKEN_HASH)?.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// Replaces the operator token's hash. Follow with [`super::Store::commit`].
    pub fn set_admin_token_hash(&self, hash_hex: &str) -> Result<(), StoreError> {
        self.meta.insert(ADMIN_TOKEN_HASH, hash_hex.as_bytes())?;
        Ok(())
    }

    /// The demo tenant made by `serve --demo`, once.
    pub fn demo_tenant(&self) -> Result<Option<Ulid>, StoreError> {
        Ok(ulid_value(self.meta.get(DEMO_TENANT)?))
    }

    /// Marks the demo tenant as made. Follow with [`super::Store::commit`].
    pub fn set_demo_tenant(&self, id: Ulid) -> Result<(), StoreError> {
        self.meta.insert(DEMO_TENANT, &id.to_bytes())?;
        Ok(())
    }
}

const MEDIA_LINK_KEY: &[u8] = b"media_link_key";

impl Meta {
    /// The key media links are signed with on a node of its own, made on first use. Written
    /// without a commit: it reaches the disk with the first commit after it, before any link
    /// made with it can have been given out (links go out in answers that commit first).
    pub fn media_link_key(&self, make: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, StoreError> {
        if let Some(k) = self.meta.get(MEDIA_LINK_KEY)? {
            return Ok(k.to_vec());
        }
        let k = make();
        self.meta.insert(MEDIA_LINK_KEY, k.as_slice())?;
        Ok(k)
    }
}
