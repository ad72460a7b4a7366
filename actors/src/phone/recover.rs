//! Start-up: a phone reads back the work the `pending` index says it owes, in chunks, so a large
//! backlog does not stall it.

use actix::prelude::*;
use pigeon_storage::model::{MessageStatus, PhoneDriver};
use ulid::Ulid;

use super::PhoneActor;

/// Work found on disk at start-up, oldest first.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Recover(pub Vec<Ulid>);

impl Handler<Recover> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Recover, ctx: &mut Self::Context) {
        self.recovering.extend(msg.0);
        self.recover_chunk(ctx);
    }
}

/// Messages read back per turn of a recovering phone; between turns its mailbox (new sends,
/// polls, reports) is served, so a large backlog does not stall the phone.
const RECOVER_CHUNK: usize = 1024;

impl PhoneActor {
    pub(super) fn recover_chunk(&mut self, ctx: &mut Context<Self>) {
        let n = self.recovering.len().min(RECOVER_CHUNK);
        for id in self.recovering.drain(..n).collect::<Vec<_>>() {
            let stale = pigeon_storage::PendingWork {
                phone_id: Some(self.phone_id),
                tenant_id: self.tenant_id,
                message_id: id,
            };
            let Some(mut m) = self.load(id) else {
                // Indexed, never written: a crash between the two.
                let _ = self.store.messages().drop_pending(&stale);
                continue;
            };
            match (m.status, self.driver, m.lease.clone()) {
                (MessageStatus::Queued, _, _) => self.queue.push_back(id),
                // An agent may still answer a lease it took before the restart.
                (MessageStatus::Sending, PhoneDriver::Agent, Some(lease)) => {
                    self.agent().leases.insert(id, lease);
                }
                // A sim delivery cut short starts again.
                (MessageStatus::Sending, _, _) => {
                    m.status = MessageStatus::Queued;
                    m.lease = None;
                    self.save(&m);
                    self.queue.push_back(id);
                }
                // Finished before the crash; only its index entry was left.
                _ => {
                    let _ = self.store.messages().drop_pending(&stale);
                }
            }
        }
        if !self.recovering.is_empty() {
            // Yield the thread first: a message to self would be served in the same turn (actix
            // serves up to 256 messages per poll), starving the other actors of this arbiter.
            ctx.spawn(tokio::task::yield_now().into_actor(self).map(|(), act, ctx| act.recover_chunk(ctx)));
        }
        self.sweep(ctx);
        self.dispatch(ctx);
    }
}
