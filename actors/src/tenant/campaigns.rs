//! Campaigns: one text or template to many recipients, each going through every rule of a single
//! send. Drafts, launch (the recipient list resolved and stored) and cancel run in the tenant
//! actor; the sending itself in a [`CampaignRunner`] per running campaign.

use std::collections::BTreeMap;

use actix::prelude::*;
use pigeon_storage::model::{Audience, CampaignRecord, CampaignStatus, Channel};
use ulid::Ulid;

use super::runner::{CampaignRunner, StopRunner};
use super::TenantActor;
use crate::durable::after_commit;
use crate::error::Missing;
use crate::failure::FailureCode;
use crate::EngineError;

/// What a new campaign is made of (validated at the edge).
#[derive(Debug, Clone)]
pub struct NewCampaign {
    /// Label.
    pub name: String,
    /// Text, or
    pub body: Option<String>,
    /// a template name or id.
    pub template: Option<String>,
    /// Shared template values.
    pub data: serde_json::Map<String, serde_json::Value>,
    /// `auto`, `imessage` or `sms`.
    pub channel: Channel,
    /// The tenant's own values, given to every message.
    pub metadata: BTreeMap<String, String>,
    /// Each message's `valid_for`.
    pub valid_for: Option<u32>,
    /// Recipients.
    pub audience: Audience,
    /// Created with a test key.
    pub test: bool,
    /// Attachments of every message, the tenant's own media (found at the edge).
    pub media: Vec<pigeon_storage::model::MediaRef>,
}

/// Create a draft.
#[derive(Message, Clone)]
#[rtype(result = "Result<CampaignRecord, EngineError>")]
pub(crate) struct CreateCampaign(pub NewCampaign);

impl Handler<CreateCampaign> for TenantActor {
    type Result = ResponseFuture<Result<CampaignRecord, EngineError>>;
    fn handle(&mut self, msg: CreateCampaign, _: &mut Self::Context) -> Self::Result {
        let n = msg.0;
        let res = (|| {
            if let Audience::ContactIds(ids) = &n.audience {
                for id in ids {
                    self.store
                        .contacts()
                        .get(self.tenant.id, *id)?
                        .ok_or(EngineError::NotFound(Missing::Contact))?;
                }
            }
            if let Some(t) = &n.template {
                let found = super::records::find_template(&self.store, self.tenant.id, t)?;
                // Too long with the shared data alone (contact attributes only add): every
                // recipient would be skipped, so refuse the campaign now.
                super::records::check_fits(&found.body, &n.data)?;
            }
            self.room_for(super::records::Bounded::Campaigns)?;
            let c = CampaignRecord {
                id: self.store.new_id(),
                tenant_id: self.tenant.id,
                name: n.name,
                status: CampaignStatus::Draft,
                body: n.body,
                template: n.template,
                data: n.data,
                channel: n.channel,
                metadata: n.metadata,
                valid_for: n.valid_for,
                test: n.test,
                audience: n.audience,
                total: 0,
                processed: 0,
                skipped: BTreeMap::new(),
                created_at: self.clock.now(),
                launched_at: None,
                finished_at: None,
                media: n.media,
            };
            self.store.campaigns().put(&c)?;
            self.counted(super::records::Bounded::Campaigns, 1);
            Ok::<_, EngineError>(c)
        })();
        after_commit(&self.store, res)
    }
}

/// Launch a draft (or resume a running campaign after a restart).
#[derive(Message, Clone)]
#[rtype(result = "Result<CampaignRecord, EngineError>")]
pub(crate) struct Launch {
    pub id: Ulid,
    pub resume: bool,
}

impl Handler<Launch> for TenantActor {
    type Result = ResponseFuture<Result<CampaignRecord, EngineError>>;
    fn handle(&mut self, msg: Launch, ctx: &mut Self::Context) -> Self::Result {
        self.active(self.clock.now());
        let res = (|| {
            let tenant = self.tenant.id;
            let mut c = self
                .store
                .campaigns()
                .get(tenant, msg.id)?
                .ok_or(EngineError::NotFound(Missing::Campaign))?;
            if msg.resume {
                if c.status != CampaignStatus::Running
                    || self.runners.get(&c.id).is_some_and(|r| r.connected())
                {
                    return Ok(None);
                }
            } else {
                if c.status != CampaignStatus::Draft {
                    return Err(EngineError::InvalidTransition(
                        format!("status: only a draft campaign can be launched; this one is {:?}", c.status)
                            .to_lowercase(),
                    ));
                }
                let mut skipped_missing = 0u64;
                let phones: Vec<String> = match &c.audience {
                    Audience::Phones(p) => p.clone(),
                    Audience::ContactIds(ids) => ids
                        .iter()
                        .filter_map(|id| match self.store.contacts().get(tenant, *id) {
                            Ok(Some(ct)) => Some(ct.phone),
                            _ => {
                                skipped_missing += 1;
                                None
                            }
                        })
                        .collect(),
                    Audience::AllContacts => {
                        let mut all = Vec::new();
                        let mut after = None;
                        loop {
                            let page = self.store.contacts().page(tenant, after, 1000)?;
                            let Some(last) = page.last() else { break };
                            after = Some(last.id);
                            all.extend(page.into_iter().map(|ct| ct.phone));
                        }
                        all
                    }
                };
                self.store.campaigns().put_recipients(tenant, c.id, &phones)?;
                // `total` and `processed` count the resolved list; contacts gone since creation
                // show only under `skipped`.
                c.total = phones.len() as u64;
                if skipped_missing > 0 {
                    c.skipped.insert(FailureCode::ContactNotFound.as_str().into(), skipped_missing);
                }
                c.status = CampaignStatus::Running;
                c.launched_at = Some(self.clock.now());
                self.store.campaigns().put(&c)?;
            }
            Ok(Some(c))
        })()
        .and_then(|c| c.ok_or_else(|| EngineError::InvalidTransition("status: already running".into())));
        let me = ctx.address();
        let (store, clock) = (self.store.clone(), self.clock.clone());
        if let Ok(c) = &res {
            let runner_c = c.clone();
            let addr = CampaignRunner::start_in_arbiter(&Arbiter::current(), move |_| {
                CampaignRunner::new(store, clock, me, runner_c)
            });
            self.runners.insert(c.id, addr);
        }
        after_commit(&self.store, res)
    }
}

/// Cancel a draft or running campaign.
#[derive(Message, Clone)]
#[rtype(result = "Result<CampaignRecord, EngineError>")]
pub(crate) struct CancelCampaign(pub Ulid);

impl Handler<CancelCampaign> for TenantActor {
    type Result = ResponseFuture<Result<CampaignRecord, EngineError>>;
    fn handle(&mut self, msg: CancelCampaign, _: &mut Self::Context) -> Self::Result {
        // A runner that finished has stopped; only a live one owns the record.
        if let Some(runner) = self.runners.remove(&msg.0).filter(|r| r.connected()) {
            let store = self.store.clone();
            return Box::pin(async move {
                let c = runner.send(StopRunner).await?;
                store.commit().await?;
                Ok(c)
            });
        }
        let res = (|| {
            let mut c = self
                .store
                .campaigns()
                .get(self.tenant.id, msg.0)?
                .ok_or(EngineError::NotFound(Missing::Campaign))?;
            if !matches!(c.status, CampaignStatus::Draft | CampaignStatus::Running) {
                return Err(EngineError::InvalidTransition(format!(
                    "status: a {} campaign cannot be cancelled",
                    format!("{:?}", c.status).to_lowercase()
                )));
            }
            c.status = CampaignStatus::Cancelled;
            c.finished_at = Some(self.clock.now());
            self.store.campaigns().put(&c)?;
            Ok(c)
        })();
        after_commit(&self.store, res)
    }
}
