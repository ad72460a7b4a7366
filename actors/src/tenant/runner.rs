//! A running campaign's sender: recipients in small concurrent chunks, each its own send to the
//! tenant actor, so a 100k-recipient launch never blocks the tenant's other traffic. Each send
//! carries the idempotency key `campaign:{id}:{n}`, so a runner resuming after a restart re-sends
//! nothing that was already accepted. Progress is saved after each chunk.

use actix::prelude::*;
use futures_util::future::join_all;
use pigeon_storage::model::{CampaignRecord, CampaignStatus};
use pigeon_storage::Store;

use super::{SendRequest, TenantActor};
use crate::clock::SharedClock;
use crate::domain::PhoneNumber;
use crate::failure::FailureCode;

/// Recipients sent at once by a runner.
const CHUNK: usize = 32;

pub(crate) struct CampaignRunner {
    store: Store,
    clock: SharedClock,
    tenant: Addr<TenantActor>,
    c: CampaignRecord,
    stopping: bool,
}

impl CampaignRunner {
    pub(crate) fn new(
        store: Store,
        clock: SharedClock,
        tenant: Addr<TenantActor>,
        c: CampaignRecord,
    ) -> Self {
        Self { store, clock, tenant, c, stopping: false }
    }

    fn save(&self) {
        if let Err(e) = self.store.campaigns().put(&self.c) {
            log_store_failure!(e, campaign_id = %self.c.id, "cannot record campaign progress");
        }
    }

    fn next_chunk(&mut self, ctx: &mut Context<Self>) {
        if self.stopping || self.c.status != CampaignStatus::Running {
            return;
        }
        let from = self.c.processed;
        let phones = match self.store.campaigns().recipients(self.c.tenant_id, self.c.id, from, CHUNK) {
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
                    *act.c.skipped.entry(code.as_str().to_owned()).or_default() += 1;
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
    tenant: &Addr<TenantActor>,
    c: &CampaignRecord,
    n: u64,
    phone: &str,
) -> Result<(), FailureCode> {
    let to = PhoneNumber::parse(phone).ok_or(FailureCode::InvalidPhoneNumber)?;
    let (body, template) = match (&c.body, &c.template) {
        (Some(b), _) => (b.clone(), None),
        (None, Some(t)) => {
            let (text, name) =
                super::render(store, c.tenant_id, t, &c.data, &to).map_err(|e| FailureCode::of(&e))?;
            (text, Some(name))
        }
        (None, None) if !c.media.is_empty() => (String::new(), None),
        (None, None) => return Err(FailureCode::ValidationError),
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
        from: None,
        metadata: c.metadata.clone(),
        valid_for: c.valid_for,
        media: c.media.clone(),
    };
    let m = tenant
        .send(super::Send(req))
        .await
        .map_err(|_| FailureCode::InternalError)?
        .map_err(|e| FailureCode::of(&e))?;
    store.campaigns().link_message(c.tenant_id, c.id, m.id).map_err(|_| FailureCode::InternalError)
}

impl Actor for CampaignRunner {
    type Context = Context<Self>;
    fn started(&mut self, ctx: &mut Self::Context) {
        self.next_chunk(ctx);
    }
}

/// Stop sending: the campaign is cancelled.
#[derive(Message, Clone)]
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
