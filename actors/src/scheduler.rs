//! The scheduler: holds messages until their release time (quiet hours, `send_at`) and hands each
//! back to its tenant actor then, through the `release` function the engine gives it. It keeps
//! only a timeline; the message stays the tenant actor's until released, so a cancel and a release
//! can never race. Time is the injectable clock, and the timeline is rebuilt from the store at
//! start, so overdue messages go out at once after a restart.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::{HeldMessage, Store};
use ulid::Ulid;

use crate::clock::SharedClock;

const TICK: Duration = Duration::from_millis(50);

/// Hands a due message (tenant, message) back to its tenant actor.
pub(crate) type Release = Box<dyn Fn(Ulid, Ulid) + Send>;

pub(crate) struct Scheduler {
    store: Store,
    clock: SharedClock,
    release: Release,
    timeline: BTreeSet<HeldMessage>,
    /// How many of the timeline's messages each tenant has (a tenant with any does not rest).
    per_tenant: HashMap<Ulid, usize>,
}

impl Scheduler {
    pub(crate) fn new(store: Store, clock: SharedClock, release: Release) -> Self {
        Self { store, clock, release, timeline: BTreeSet::new(), per_tenant: HashMap::new() }
    }

    fn insert(&mut self, h: HeldMessage) {
        if self.timeline.insert(h) {
            *self.per_tenant.entry(h.tenant_id).or_default() += 1;
        }
    }

    fn tick(&mut self) {
        let now = self.clock.now();
        while let Some(h) = self.timeline.first() {
            if h.at > now {
                break;
            }
            let h = *h;
            self.timeline.pop_first();
            if let Some(n) = self.per_tenant.get_mut(&h.tenant_id) {
                *n -= 1;
                if *n == 0 {
                    self.per_tenant.remove(&h.tenant_id);
                }
            }
            (self.release)(h.tenant_id, h.message_id);
        }
    }
}

impl Actor for Scheduler {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        // A node of a fleet holds the messages of the tenants it takes, as it takes them.
        let held =
            if self.store.fleet().shared() { Ok(Vec::new()) } else { self.store.messages().scheduled() };
        match held {
            Ok(held) => {
                if !held.is_empty() {
                    tracing::info!(messages = held.len(), "resumed held messages");
                }
                for h in held {
                    self.insert(h);
                }
            }
            Err(e) => tracing::error!(error = %e, "cannot read the schedule"),
        }
        ctx.run_interval(TICK, |act, _| act.tick());
    }
}

/// Hold a message (already written as held) until `at`.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Hold {
    pub at: DateTime<Utc>,
    pub tenant: Ulid,
    pub id: Ulid,
}

impl Handler<Hold> for Scheduler {
    type Result = ();
    fn handle(&mut self, m: Hold, _: &mut Self::Context) {
        self.insert(HeldMessage { at: m.at, tenant_id: m.tenant, message_id: m.id });
    }
}

/// Messages held now.
#[derive(Message)]
#[rtype(result = "usize")]
pub(crate) struct Depth;

impl Handler<Depth> for Scheduler {
    type Result = usize;
    fn handle(&mut self, _: Depth, _: &mut Self::Context) -> usize {
        self.timeline.len()
    }
}

/// How many messages a tenant has held.
#[derive(Message)]
#[rtype(result = "usize")]
pub(crate) struct HeldFor(pub Ulid);

impl Handler<HeldFor> for Scheduler {
    type Result = usize;
    fn handle(&mut self, HeldFor(tenant): HeldFor, _: &mut Self::Context) -> usize {
        self.per_tenant.get(&tenant).copied().unwrap_or(0)
    }
}
