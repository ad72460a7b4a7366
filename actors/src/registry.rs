//! What the engine shares with every tenant actor it starts: the running phone and webhook actors
//! (found by id: an agent's call names only its phone), the work threads they run on, and the
//! scheduler.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use actix::prelude::*;
use ulid::Ulid;

use crate::phone::{PhoneActor, PhoneLive};
use crate::scheduler::Scheduler;
use crate::webhook::WebhookActor;

/// A running phone actor, findable by phone id.
#[derive(Clone)]
pub(crate) struct PhoneEntry {
    pub tenant_id: Ulid,
    pub addr: Addr<PhoneActor>,
    pub live: Arc<PhoneLive>,
}

/// Running phone actors by phone id; shared by the engine and the tenant actors that start them.
pub(crate) type PhoneRegistry = Arc<RwLock<HashMap<Ulid, PhoneEntry>>>;

/// Running webhook actors by webhook id.
pub(crate) type WebhookRegistry = Arc<RwLock<HashMap<Ulid, Addr<WebhookActor>>>>;

/// The engine's work threads (phones, webhooks, campaign runners). A tenant's phones and webhooks
/// are placed by their own id, not beside their tenant, so one busy tenant's work spreads over
/// every core. Tenant actors have threads of their own (the engine's front arbiters): a sim
/// phone's turn can write hundreds of messages, and an accept must not wait behind it.
#[derive(Clone)]
pub(crate) struct Arbiters(pub(crate) Arc<[ArbiterHandle]>);

impl Arbiters {
    /// The thread that runs the actor of `id`; stable for the life of the process.
    pub(crate) fn for_id(&self, id: Ulid) -> &ArbiterHandle {
        &self.0[(id.random() % self.0.len() as u128) as usize]
    }
}

/// What the engine shares with every tenant actor it starts.
#[derive(Clone)]
pub(crate) struct Shared {
    /// Signs media links in records and events (`media.rs`).
    pub links: Arc<crate::media::Links>,
    pub arbiters: Arbiters,
    pub phones: PhoneRegistry,
    pub webhooks: WebhookRegistry,
    pub allow_private: crate::webhook::PrivateNetworks,
    /// Webhook attempt outcomes, for the Node page.
    pub outcomes: Arc<crate::webhook::Outcomes>,
    /// How long a tenant's actors stay without work before they stop.
    pub actor_idle: std::time::Duration,
    /// Tenants passivated since start (`/metrics`).
    pub passivations: Arc<std::sync::atomic::AtomicU64>,
    /// Set once, right after the engine starts (the scheduler releases through the engine).
    pub scheduler: Arc<std::sync::OnceLock<Addr<Scheduler>>>,
}
