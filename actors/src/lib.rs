//! The actors of pigeon's engine. Each tenant's policy state (keys, per-key rate limiters, the
//! monthly call count) lives in one actor, so the rules for a tenant run one at a time, in order,
//! with no locks; the [`Engine`] hands out addresses and hides them behind small handle types.

pub mod campaign;
pub mod clock;
pub mod credentials;
pub mod domain;
mod engine;
mod error;
mod messaging;
pub mod phone;
pub mod records;
pub mod scheduler;
mod tenant;
pub mod webhook;
pub mod zones;

pub use engine::{
    Admitted, AgentHandle, CreatedTenant, Demo, Depths, Engine, EngineConfig, LocatedKey, NewKey, RateInfo,
    TenantHandle, TenantPatch, Usage,
};
pub use error::EngineError;
pub use messaging::{choose_phone, Detection, PhoneView, SendRequest};
pub use pigeon_storage as storage;
