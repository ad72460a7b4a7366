//! What a tenant keeps to write texts with: templates, contacts, and detection answers.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// A message template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateRecord {
    /// Template id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Unique in the tenant.
    pub name: String,
    /// Text with `{{ variable }}` placeholders (validated at write).
    pub body: String,
    /// Its variables, in order of first use.
    pub variables: Vec<String>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::ts")]
    pub updated_at: DateTime<Utc>,
}

/// A contact: a recipient the tenant knows by name, zone and attributes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactRecord {
    /// Contact id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// E.164, unique in the tenant.
    pub phone: String,
    /// Display name.
    pub name: Option<String>,
    /// IANA zone (quiet hours use it).
    pub timezone: Option<String>,
    /// Free string attributes; they also fill template variables.
    pub attributes: std::collections::BTreeMap<String, String>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::ts")]
    pub updated_at: DateTime<Utc>,
}

/// What a phone said about a number's iMessage support (cached 7 days).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetectionRecord {
    /// Has iMessage.
    pub imessage: bool,
    /// When it was checked.
    #[serde(with = "crate::ts")]
    pub checked_at: DateTime<Utc>,
}

/// How a number came to be opted out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptOutVia {
    /// The recipient texted STOP (or a synonym).
    Keyword,
    /// The tenant recorded an opt-out it got elsewhere (`POST /v1/opt-outs`).
    Api,
}

/// A number that may not be messaged until it texts START (or, for one made through the API,
/// until the tenant removes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptOutRecord {
    /// E.164.
    pub phone: String,
    /// When; `None` for an opt-out stored before its time was kept.
    #[serde(with = "crate::ts::option")]
    pub opted_out_at: Option<DateTime<Utc>>,
    /// Keyword or API.
    pub via: OptOutVia,
    /// The keyword as matched, upper-cased; `None` for the API.
    pub keyword: Option<String>,
}
