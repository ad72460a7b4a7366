//! Media: a file a tenant uploaded (or a phone received), to send or to read.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// One uploaded file. Its bytes are kept by their hash (`media.rs`), so two records of the same
/// bytes share one stored file while each counts toward its tenant's bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaRecord {
    /// Media id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// The type it was uploaded as, checked against its first bytes.
    pub content_type: String,
    /// Bytes.
    pub size: u64,
    /// SHA-256 of the bytes, lowercase hex: the stored file's name.
    pub sha256: String,
    /// The name given at upload.
    pub filename: Option<String>,
    /// The phone whose agent uploaded it (an inbound file); `None` for a tenant's upload.
    pub phone_id: Option<Ulid>,
    /// Upload time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}
