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
    /// Makes an endpoint known to the phones and the engine, with its actor when it is enabled.
    pub(crate) fn start_webhook(&self, w: WebhookRecord) {
        let addr = w.enabled.then(|| self.webhook_actor(&w));
        self.subs.add(w, addr);
    }

    /// Starts an endpoint's actor and registers it with the engine.
    fn webhook_actor(&self, w: &WebhookRecord) -> Addr<WebhookActor> {
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
                enabled: true,
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
            if let Some(addr) = addr {
                addr.do_send(webhook::Stop);
            }
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
        let addr = self.enabled_webhook(msg.webhook_id);
        Box::pin(async move { addr?.send(webhook::Retry(msg.delivery_id)).await? })
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
            let addr = self.subs.addr(w.id);
            if let Some(addr) = &addr {
                addr.do_send(webhook::UpdateHook(w.clone()));
            }
            self.subs.replace(w.clone(), addr);
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
        let addr = self.enabled_webhook(msg.0);
        let (store, now) = (self.store.clone(), self.clock.now());
        let tenant_id = self.tenant.id;
        Box::pin(async move {
            let addr = addr?;
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

impl TenantActor {
    /// An enabled endpoint's actor; 404 for none, 409 for one turned off.
    fn enabled_webhook(&self, id: Ulid) -> Result<Addr<WebhookActor>, EngineError> {
        let w = self.subs.get(id).ok_or(EngineError::NotFound(Missing::Webhook))?;
        self.subs.addr(w.id).ok_or_else(|| {
            EngineError::InvalidTransition("enabled: the webhook is turned off; enable it first".into())
        })
    }
}

/// Change an endpoint: its URL (already vetted), its events, whether it is on.
#[derive(Message, Clone)]
#[rtype(result = "Result<WebhookRecord, EngineError>")]
pub(crate) struct PatchWebhook {
    pub id: Ulid,
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub enabled: Option<bool>,
}

impl Handler<PatchWebhook> for TenantActor {
    type Result = ResponseFuture<Result<WebhookRecord, EngineError>>;

    fn handle(&mut self, msg: PatchWebhook, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let mut w = self.subs.get(msg.id).ok_or(EngineError::NotFound(Missing::Webhook))?;
            let was = w.enabled;
            if let Some(url) = msg.url {
                w.url = url;
            }
            if let Some(events) = msg.events {
                w.events = events;
            }
            if let Some(on) = msg.enabled {
                w.enabled = on;
            }
            self.store.webhooks().put(&w)?;
            let running = self.subs.addr(w.id);
            // Turned off: its actor stops what is pending, then itself.
            let stopping = match (was, w.enabled, running) {
                (true, false, Some(addr)) => {
                    self.shared.webhooks.write().unwrap().remove(&w.id);
                    self.subs.replace(w.clone(), None);
                    Some(addr.send(webhook::Disable))
                }
                (false, true, _) => {
                    let addr = self.webhook_actor(&w);
                    self.subs.replace(w.clone(), Some(addr));
                    None
                }
                (_, _, running) => {
                    if let Some(addr) = &running {
                        addr.do_send(webhook::UpdateHook(w.clone()));
                    }
                    self.subs.replace(w.clone(), running);
                    None
                }
            };
            Ok::<_, EngineError>((w, stopping))
        })();
        let store = self.store.clone();
        Box::pin(async move {
            let (w, stopping) = res?;
            if let Some(stopping) = stopping {
                stopping.await??;
            }
            store.commit().await?;
            Ok(w)
        })
    }
}

/// Start again what failed between `since` and `until` (now when none); how many.
#[derive(Message, Clone)]
#[rtype(result = "Result<usize, EngineError>")]
pub(crate) struct RecoverWebhook {
    pub id: Ulid,
    pub since: chrono::DateTime<chrono::Utc>,
    pub until: Option<chrono::DateTime<chrono::Utc>>,
}

impl Handler<RecoverWebhook> for TenantActor {
    type Result = ResponseFuture<Result<usize, EngineError>>;

    fn handle(&mut self, msg: RecoverWebhook, _: &mut Self::Context) -> Self::Result {
        let addr = self.enabled_webhook(msg.id);
        let store = self.store.clone();
        Box::pin(async move {
            let n = addr?.send(webhook::Recover { since: msg.since, until: msg.until }).await??;
            store.commit().await?;
            Ok(n)
        })
    }
}
