//! Which node acts for a tenant: one seam for both backends, so the engine never asks which store
//! it runs on.
//!
//! A node **on its own** (sled, or PostgreSQL with `--single-node`) owns every tenant from the
//! start: it holds them all, acquiring is always `Held`, there are no orphans and no other nodes.
//! A node **of a fleet** (PostgreSQL) owns a tenant while it holds the tenant's lease
//! (`pg/fleet.rs`): it takes tenants one by one as it is asked for them or finds them without a
//! node, and forwards the rest to their owners.

use std::time::Duration;

use ulid::Ulid;

pub use crate::pg::{Acquired, FleetConfig, NodeInfo, Owner};
use crate::store::Store;
use crate::StoreError;

impl Store {
    /// This node's place among the nodes sharing the store: on its own (sled, or PostgreSQL with
    /// `--single-node`) or one of a fleet.
    pub fn fleet(&self) -> Fleet<'_> {
        Fleet { store: self, leases: self.leases() }
    }
}

/// This node's place among the nodes sharing its store ([`Store::fleet`]).
#[derive(Clone, Copy)]
pub struct Fleet<'a> {
    store: &'a Store,
    /// The leases, when the node is one of a fleet.
    leases: Option<&'a crate::pg::Leases>,
}

impl<'a> Fleet<'a> {
    /// Whether other nodes may share the store: tenants are then this node's one lease at a time,
    /// and the work of a tenant resumes when the node takes it rather than at start.
    pub fn shared(&self) -> bool {
        self.leases.is_some()
    }

    /// This node's id among the fleet's (`None` on its own).
    pub fn node_id(&self) -> Option<&'a str> {
        self.leases.map(|l| l.node_id())
    }

    /// How long a lease lasts unrenewed (`None` on its own: there are no leases).
    pub fn lease(&self) -> Option<Duration> {
        self.leases.map(|l| l.lease())
    }

    /// The fleet's shared secret, with which nodes vouch for the requests they forward.
    pub fn secret(&self) -> Option<&'a [u8]> {
        self.leases.map(|l| l.secret())
    }

    /// Whether this node acts for `tenant` now.
    pub fn holds(&self, tenant: Ulid) -> bool {
        self.leases.is_none_or(|l| l.holds(tenant))
    }

    /// Whether this node took `tenant`, live or not: a tenant taken whose lease the node cannot
    /// vouch for now means renewals are failing (the database does not answer).
    pub fn took(&self, tenant: Ulid) -> bool {
        self.leases.is_none_or(|l| l.took(tenant))
    }

    /// Who owns `tenant`: asks the database unless this node holds it.
    pub fn owner(&self, tenant: Ulid) -> Result<Owner, StoreError> {
        match self.leases {
            Some(_) if !self.holds(tenant) => self.store.lease_owner(tenant),
            _ => Ok(Owner::Me),
        }
    }

    /// Takes `tenant` unless another node holds it; a tenant taken from another node (or for
    /// the first time) has the work its previous owner kept only in memory listed again.
    pub fn acquire(&self, tenant: Ulid) -> Result<Acquired, StoreError> {
        match self.leases {
            Some(_) => self.store.take_lease(tenant),
            None => Ok(Acquired::Held),
        }
    }

    /// Up to `limit` tenants that need an owner and have none: a dead node's, and those owing
    /// work that no node holds. With `work_lists`, also tenants owing work on disk that no node
    /// holds (a scan: only at start).
    pub fn orphans(&self, limit: usize, work_lists: bool) -> Result<Vec<Ulid>, StoreError> {
        match self.leases {
            Some(_) => self.store.leaseless(limit, work_lists),
            None => Ok(Vec::new()),
        }
    }

    /// The fleet's live nodes (none on its own).
    pub fn nodes(&self) -> Result<Vec<NodeInfo>, StoreError> {
        match self.leases {
            Some(_) => self.store.live_nodes(),
            None => Ok(Vec::new()),
        }
    }

    /// Lets this node's tenants go at a graceful stop, after its last commit, so other nodes take
    /// them at once.
    pub fn release(&self) -> Result<(), StoreError> {
        match self.leases {
            Some(_) => self.store.release_leases(),
            None => Ok(()),
        }
    }
}
