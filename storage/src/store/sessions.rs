//! Dashboard sessions, keyed by the SHA-256 (hex) of the session id: the store never holds an id
//! that would let someone in. Global, like the credential indexes: a session is found before its
//! tenant is known.

use super::tree::{Opener, Tree};
use super::{decode, encode};
use crate::model::SessionRecord;
use crate::StoreError;

/// The `sessions` tree.
pub struct Sessions {
    sessions: Tree,
}

impl Sessions {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self { sessions: db.tree("sessions")? })
    }

    /// The session whose id hashes to `hash_hex`.
    pub fn get(&self, hash_hex: &str) -> Result<Option<SessionRecord>, StoreError> {
        self.sessions.get(hash_hex.as_bytes())?.map(|v| decode("sessions", &v)).transpose()
    }

    /// Writes a session. Follow with [`super::Store::commit`].
    pub fn put(&self, hash_hex: &str, s: &SessionRecord) -> Result<(), StoreError> {
        self.sessions.insert(hash_hex.as_bytes(), encode(s))?;
        Ok(())
    }

    /// Ends a session.
    pub fn delete(&self, hash_hex: &str) -> Result<(), StoreError> {
        self.sessions.remove(hash_hex.as_bytes())?;
        Ok(())
    }

    /// Drops sessions last seen before `cutoff` (the retention sweeper's share); returns how many.
    pub fn expire(&self, cutoff: chrono::DateTime<chrono::Utc>) -> Result<u64, StoreError> {
        let mut n = 0;
        for kv in self.sessions.iter() {
            let (k, v) = kv?;
            if decode::<SessionRecord>("sessions", &v).map_or(true, |s| s.last_seen_at < cutoff) {
                self.sessions.remove(k)?;
                n += 1;
            }
        }
        Ok(n)
    }
}
