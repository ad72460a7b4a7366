//! The actors of pigeon's engine. Each tenant's policy state (keys, per-key rate limiters, the
//! monthly call count, its phones' capacity) lives in one actor, so the rules for a tenant run one
//! at a time, in order, with no locks; the [`Engine`] hands out addresses and hides them behind
//! small handle types.
//!
//! Modules depend downwards only: `engine` → `tenant` → `phone`, `webhook`, `scheduler`,
//! `registry` → the leaves (`clock`, `credentials`, `domain`, `durable`, `error`, `failure`,
//! `identity`, `quiet`, `zones`). A tidy test holds this (no import circle between modules).

/// Logs a failed store write with its fields: at error level, or at debug level when the disk is
/// full or failing, which the store has already said once (one line per message would flood
/// the log while every write fails).
macro_rules! log_store_failure {
    ($e:expr, $($rest:tt)+) => {{
        let e = &$e;
        if crate::error::MaybeUnavailable::is_unavailable(e) {
            tracing::debug!(error = %e, $($rest)+)
        } else {
            tracing::error!(error = %e, $($rest)+)
        }
    }};
}

pub mod clock;
pub mod credentials;
pub mod domain;
mod durable;
mod engine;
mod error;
pub mod failure;
pub mod identity;
pub mod media;
pub mod phone;
pub mod quiet;
mod registry;
mod retention;
pub mod scheduler;
mod tenant;
pub mod webhook;
pub mod zones;

pub use engine::{
    check_admin_token, name_thread, parse_types, AgentHandle, CreatedTenant, Demo, Depths, Engine,
    EngineConfig, EventBatch, EventQuery, LocatedKey, NodeStamp, Route, Session, TenantHandle, TenantReads,
    Usage, DEFAULT_ACTOR_IDLE, DEFAULT_RETENTION, MAX_LIST_READ, MIN_ADMIN_TOKEN, SESSION_IDLE,
    SIGN_IN_FORM_TTL,
};
pub use error::{EngineError, Missing};
pub use failure::FailureCode;
pub use pigeon_storage as storage;
pub use tenant::{
    choose_phone, lacks, Admitted, ContactChanges, Credential, Detection, NewCampaign, NewKey, PhoneView,
    QuietHoursPatch, RateInfo, SendRequest, TenantPatch,
};
