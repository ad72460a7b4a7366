//! The store's side of a fleet (several nodes on one PostgreSQL database, `pg/fleet.rs`): which
//! tenants this node acts for, taking a tenant with the work its last node kept in memory, and
//! letting go at a graceful stop. On sled every tenant is the node's and these do nothing.

use ulid::Ulid;

use super::{mark, tree, Store};
use crate::StoreError;

impl Store {
    /// This node's membership of a fleet (PostgreSQL only).
    pub fn fleet(&self) -> Option<&std::sync::Arc<crate::pg::Fleet>> {
        match &self.inner.engine {
            tree::Engine::Pg(pg) => Some(pg.fleet()),
            tree::Engine::Sled(_) => None,
        }
    }

    /// Whether this node acts for `tenant`: always on sled; in a fleet, while it holds the lease.
    pub fn mine(&self, tenant: Ulid) -> bool {
        self.fleet().is_none_or(|f| f.holds(tenant))
    }

    /// Who owns `tenant` (a fleet's routing); on sled, this node.
    pub fn owner(&self, tenant: Ulid) -> Result<crate::pg::Owner, StoreError> {
        match &self.inner.engine {
            tree::Engine::Pg(pg) => pg.owner(tenant),
            tree::Engine::Sled(_) => Ok(crate::pg::Owner::Me),
        }
    }

    /// Takes `tenant`'s lease unless another node holds it, and when taken from another node
    /// (or for the first time), lists again the work its previous owner kept only in memory:
    /// the tenant's records made since that node's recovery mark (see `mark.rs`). On sled every
    /// tenant is this node's.
    pub fn acquire(&self, tenant: Ulid) -> Result<crate::pg::Acquired, StoreError> {
        let tree::Engine::Pg(pg) = &self.inner.engine else { return Ok(crate::pg::Acquired::Held) };
        let got = pg.acquire(tenant)?;
        if let crate::pg::Acquired::Taken { previous } = &got {
            let lists = &self.inner.lists;
            // The previous owner's mark; a tenant never leased scans from the mark of the
            // database's single node, if it had one, else from its first record.
            let rebuilt = (|| {
                let from = match previous {
                    Some(p) => lists.mark_at(&mark::mark_key(Some(p)))?,
                    None => lists.mark_at(mark::MARK)?,
                };
                lists.list_since(&tenant.to_bytes(), from.unwrap_or(0))
            })();
            // Until now the node did not answer for the tenant (`Fleet::holds`): nothing read
            // its counters before they were raised.
            pg.fleet().rebuilt(tenant);
            let listed = rebuilt?;
            if listed > 0 {
                tracing::info!(%tenant, listed, "listed again the work the tenant's previous node held in memory");
            }
        }
        Ok(got)
    }

    /// Up to `limit` tenants that need an owner and have none: a dead node's, and those owing
    /// work that no node holds (empty on sled, where every tenant is this node's).
    /// With `work_lists`, also tenants owing work on disk that no node holds (a scan: only at
    /// start).
    pub fn orphans(&self, limit: usize, work_lists: bool) -> Result<Vec<Ulid>, StoreError> {
        match &self.inner.engine {
            tree::Engine::Pg(pg) => pg.orphans(limit as i64, work_lists),
            tree::Engine::Sled(_) => Ok(Vec::new()),
        }
    }

    /// The tenants that owe work: messages for phones, webhook deliveries, held messages,
    /// running campaigns.
    fn owing(&self) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut owing: std::collections::BTreeSet<Ulid> = std::collections::BTreeSet::new();
        owing.extend(self.inner.lists.pending.entries()?.into_iter().map(|(_, t)| t));
        owing.extend(self.inner.lists.due.entries()?.into_iter().map(|(_, t)| t));
        owing.extend(self.messages().scheduled()?.into_iter().map(|h| h.tenant_id));
        owing.extend(self.campaigns().running()?.into_iter().map(|c| c.tenant_id));
        Ok(owing.into_iter().map(|t| t.to_bytes().to_vec()).collect())
    }

    /// The fleet's live nodes (empty on sled).
    pub fn nodes(&self) -> Result<Vec<crate::pg::NodeInfo>, StoreError> {
        match &self.inner.engine {
            tree::Engine::Pg(pg) => pg.nodes(),
            tree::Engine::Sled(_) => Ok(Vec::new()),
        }
    }

    /// Lets this node's leases go at a graceful stop, after its last commit, so other nodes take
    /// its tenants at once.
    pub fn release_leases(&self) -> Result<(), StoreError> {
        let tree::Engine::Pg(pg) = &self.inner.engine else { return Ok(()) };
        // Everything this node keeps in memory for its tenants goes to disk while the leases
        // still fence it: all work (young too, so the other nodes find the tenants that owe
        // something: `orphans`), counters and the mark.
        self.inner.lists.pending.move_old(u64::MAX)?;
        self.inner.lists.due.move_old(u64::MAX)?;
        self.inner.lists.tick()?;
        pg.flush().map_err(StoreError::Flush)?;
        pg.release(self.owing()?)
    }
}
