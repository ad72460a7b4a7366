//! The tenant's webhook endpoints: registration (URL vetted beforehand), the actor per endpoint,
//! deletion, manual retries of a delivery, secret rotation and test events.

use actix::prelude::*;
use pigeon_storage::model::WebhookRecord;
use ulid::Ulid;

use super::TenantActor;
use crate::durable::after_commit;
use crate::error::Missing;
use crate::webhook::{self, WebhookActor};
use crate::{credentials, EngineError};

/// Most webhooks per tenant.
pub(crate) const MAX_WEBHOOKS: usize = 10;

/// Register a webhook endpoint (its URL already vetted).
#[derive(Message, Clone)]
#[rtype(result = "Result<WebhookRecord, EngineError>")]
pub(crate) struct CreateWebhook {
    pub url: String,
    pub events: Vec<String>,
    pub secret: Option<String>,
}

impl TenantActor {
    /// Starts an endpoint's actor and makes it known to the phones and the engine.
    pub(crate) fn start_webhook(&self, w: WebhookRecord) -> Addr<WebhookActor> {
        let (store, clock, hook, allow, outcomes) = (
            self.store.clone(),
            self.clock.clone(),
            w.clone(),
            self.shared.allow_private.clone(),
            self.shared.outcomes.clone(),
        );
        // Built on its arbiter: the HTTP client it holds is not Send.
        let addr = WebhookActor::start_in_arbiter(self.shared.arbiters.for_id(w.id), move |_| {
            WebhookActor::new(store, clock, hook, allow, outcomes)
        });
        self.shared.webhooks.write().unwrap().insert(w.id, addr.clone());
        self.subs.add(w, addr.clone());
        addr
    }
}

impl Handler<CreateWebhook> for TenantActor {
    type Result = ResponseFuture<Result<WebhookRecord, EngineError>>;

    fn handle(&mut self, msg: CreateWebhook, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            if self.subs.list().len() >= MAX_WEBHOOKS {
                return Err(EngineError::LimitReached(format!(
                    "webhooks: the account holds {MAX_WEBHOOKS} webhooks, the most allowed; delete one first"
                )));
            }
            let w = WebhookRecord {
                id: self.store.new_id(),
                tenant_id: self.tenant.id,
                url: msg.url,
                events: msg.events,
                secret: msg.secret.unwrap_or_else(|| credentials::generate("whsec_")),
                previous_secret: None,
                previous_until: None,
                created_at: self.clock.now(),
            };
            self.store.webhooks().put(&w)?;
            self.start_webhook(w.clone());
            Ok(w)
        })();
        after_commit(&self.store, res)
    }
}

/// The tenant's webhooks, oldest first.
#[derive(Message, Clone)]
#[rtype(result = "Vec<WebhookRecord>")]
pub(crate) struct ListWebhooks;

impl Handler<ListWebhooks> for TenantActor {
    type Result = MessageResult<ListWebhooks>;
    fn handle(&mut self, _: ListWebhooks, _: &mut Self::Context) -> Self::Result {
        MessageResult(self.subs.list())
    }
}

/// Delete a webhook: no more deliveries to it (pending ones stop).
#[derive(Message, Clone)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct DeleteWebhook(pub Ulid);

impl Handler<DeleteWebhook> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: DeleteWebhook, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let (w, addr) = self.subs.remove(msg.0).ok_or(EngineError::NotFound(Missing::Webhook))?;
            self.shared.webhooks.write().unwrap().remove(&w.id);
            addr.do_send(webhook::Stop);
            self.store.webhooks().delete(&w)?;
            Ok(())
        })();
        after_commit(&self.store, res)
    }
}

/// Start a new cycle of attempts for a finished delivery.
#[derive(Message, Clone)]
#[rtype(result = "Result<pigeon_storage::model::DeliveryRecord, EngineError>")]
pub(crate) struct RetryDelivery {
    pub webhook_id: Ulid,
    pub delivery_id: Ulid,
}

impl Handler<RetryDelivery> for TenantActor {
    type Result = ResponseFuture<Result<pigeon_storage::model::DeliveryRecord, EngineError>>;

    fn handle(&mut self, msg: RetryDelivery, _: &mut Self::Context) -> Self::Result {
        let addr = self.subs.addr(msg.webhook_id);
        Box::pin(async move {
            let addr = addr.ok_or(EngineError::NotFound(Missing::Webhook))?;
            addr.send(webhook::Retry(msg.delivery_id)).await?
        })
    }
}

/// How long a rotated-out secret still signs, beside the new one.
pub const ROTATION_OVERLAP: chrono::Duration = chrono::Duration::hours(24);

/// Replace an endpoint's secret with a generated one; the old one signs too for 24 hours.
#[derive(Message, Clone)]
#[rtype(result = "Result<WebhookRecord, EngineError>")]
pub(crate) struct RotateSecret(pub Ulid);

impl Handler<RotateSecret> for TenantActor {
    type Result = ResponseFuture<Result<WebhookRecord, EngineError>>;

    fn handle(&mut self, msg: RotateSecret, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let mut w = self.subs.get(msg.0).ok_or(EngineError::NotFound(Missing::Webhook))?;
            let new = credentials::generate("whsec_");
            w.previous_secret = Some(std::mem::replace(&mut w.secret, new));
            w.previous_until = Some(self.clock.now() + ROTATION_OVERLAP);
            self.store.webhooks().put(&w)?;
            self.subs.replace(w.clone());
            if let Some(addr) = self.subs.addr(w.id) {
                addr.do_send(webhook::UpdateHook(w.clone()));
            }
            Ok(w)
        })();
        after_commit(&self.store, res)
    }
}

/// Send a signed `webhook.test` event to an endpoint through the normal delivery path.
#[derive(Message, Clone)]
#[rtype(result = "Result<pigeon_storage::model::DeliveryRecord, EngineError>")]
pub(crate) struct SendTestEvent(pub Ulid);

impl Handler<SendTestEvent> for TenantActor {
    type Result = ResponseFuture<Result<pigeon_storage::model::DeliveryRecord, EngineError>>;

    fn handle(&mut self, msg: SendTestEvent, _: &mut Self::Context) -> Self::Result {
        use pigeon_storage::model::{DeliveryRecord, DeliveryState};
        let addr = self.subs.addr(msg.0);
        let (store, now) = (self.store.clone(), self.clock.now());
        let tenant_id = self.tenant.id;
        Box::pin(async move {
            let addr = addr.ok_or(EngineError::NotFound(Missing::Webhook))?;
            let event_id = store.new_id();
            let d = DeliveryRecord {
                id: store.new_id(),
                tenant_id,
                webhook_id: msg.0,
                event_id,
                event: webhook::TEST_EVENT.into(),
                payload: webhook::test_payload(event_id, msg.0, now),
                state: DeliveryState::Pending,
                cycle: 0,
                attempts: Vec::new(),
                next_attempt_at: Some(now),
                created_at: now,
            };
            store.webhooks().put_delivery(&d)?;
            store.commit().await?;
            addr.do_send(webhook::Deliver { id: d.id, subject: None });
            Ok(d)
        })
    }
}
