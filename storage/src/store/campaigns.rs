//! Campaigns, each campaign's resolved recipient list (numbered from 0, so a runner resumes by
//! position) and the messages it made (for its counts).

use ulid::Ulid;

use super::tree::{Opener, Tree, Writes};
use super::{decode, encode, get_of, page, tkey, u64_value, ulid_at};
use crate::model::{CampaignRecord, CampaignStatus, MessageStatus};
use crate::StoreError;

/// The `campaigns`, `campaign_recipients` and `campaign_messages` trees.
pub struct Campaigns {
    campaigns: Tree,
    recipients: Tree,
    messages: Tree,
}

/// Recipients written per sled batch.
const RECIPIENT_BATCH: usize = 10_000;

impl Campaigns {
    pub(super) fn open(db: &Opener) -> Result<Self, StoreError> {
        Ok(Self {
            campaigns: db.tree("campaigns")?,
            recipients: db.tree("campaign_recipients")?,
            messages: db.tree("campaign_messages")?,
        })
    }

    /// Writes a campaign. Follow with [`super::Store::commit`] when the change must last.
    pub fn put(&self, c: &CampaignRecord) -> Result<(), StoreError> {
        self.campaigns.insert(tkey(c.tenant_id, &c.id.to_bytes()), encode(c))?;
        Ok(())
    }

    /// A campaign by id.
    pub fn get(&self, tenant: Ulid, id: Ulid) -> Result<Option<CampaignRecord>, StoreError> {
        get_of(&self.campaigns, "campaigns", tenant, id)
    }

    /// How many campaigns the tenant holds.
    pub fn count(&self, tenant: Ulid) -> Result<usize, StoreError> {
        self.campaigns.count_prefix(tenant.to_bytes())
    }

    /// A tenant's campaigns in creation order after `after`.
    pub fn page(
        &self,
        tenant: Ulid,
        after: Option<Ulid>,
        limit: usize,
    ) -> Result<Vec<CampaignRecord>, StoreError> {
        page(&self.campaigns, "campaigns", &tenant.to_bytes(), after, limit)
    }

    /// Every running campaign of every tenant (resumed at start-up).
    pub fn running(&self) -> Result<Vec<CampaignRecord>, StoreError> {
        let mut out = Vec::new();
        for kv in self.campaigns.iter() {
            let c: CampaignRecord = decode("campaigns", &kv?.1)?;
            if c.status == CampaignStatus::Running {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// Stores a campaign's resolved recipients, numbered from 0, in batches.
    pub fn put_recipients(&self, tenant: Ulid, campaign: Ulid, phones: &[String]) -> Result<(), StoreError> {
        for (n, chunk) in phones.chunks(RECIPIENT_BATCH).enumerate() {
            let mut w = Writes::default();
            for (j, p) in chunk.iter().enumerate() {
                let i = (n * RECIPIENT_BATCH + j) as u64;
                let mut k = tkey(tenant, &campaign.to_bytes());
                k.extend_from_slice(&i.to_be_bytes());
                w.insert(&self.recipients, k, p.as_bytes());
            }
            w.apply()?;
        }
        Ok(())
    }

    /// Recipients `from..from+n` of a campaign.
    pub fn recipients(
        &self,
        tenant: Ulid,
        campaign: Ulid,
        from: u64,
        n: usize,
    ) -> Result<Vec<String>, StoreError> {
        let prefix = tkey(tenant, &campaign.to_bytes());
        let mut start = prefix.clone();
        start.extend_from_slice(&from.to_be_bytes());
        self.recipients
            .range(start..)
            .take_while(|kv| kv.as_ref().map_or(true, |(k, _)| k.starts_with(&prefix)))
            .take(n)
            .map(|kv| Ok(String::from_utf8_lossy(&kv?.1).into_owned()))
            .collect()
    }

    /// Links a message to its campaign (for the campaign's counts).
    pub fn link_message(&self, tenant: Ulid, campaign: Ulid, message: Ulid) -> Result<(), StoreError> {
        let mut k = tkey(tenant, &campaign.to_bytes());
        k.extend_from_slice(&message.to_bytes());
        self.messages.insert(k, &[])?;
        Ok(())
    }

    /// The ids of the messages a campaign made that are still kept, oldest first.
    pub fn message_ids(&self, tenant: Ulid, campaign: Ulid) -> Result<Vec<Ulid>, StoreError> {
        let prefix = tkey(tenant, &campaign.to_bytes());
        let mut out = Vec::new();
        for k in self.messages.scan_prefix(&prefix).keys() {
            let k = k?;
            if k.len() == LINK_LEN {
                out.push(ulid_at(&k[32..]));
            }
        }
        Ok(out)
    }

    /// Retention is deleting a campaign's message: its link goes and its final status is counted
    /// in the campaign's tally instead, in one atomic batch. Done once per message: a message
    /// already unlinked (a crash after this, before the message itself went) is not counted again.
    /// Only the sweeper calls it, so the tally's read-modify-write has no competitor.
    pub(super) fn prune_link(
        &self,
        tenant: Ulid,
        campaign: Ulid,
        message: Ulid,
        status: MessageStatus,
    ) -> Result<(), StoreError> {
        let mut link = tkey(tenant, &campaign.to_bytes());
        link.extend_from_slice(&message.to_bytes());
        if !self.messages.contains_key(&link)? {
            return Ok(());
        }
        let key = tally_key(tenant, campaign, status);
        let count = u64_value(self.messages.get(&key)?) + 1;
        let mut w = Writes::default();
        w.remove(&self.messages, link);
        w.insert(&self.messages, key, &count.to_be_bytes());
        w.apply()?;
        Ok(())
    }

    /// How many of a campaign's messages retention deleted, by their final status.
    pub fn pruned(&self, tenant: Ulid, campaign: Ulid) -> Result<Vec<(MessageStatus, u64)>, StoreError> {
        let mut out = Vec::new();
        for s in MessageStatus::ALL.into_iter().filter(|s| s.is_final()) {
            let n = u64_value(self.messages.get(tally_key(tenant, campaign, s))?);
            if n > 0 {
                out.push((s, n));
            }
        }
        Ok(out)
    }
}

/// `tenant ++ campaign ++ message`: a link from a campaign to a message it made.
const LINK_LEN: usize = 48;

/// `tenant ++ campaign ++ 0xff ++ status name`: a tally of pruned messages (never 48 bytes long,
/// so never taken for a link).
fn tally_key(tenant: Ulid, campaign: Ulid, status: MessageStatus) -> Vec<u8> {
    let mut k = tkey(tenant, &campaign.to_bytes());
    k.push(0xff);
    k.extend_from_slice(status.as_str().as_bytes());
    k
}
