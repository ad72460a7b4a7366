//! Phones: how each is driven, and its daily limit.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// How a phone is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PhoneDriver {
    /// A device running the agent, pulling jobs over `/phone/v1/`.
    Agent,
    /// In-process simulation: delivers after `latency_ms`, fails at `failure_rate`.
    Sim,
}

/// Behaviour of a simulated phone.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SimSettings {
    /// Time from hand-over to delivery.
    pub latency_ms: u64,
    /// Share of messages that fail, 0.0–1.0.
    pub failure_rate: f64,
    /// Time from delivery to the recipient reading it; never read when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_after_ms: Option<u64>,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self { latency_ms: 50, failure_rate: 0.0, read_after_ms: None }
    }
}

/// A tenant's phone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhoneRecord {
    /// Phone id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// E.164 number: the `from` of what it sends.
    pub number: String,
    /// Messages it may take per UTC day.
    pub daily_limit: u32,
    /// Agent or sim.
    pub driver: PhoneDriver,
    /// Sim behaviour (ignored for agents).
    pub sim: SimSettings,
    /// Off: never chosen.
    pub enabled: bool,
    /// Sim phones only: the operator's online switch. Agents are online while they poll.
    pub sim_online: bool,
    /// SHA-256 (hex) of the agent token.
    pub agent_token_hash: Option<String>,
    /// What the last `phone.online`/`phone.offline` said (`None`: never online yet), so each
    /// change is announced once, also across restarts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub announced_online: Option<bool>,
    /// Why the phone took itself out of rotation (phone-scoped failures in a row); cleared when
    /// the operator enables it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_reason: Option<String>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}
