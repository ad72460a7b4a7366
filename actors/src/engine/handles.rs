//! Handles: what callers hold instead of actor addresses. A [`TenantHandle`] speaks for one
//! tenant (one typed method per request of its actor); an [`AgentHandle`] for one authenticated
//! phone agent.

use actix::prelude::*;
use pigeon_storage::model::{
    ApiKeyRecord, CampaignRecord, Channel, DeliveryRecord, Environment, MessageRecord, MessageStatus,
    OptOutRecord, PhoneDriver, SimSettings, TenantRecord, WebhookRecord,
};
use ulid::Ulid;

use super::Engine;
use crate::domain::PhoneNumber;
use crate::phone::{self, Job};
use crate::registry::PhoneEntry;
use crate::tenant::{self, NewKey, PhoneView, SendRequest, TenantActor, TenantPatch};
use crate::{EngineError, Missing};

/// A tenant's actor, addressed by handle. The actor may passivate while the handle is held (see
/// `tenant/rest.rs`); a request that finds it stopped was never handled, so [`TenantHandle::ask`]
/// sends it again to the tenant's next actor.
#[derive(Clone)]
pub struct TenantHandle {
    pub(super) engine: Engine,
    pub(super) id: Ulid,
    pub(super) addr: Addr<TenantActor>,
}

/// How often a request follows a passivated actor to its successor before giving up (each time
/// the successor would have had to passivate too, within the same request).
const REROUTES: usize = 8;

/// Sends `msg` to `addr`; when the actor stopped with it unhandled (`Closed`: handlers never stop
/// their actor mid-request), sends it again to the actor `next` finds, its successor.
async fn rerouted<A, M>(
    mut addr: Addr<A>,
    msg: M,
    next: impl Fn() -> Result<Addr<A>, EngineError>,
) -> Result<M::Result, EngineError>
where
    A: Actor + Handler<M>,
    A::Context: actix::dev::ToEnvelope<A, M>,
    M: Message + Clone + Send + 'static,
    M::Result: Send,
{
    for _ in 0..REROUTES {
        match addr.send(msg.clone()).await {
            Err(MailboxError::Closed) => addr = next()?,
            other => return Ok(other?),
        }
    }
    Err(MailboxError::Closed.into())
}

impl TenantHandle {
    /// Asks the tenant's actor; re-routed when the actor passivated before handling it.
    pub(crate) async fn ask<M>(&self, msg: M) -> Result<M::Result, EngineError>
    where
        M: Message + Clone + Send + 'static,
        M::Result: Send,
        TenantActor: Handler<M>,
    {
        rerouted(self.addr.clone(), msg, || self.engine.addr(self.id)).await
    }

    /// Creates a draft campaign.
    pub async fn create_campaign(&self, c: tenant::NewCampaign) -> Result<CampaignRecord, EngineError> {
        self.ask(tenant::CreateCampaign(c)).await?
    }

    /// Launches a draft campaign (202: it runs in the background).
    pub async fn launch_campaign(&self, id: Ulid) -> Result<CampaignRecord, EngineError> {
        self.ask(tenant::Launch { id, resume: false }).await?
    }

    /// Cancels a draft or running campaign.
    pub async fn cancel_campaign(&self, id: Ulid) -> Result<CampaignRecord, EngineError> {
        self.ask(tenant::CancelCampaign(id)).await?
    }

    /// Creates a key with `scopes`; answers once it is on disk.
    pub async fn create_key(
        &self,
        name: String,
        rate_limit: Option<u64>,
        environment: Environment,
        scopes: pigeon_storage::model::Scopes,
    ) -> Result<NewKey, EngineError> {
        self.ask(tenant::CreateKey { name, rate_limit, environment, scopes }).await?
    }

    /// Unrevoked keys, oldest first, with the rate in force.
    pub async fn list_keys(&self) -> Result<Vec<(ApiKeyRecord, Option<u32>)>, EngineError> {
        self.ask(tenant::ListKeys).await
    }

    /// Revokes a key of this tenant.
    pub async fn revoke_key(&self, id: Ulid) -> Result<(), EngineError> {
        self.ask(tenant::RevokeKey(id)).await?
    }

    /// Deactivates or reactivates a key of this tenant.
    pub async fn set_key_active(&self, key_id: Ulid, active: bool) -> Result<ApiKeyRecord, EngineError> {
        self.ask(tenant::SetKeyActive { key_id, active }).await?
    }

    /// Records an opt-out the tenant got elsewhere; `true` when it is new.
    pub async fn add_opt_out(&self, phone: PhoneNumber) -> Result<(OptOutRecord, bool), EngineError> {
        self.ask(tenant::AddOptOut(phone)).await?
    }

    /// Removes an opt-out the tenant made through the API.
    pub async fn remove_opt_out(&self, phone: PhoneNumber) -> Result<OptOutRecord, EngineError> {
        self.ask(tenant::RemoveOptOut(phone)).await?
    }

    /// Applies the operator's changes.
    pub async fn patch(&self, p: TenantPatch) -> Result<TenantRecord, EngineError> {
        self.ask(tenant::Patch(p)).await?
    }

    /// Decides a send (opt-out, new-contact limit, phone) and records it; the answer comes once
    /// the message is on disk.
    pub async fn send(&self, req: SendRequest) -> Result<MessageRecord, EngineError> {
        self.ask(tenant::Send(req)).await?
    }

    /// Cancels a message not yet leased to a phone.
    pub async fn cancel(&self, id: Ulid) -> Result<MessageRecord, EngineError> {
        self.ask(tenant::CancelMessage(id)).await?
    }

    /// Adds a phone; an agent phone's token comes back once.
    pub async fn add_phone(
        &self,
        number: PhoneNumber,
        daily_limit: u32,
        driver: PhoneDriver,
        sim: SimSettings,
    ) -> Result<(PhoneView, Option<String>), EngineError> {
        self.ask(tenant::AddPhone { number, daily_limit, driver, sim }).await?
    }

    /// The tenant's phones, oldest first.
    pub async fn phones(&self) -> Result<Vec<PhoneView>, EngineError> {
        self.ask(tenant::ListPhones).await
    }

    /// Changes a phone's limit, enabled flag or (sim) online switch.
    pub async fn update_phone(
        &self,
        id: Ulid,
        daily_limit: Option<u32>,
        enabled: Option<bool>,
        online: Option<bool>,
    ) -> Result<PhoneView, EngineError> {
        self.ask(tenant::UpdatePhone { id, daily_limit, enabled, online }).await?
    }

    /// Whether a number has iMessage: cached for 7 days, else asked of an online phone.
    pub async fn detect(&self, number: PhoneNumber, test: bool) -> Result<tenant::Detection, EngineError> {
        self.ask(tenant::DetectNumber { number, test }).await?
    }

    /// Hands a held message back for release (never lost to a passivating actor).
    pub(crate) fn release(&self, id: Ulid) {
        let me = self.clone();
        actix::spawn(async move {
            if let Err(e) = me.ask(tenant::Release(id)).await {
                tracing::error!(error = %e, message_id = %id, "cannot release a held message");
            }
        });
    }

    /// Deletes a phone; what it still owed fails.
    pub async fn remove_phone(&self, id: Ulid) -> Result<(), EngineError> {
        self.ask(tenant::RemovePhone(id)).await?
    }

    /// Registers a webhook (URL vetted by [`Engine::check_webhook_url`] first).
    pub async fn create_webhook(
        &self,
        url: String,
        events: Vec<String>,
        secret: Option<String>,
    ) -> Result<WebhookRecord, EngineError> {
        self.ask(tenant::CreateWebhook { url, events, secret }).await?
    }

    /// The tenant's webhooks, oldest first.
    pub async fn webhooks(&self) -> Result<Vec<WebhookRecord>, EngineError> {
        self.ask(tenant::ListWebhooks).await
    }

    /// Deletes a webhook.
    pub async fn delete_webhook(&self, id: Ulid) -> Result<(), EngineError> {
        self.ask(tenant::DeleteWebhook(id)).await?
    }

    /// Changes a webhook's URL (vetted first), events or switch; turned off, its pending
    /// deliveries stop (answered once they have).
    pub async fn patch_webhook(
        &self,
        id: Ulid,
        url: Option<String>,
        events: Option<Vec<String>>,
        enabled: Option<bool>,
    ) -> Result<WebhookRecord, EngineError> {
        self.ask(tenant::PatchWebhook { id, url, events, enabled }).await?
    }

    /// Starts a new cycle for each of a webhook's deliveries that failed within the window.
    pub async fn recover_webhook(
        &self,
        id: Ulid,
        since: chrono::DateTime<chrono::Utc>,
        until: Option<chrono::DateTime<chrono::Utc>>,
    ) -> Result<usize, EngineError> {
        self.ask(tenant::RecoverWebhook { id, since, until }).await?
    }

    /// Creates (`id: None`) or changes a template.
    pub async fn put_template(
        &self,
        id: Option<Ulid>,
        name: Option<String>,
        body: Option<String>,
    ) -> Result<pigeon_storage::model::TemplateRecord, EngineError> {
        self.ask(tenant::PutTemplate { id, name, body }).await?
    }

    /// Deletes a template.
    pub async fn delete_template(&self, id: Ulid) -> Result<(), EngineError> {
        self.ask(tenant::DeleteTemplate(id)).await?
    }

    /// Creates (`id: None`) or changes a contact.
    pub async fn put_contact(
        &self,
        id: Option<Ulid>,
        changes: tenant::ContactChanges,
    ) -> Result<pigeon_storage::model::ContactRecord, EngineError> {
        self.ask(tenant::PutContact { id, changes }).await?
    }

    /// Deletes a contact.
    pub async fn delete_contact(&self, id: Ulid) -> Result<(), EngineError> {
        self.ask(tenant::DeleteContact(id)).await?
    }

    /// Replaces a webhook's secret with a generated one; the old one signs too for 24 hours.
    pub async fn rotate_webhook_secret(&self, id: Ulid) -> Result<WebhookRecord, EngineError> {
        self.ask(tenant::RotateSecret(id)).await?
    }

    /// Sends a signed `webhook.test` event to a webhook through the normal delivery path.
    pub async fn send_test_event(&self, id: Ulid) -> Result<DeliveryRecord, EngineError> {
        self.ask(tenant::SendTestEvent(id)).await?
    }

    /// Starts a new attempt cycle for a finished delivery.
    pub async fn retry_delivery(
        &self,
        webhook_id: Ulid,
        delivery_id: Ulid,
    ) -> Result<DeliveryRecord, EngineError> {
        self.ask(tenant::RetryDelivery { webhook_id, delivery_id }).await?
    }
}

/// A phone agent, authenticated by its token. Like a [`TenantHandle`], it follows a phone actor
/// that passivated with its tenant to the phone's next actor.
#[derive(Clone)]
pub struct AgentHandle {
    pub(super) engine: Engine,
    pub(super) phone_id: Ulid,
    pub(super) entry: PhoneEntry,
    pub(super) tenant: TenantHandle,
}

impl AgentHandle {
    /// Asks the phone's actor; re-routed when it stopped before handling the request.
    async fn ask<M>(&self, msg: M) -> Result<M::Result, EngineError>
    where
        M: Message + Clone + Send + 'static,
        M::Result: Send,
        phone::PhoneActor: Handler<M>,
    {
        rerouted(self.entry.addr.clone(), msg, || {
            Ok(self.engine.running_phone(self.entry.tenant_id, self.phone_id)?.0.addr)
        })
        .await
    }

    /// Long poll: leased jobs, waiting up to `wait` for the first.
    pub async fn poll(&self, wait: std::time::Duration) -> Result<Vec<Job>, EngineError> {
        phone::JobsOnTheWay(self.ask(phone::Poll).await??).take(wait).await
    }

    /// A status report on a message this phone holds; `phone_scoped`: a failure that is the
    /// phone's, which moves the message to another phone unless it was sent with `from`.
    pub async fn report(
        &self,
        message_id: Ulid,
        status: MessageStatus,
        failure_reason: Option<String>,
        channel_used: Option<Channel>,
        phone_scoped: bool,
    ) -> Result<MessageRecord, EngineError> {
        self.ask(phone::Report { message_id, status, failure_reason, channel_used, phone_scoped }).await?
    }

    /// An inbound text; STOP/START words change the sender's opt-out. With `key` (the agent's id
    /// for the text), a repeat within 24 h answers the first record and records nothing.
    pub async fn inbound(
        &self,
        from: PhoneNumber,
        body: String,
        media: Vec<Ulid>,
        key: Option<String>,
    ) -> Result<MessageRecord, EngineError> {
        self.tenant.ask(tenant::Inbound { phone_id: self.phone_id, from, body, media, key }).await?
    }

    /// Bytes of media the phone's tenant may still store (`None`: unbounded).
    pub async fn media_room(&self) -> Result<Option<u64>, EngineError> {
        self.tenant.media_room().await
    }

    /// Records a file the phone received, against its tenant's bound.
    pub async fn record_media(
        &self,
        kept: pigeon_storage::media::Kept,
        content_type: &'static str,
        filename: Option<String>,
    ) -> Result<pigeon_storage::model::MediaRecord, EngineError> {
        self.tenant.record_media(kept, content_type, filename, Some(self.phone_id)).await
    }

    /// The answer to a detection job; returns the number it was about.
    pub async fn answer_detection(&self, job_id: Ulid, imessage: bool) -> Result<String, EngineError> {
        self.ask(phone::AnswerDetect { job_id, imessage }).await?
    }

    /// The agent holds only `keep`: every other lease of the phone goes back to the queue now.
    pub async fn release(&self, keep: std::collections::HashSet<Ulid>) -> Result<usize, EngineError> {
        self.ask(phone::Release { keep }).await?
    }

    /// The phone this agent speaks for.
    pub async fn phone(&self) -> Result<PhoneView, EngineError> {
        let phones = self.tenant.phones().await?;
        phones.into_iter().find(|p| p.record.id == self.phone_id).ok_or(EngineError::NotFound(Missing::Phone))
    }

    /// Media this agent may download: its own phone's uploads, and the attachments of the
    /// messages it holds now; any other id answers 404, as another tenant's would.
    pub async fn media(&self, id: Ulid) -> Result<pigeon_storage::model::MediaRecord, EngineError> {
        let m = self
            .engine
            .inner
            .store
            .media()
            .get(self.entry.tenant_id, id)?
            .ok_or(EngineError::NotFound(Missing::Media))?;
        if m.phone_id == Some(self.phone_id) || self.ask(phone::HoldsMedia { media_id: id }).await?? {
            return Ok(m);
        }
        Err(EngineError::NotFound(Missing::Media))
    }

    /// The tenant this phone belongs to.
    pub fn tenant_id(&self) -> Ulid {
        self.entry.tenant_id
    }
}
