//! A phone's own health: phone-scoped failures (the phone cannot send now, whoever the
//! recipient). Each moves its message to another of the tenant's phones (the tenant actor chooses,
//! `tenant/health.rs`); five in a row take the phone out of rotation.

use actix::prelude::*;
use pigeon_storage::model::MessageRecord;
use ulid::Ulid;

use super::PhoneActor;
use crate::EngineError;

/// Phone-scoped failures in a row that disable a phone.
pub const DISABLE_AFTER: u32 = 5;

/// A phone failed phone-scoped [`DISABLE_AFTER`] times in a row: it takes itself out of rotation
/// (the tenant actor owns the phone's record).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct DisablePhone {
    pub phone_id: Ulid,
    pub reason: String,
}

/// A message its phone could not send (phone-scoped): the tenant actor moves it to another phone,
/// or fails it with `reason` (`tenant/health.rs`).
#[derive(Message)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Failover {
    pub id: Ulid,
    pub from: Ulid,
    pub reason: String,
}

/// Where a phone hands what it cannot send: its tenant actor.
#[derive(Clone)]
pub(crate) struct OwnerAddr {
    pub failover: Recipient<Failover>,
    pub disable: Recipient<DisablePhone>,
}

/// The tenant actor this phone belongs to, told once both run (the phones start first).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Owner(pub OwnerAddr);

impl Handler<Owner> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Owner, _: &mut Self::Context) {
        self.tenant = Some(msg.0);
    }
}

impl PhoneActor {
    /// Any report but a phone-scoped failure breaks the run.
    pub(super) fn healthy_report(&mut self) {
        self.phone_failures = 0;
    }

    /// A phone-scoped failure of `m`: counted toward self-disable, and unless `m` was sent with
    /// `from`, taken off this phone and handed to the tenant actor to move. `None`: the message
    /// fails here (pinned, or no tenant actor to hand it to).
    pub(super) fn phone_failed(
        &mut self,
        m: &MessageRecord,
        reason: &str,
    ) -> Option<ResponseFuture<Result<MessageRecord, EngineError>>> {
        self.phone_failures += 1;
        let tenant = self.tenant.clone()?;
        if self.phone_failures >= DISABLE_AFTER {
            self.phone_failures = 0;
            // Before the move: the tenant then chooses among the other phones anyway.
            tenant.disable.do_send(DisablePhone { phone_id: self.phone_id, reason: reason.to_owned() });
        }
        if m.pinned {
            return None;
        }
        self.queue.retain(|id| *id != m.id);
        self.agent().leases.remove(&m.id);
        // Sent now: a dropped request (the agent went away) still moves the message.
        let moved =
            tenant.failover.send(Failover { id: m.id, from: self.phone_id, reason: reason.to_owned() });
        Some(Box::pin(async move { moved.await? }))
    }
}
