//! Campaigns: one text or template to many recipients, each going through every rule of a single
//! send. A runner actor per running campaign sends recipients in small concurrent chunks, each
//! send its own message to the tenant actor, so a 100k-recipient launch never blocks the tenant's
//! other traffic. Each recipient's send carries the idempotency key `campaign:{id}:{n}`, so a
//! runner resuming after a restart re-sends nothing that was already accepted.

use std::collections::BTreeMap;

use actix::prelude::*;
use futures_util::future::join_all;
use pigeon_storage::model::{Audience, CampaignRecord, CampaignStatus, Channel};
use pigeon_storage::Store;
use ulid::Ulid;

use crate::clock::SharedClock;
use crate::domain::PhoneNumber;
use crate::engine::TenantHandle;
use crate::messaging::SendRequest;
use crate::tenant::TenantActor;
use crate::EngineError;

/// Recipients sent at once by a runner.
const CHUNK: usize = 32;

/// The code a refused recipient is counted under.
fn skip_code(e: &EngineError) -> &'static str {
    match e {
        EngineError::RecipientOptedOut => "RECIPIENT_OPTED_OUT",
        EngineError::NewContactLimit { .. } => "NEW_CONTACT_LIMIT",
        EngineError::NoPhoneAvailable => "NO_PHONE_AVAILABLE",
        EngineError::InvalidTemplate(_) => "INVALID_TEMPLATE",
        EngineError::MissingTemplateVar(_) => "MISSING_TEMPLATE_VAR",
        EngineError::Validation(_) => "VALIDATION_ERROR",
        _ => "INTERNAL_ERROR",
    }
}

pub(crate) struct CampaignRunner {
    store: Store,
    clock: SharedClock,
    tenant: TenantHandle,
    c: CampaignRecord,
    stopping: bool,
}

impl CampaignRunner {
    pub(crate) fn new(store: Store, clock: SharedClock, tenant: TenantHandle, c: CampaignRecord) -> Self {
        Self { store, clock, tenant, c, stopping: false }
    }

    fn save(&self) {
        if let Err(e) = self.store.put_campaign(&self.c) {
            tracing::error!(error = %e, campaign_id = %self.c.id, "cannot record campaign progress");
        }
    }

    fn next_chunk(&mut self, ctx: &mut Context<Self>) {
        if self.stopping || self.c.status != CampaignStatus::Running {
            return;
        }
        let from = self.c.processed;
        let phones = match self.store.campaign_recipients(self.c.tenant_id, self.c.id, from, CHUNK) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(error = %e, "cannot read campaign recipients");
                return;
            }
        };
        if phones.is_empty() {
            self.c.status = CampaignStatus::Completed;
            self.c.finished_at = Some(self.clock.now());
            self.save();
            ctx.stop();
            return;
        }
        let sends = phones.into_iter().enumerate().map(|(i, phone)| {
            let n = from + i as u64;
            let (store, tenant, c) = (self.store.clone(), self.tenant.clone(), self.c.clone());
            async move { send_one(&store, &tenant, &c, n, &phone).await }
        });
        let fut = join_all(sends);
        ctx.spawn(fut.into_actor(self).map(|outcomes, act, ctx| {
            for o in &outcomes {
                if let Err(code) = o {
                    *act.c.skipped.entry((*code).to_owned()).or_default() += 1;
                }
            }
            act.c.processed += outcomes.len() as u64;
            act.save();
            act.next_chunk(ctx);
        }));
    }
}

async fn send_one(
    store: &Store,
    tenant: &TenantHandle,
    c: &CampaignRecord,
    n: u64,
    phone: &str,
) -> Result<(), &'static str> {
    let to = PhoneNumber::parse(phone).ok_or("INVALID_PHONE_NUMBER")?;
    let (body, template) = match (&c.body, &c.template) {
        (Some(b), _) => (b.clone(), None),
        (None, Some(t)) => {
            let (text, name) =
                crate::records::render(store, c.tenant_id, t, &c.data, &to).map_err(|e| skip_code(&e))?;
            (text, Some(name))
        }
        (None, None) => return Err("VALIDATION_ERROR"),
    };
    let req = SendRequest {
        to,
        channel: c.channel,
        body,
        test: c.test,
        idempotency_key: Some(format!("campaign:{}:{n}", c.id)),
        template,
        send_at: None,
        campaign_id: Some(c.id),
    };
    let m = tenant.send(req).await.map_err(|e| skip_code(&e))?;
    store.link_campaign_message(c.tenant_id, c.id, m.id).map_err(|_| "INTERNAL_ERROR")
}

impl Actor for CampaignRunner {
    type Context = Context<Self>;
    fn started(&mut self, ctx: &mut Self::Context) {
        self.next_chunk(ctx);
    }
}

/// Stop sending: the campaign is cancelled.
#[derive(Message)]
#[rtype(result = "CampaignRecord")]
pub(crate) struct StopRunner;

impl Handler<StopRunner> for CampaignRunner {
    type Result = MessageResult<StopRunner>;
    fn handle(&mut self, _: StopRunner, ctx: &mut Self::Context) -> Self::Result {
        self.stopping = true;
        if self.c.status == CampaignStatus::Running {
            self.c.status = CampaignStatus::Cancelled;
            self.c.finished_at = Some(self.clock.now());
            self.save();
        }
        ctx.stop();
        MessageResult(self.c.clone())
    }
}

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
    /// `auto` or `imessage`.
    pub channel: Channel,
    /// Recipients.
    pub audience: Audience,
    /// Created with a test key.
    pub test: bool,
}

/// Create a draft.
#[derive(Message)]
#[rtype(result = "Result<CampaignRecord, EngineError>")]
pub(crate) struct CreateCampaign(pub NewCampaign);

impl Handler<CreateCampaign> for TenantActor {
    type Result = ResponseFuture<Result<CampaignRecord, EngineError>>;
    fn handle(&mut self, msg: CreateCampaign, _: &mut Self::Context) -> Self::Result {
        let n = msg.0;
        let res = (|| {
            if let Audience::ContactIds(ids) = &n.audience {
                for id in ids {
                    self.store.contact(self.tenant.id, *id)?.ok_or(EngineError::NotFound("contact"))?;
                }
            }
            if let Some(t) = &n.template {
                let by_id = Ulid::from_string(t)
                    .ok()
                    .map(|id| self.store.template(self.tenant.id, id))
                    .transpose()?
                    .flatten();
                if by_id.is_none() && self.store.template_by_name(self.tenant.id, t)?.is_none() {
                    return Err(EngineError::InvalidTemplate(t.clone()));
                }
            }
            let c = CampaignRecord {
                id: pigeon_storage::model::new_id(),
                tenant_id: self.tenant.id,
                name: n.name,
                status: CampaignStatus::Draft,
                body: n.body,
                template: n.template,
                data: n.data,
                channel: n.channel,
                test: n.test,
                audience: n.audience,
                total: 0,
                processed: 0,
                skipped: BTreeMap::new(),
                created_at: self.clock.now(),
                launched_at: None,
                finished_at: None,
            };
            self.store.put_campaign(&c)?;
            Ok::<_, EngineError>((c, self.store.commit()))
        })();
        crate::tenant::after_commit(res)
    }
}

/// Launch a draft (or resume a running campaign after a restart).
#[derive(Message)]
#[rtype(result = "Result<CampaignRecord, EngineError>")]
pub(crate) struct Launch {
    pub id: Ulid,
    pub resume: bool,
}

impl Handler<Launch> for TenantActor {
    type Result = ResponseFuture<Result<CampaignRecord, EngineError>>;
    fn handle(&mut self, msg: Launch, ctx: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let tenant = self.tenant.id;
            let mut c = self.store.campaign(tenant, msg.id)?.ok_or(EngineError::NotFound("campaign"))?;
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
                        .filter_map(|id| match self.store.contact(tenant, *id) {
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
                            let page = self.store.contacts(tenant, after, 1000)?;
                            let Some(last) = page.last() else { break };
                            after = Some(last.id);
                            all.extend(page.into_iter().map(|ct| ct.phone));
                        }
                        all
                    }
                };
                self.store.put_campaign_recipients(tenant, c.id, &phones)?;
                // `total` and `processed` count the resolved list; contacts gone since creation
                // show only under `skipped`.
                c.total = phones.len() as u64;
                if skipped_missing > 0 {
                    c.skipped.insert("CONTACT_NOT_FOUND".into(), skipped_missing);
                }
                c.status = CampaignStatus::Running;
                c.launched_at = Some(self.clock.now());
                self.store.put_campaign(&c)?;
            }
            Ok(Some((c, self.store.commit())))
        })();
        let me = ctx.address();
        let (store, clock) = (self.store.clone(), self.clock.clone());
        let tenant_handle = TenantHandle::from_addr(me);
        let launched = match res {
            Ok(Some((c, commit))) => {
                let runner_c = c.clone();
                let arbiter = Arbiter::current();
                let addr = CampaignRunner::start_in_arbiter(&arbiter, move |_| {
                    CampaignRunner::new(store, clock, tenant_handle, runner_c)
                });
                self.runners.insert(c.id, addr);
                Ok(Some((c, commit)))
            }
            other => other,
        };
        Box::pin(async move {
            match launched? {
                Some((c, commit)) => {
                    commit.await?;
                    Ok(c)
                }
                None => Err(EngineError::InvalidTransition("status: already running".into())),
            }
        })
    }
}

/// Cancel a draft or running campaign.
#[derive(Message)]
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
            let mut c =
                self.store.campaign(self.tenant.id, msg.0)?.ok_or(EngineError::NotFound("campaign"))?;
            if !matches!(c.status, CampaignStatus::Draft | CampaignStatus::Running) {
                return Err(EngineError::InvalidTransition(format!(
                    "status: a {} campaign cannot be cancelled",
                    format!("{:?}", c.status).to_lowercase()
                )));
            }
            c.status = CampaignStatus::Cancelled;
            c.finished_at = Some(self.clock.now());
            self.store.put_campaign(&c)?;
            Ok((c, self.store.commit()))
        })();
        crate::tenant::after_commit(res)
    }
}
