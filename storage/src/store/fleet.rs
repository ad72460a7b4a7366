//! The store's side of a fleet (several nodes on one PostgreSQL database, `pg/fleet.rs`), which
//! the engine sees through `crate::fleet`: taking a tenant with the work its last node kept in
//! memory, and letting go at a graceful stop.

use ulid::Ulid;

use super::{mark, tree, Store};
use crate::pg::{Acquired, NodeInfo, Owner};
use crate::StoreError;

impl Store {
    /// The leases this node holds, as one of a fleet (`None` on its own).
    pub(crate) fn leases(&self) -> Option<&crate::pg::Leases> {
        self.pg().and_then(|pg| pg.leases()).map(|l| &**l)
    }

    /// Whether this node acts for `tenant` now (`Fleet::holds`).
    pub fn mine(&self, tenant: Ulid) -> bool {
        self.leases().is_none_or(|l| l.holds(tenant))
    }

    /// The PostgreSQL database under the store, if that is its engine.
    fn pg(&self) -> Option<&std::sync::Arc<crate::pg::Pg>> {
        match &self.inner.engine {
            tree::Engine::Pg(pg) => Some(pg),
            tree::Engine::Sled(_) => None,
        }
    }

    /// The PostgreSQL database of a node of a fleet.
    fn leased(&self) -> Result<&std::sync::Arc<crate::pg::Pg>, StoreError> {
        self.pg()
            .filter(|pg| pg.leases().is_some())
            .ok_or_else(|| StoreError::Database("this node has no leases".into()))
    }

    /// Who owns `tenant`, by its lease.
    pub(crate) fn lease_owner(&self, tenant: Ulid) -> Result<Owner, StoreError> {
        self.leased()?.owner(tenant)
    }

    /// Takes `tenant`'s lease unless another node holds it, and when taken from another node
    /// (or for the first time), lists again the work its previous owner kept only in memory:
    /// the tenant's records made since that node's recovery mark (see `mark.rs`).
    pub(crate) fn take_lease(&self, tenant: Ulid) -> Result<Acquired, StoreError> {
        let pg = self.leased()?;
        let got = pg.acquire(tenant)?;
        if let Acquired::Taken { previous } = &got {
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
            // Until now the node did not answer for the tenant (`Leases::holds`): nothing read
            // its counters before they were raised.
            if let Some(l) = pg.leases() {
                l.rebuilt(tenant);
            }
            let listed = rebuilt?;
            if listed > 0 {
                tracing::info!(%tenant, listed, "listed again the work the tenant's previous node held in memory");
            }
        }
        Ok(got)
    }

    /// Tenants that need an owner and have none (`Fleet::orphans`).
    pub(crate) fn leaseless(&self, limit: usize, work_lists: bool) -> Result<Vec<Ulid>, StoreError> {
        self.leased()?.orphans(limit as i64, work_lists)
    }

    /// The fleet's live nodes.
    pub(crate) fn live_nodes(&self) -> Result<Vec<NodeInfo>, StoreError> {
        self.leased()?.nodes()
    }

    /// The tenants that owe work: messages for phones, webhook deliveries, held messages,
    /// running campaigns, and an agent phone last announced online (whose going quiet someone
    /// must announce).
    fn owing(&self) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut owing: std::collections::BTreeSet<Ulid> = std::collections::BTreeSet::new();
        owing.extend(self.inner.lists.pending.entries()?.into_iter().map(|(_, t)| t));
        owing.extend(self.inner.lists.due.entries()?.into_iter().map(|(_, t)| t));
        owing.extend(self.messages().scheduled()?.into_iter().map(|h| h.tenant_id));
        owing.extend(self.campaigns().running()?.into_iter().map(|c| c.tenant_id));
        let mut after = None;
        loop {
            let page = self.phones().page(after, 1000)?;
            after = page.last().map(|p| p.id);
            let done = page.len() < 1000;
            owing.extend(
                page.into_iter()
                    .filter(|p| {
                        p.driver == crate::model::PhoneDriver::Agent && p.announced_online == Some(true)
                    })
                    .map(|p| p.tenant_id),
            );
            if done {
                break;
            }
        }
        Ok(owing.into_iter().map(|t| t.to_bytes().to_vec()).collect())
    }

    /// Lets this node's leases go at a graceful stop, after its last commit, so other nodes take
    /// its tenants at once.
    pub(crate) fn release_leases(&self) -> Result<(), StoreError> {
        let pg = self.leased()?;
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
