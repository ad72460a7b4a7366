//! Dashboard sessions: who signed in, and when they were last seen.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// Who a dashboard session speaks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SessionPrincipal {
    /// A tenant, signed in with one of its API keys (the session ends with the key).
    Key {
        /// The tenant.
        tenant_id: Ulid,
        /// The key used.
        key_id: Ulid,
    },
    /// A tenant, signed in with an identity provider's token for `sub`.
    Subject {
        /// The tenant.
        tenant_id: Ulid,
        /// The provider's subject.
        sub: String,
        /// The token's `exp` (Unix seconds): the session ends with the token (plus the API's
        /// leeway). Sessions stored before it was kept read 0 and have ended.
        #[serde(default)]
        expires: i64,
    },
    /// The operator.
    Operator {
        /// A digest of the operator token's stored hash when the session opened: a new operator
        /// token ends every session opened with the old one. Sessions stored before it was kept
        /// read empty and have ended.
        #[serde(default)]
        token: String,
    },
}

/// A session, stored under the SHA-256 of its id (the id itself lives only in the cookie).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// Who signed in.
    pub principal: SessionPrincipal,
    /// The token every form of the session carries.
    pub csrf: String,
    /// Sign-in time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Last page served (kept to the minute): 12 h after it the session ends.
    #[serde(with = "crate::ts")]
    pub last_seen_at: DateTime<Utc>,
}
