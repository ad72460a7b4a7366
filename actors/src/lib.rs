//! The actors of pigeon's engine. Each tenant's policy state (keys, per-key rate limiters, the
//! monthly call count, its phones' capacity) lives in one actor, so the rules for a tenant run one
//! at a time, in order, with no locks; the [`Engine`] hands out addresses and hides them behind
//! small handle types.
//!
//! Modules depend downwards only: `engine` → `tenant` → `phone`, `webhook`, `scheduler`,
//! `registry` → the leaves (`clock`, `credentials`, `domain`, `durable`, `error`, `failure`,
//! `quiet`, `zones`). A tidy test holds this (no import circle between modules).

pub mod clock;
pub mod credentials;
pub mod domain;
mod durable;
mod engine;
mod error;
pub mod failure;
pub mod phone;
pub mod quiet;
mod registry;
mod retention;
pub mod scheduler;
mod tenant;
pub mod webhook;
pub mod zones;

pub use engine::{
    AgentHandle, CreatedTenant, Demo, Depths, Engine, EngineConfig, LocatedKey, TenantHandle, TenantReads,
    Usage, DEFAULT_RETENTION,
};
pub use error::{EngineError, Missing};
pub use failure::FailureCode;
pub use pigeon_storage as storage;
pub use tenant::{
    choose_phone, Admitted, ContactChanges, Detection, NewCampaign, NewKey, PhoneView, QuietHoursPatch,
    RateInfo, SendRequest, TenantPatch,
};
