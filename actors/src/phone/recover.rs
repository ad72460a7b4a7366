//! Start-up: a phone reads back the work the `pending` index says it owes, in chunks, so a large
//! backlog does not stall it.

use std::collections::{HashSet, VecDeque};

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
        let mut requeued = Vec::new();
        for id in self.recovering.drain(..n).collect::<Vec<_>>() {
            let stale = pigeon_storage::PendingWork {
                phone_id: Some(self.phone_id),
                tenant_id: self.tenant_id,
                message_id: id,
            };
            let Some(mut m) = self.load(id).filter(|m| m.phone_id == Some(self.phone_id)) else {
                // Indexed, never written (a crash between the two), or moved to another phone.
                let _ = self.store.messages().drop_pending(&stale);
                continue;
            };
            match (m.status, self.driver, m.lease.clone()) {
                (MessageStatus::Queued, _, _) if self.expire_if_due(&mut m) => {}
                (MessageStatus::Queued, _, _) => {
                    self.watch_expiry(id, m.expires_at);
                    requeued.push(id);
                }
                // An agent may still answer a lease it took before the restart.
                (MessageStatus::Sending, PhoneDriver::Agent, Some(lease)) => {
                    self.agent().leases.insert(id, lease);
                }
                // A sim delivery cut short starts again.
                (MessageStatus::Sending, _, _) => {
                    m.status = MessageStatus::Queued;
                    m.lease = None;
                    if !self.expire_if_due(&mut m) {
                        self.save(&m);
                        self.watch_expiry(id, m.expires_at);
                        requeued.push(id);
                    }
                }
                // Finished before the crash; only its index entry was left.
                _ => {
                    let _ = self.store.messages().drop_pending(&stale);
                }
            }
        }
        requeue(&mut self.queue, requeued);
        if !self.recovering.is_empty() {
            // Yield the thread first: a message to self would be served in the same turn (actix
            // serves up to 256 messages per poll), starving the other actors of this arbiter.
            ctx.spawn(tokio::task::yield_now().into_actor(self).map(|(), act, ctx| act.recover_chunk(ctx)));
        }
        self.sweep(ctx);
        self.dispatch(ctx);
    }
}

/// Read-back work (oldest first) goes ahead of what was sent since the restart, which has newer
/// ids: recovery runs beside new sends, and a restart must not reorder a phone's queue. The
/// `pending` index it read may already hold those sends; they keep their one place (a message
/// queued twice would be handed out twice in one batch, before the first is saved as sending).
fn requeue(queue: &mut VecDeque<Ulid>, oldest_first: Vec<Ulid>) {
    let Some(&oldest) = oldest_first.first() else { return };
    let mut at = queue.len();
    while at > 0 && queue[at - 1] >= oldest {
        at -= 1;
    }
    let newer = queue.split_off(at);
    let queued: HashSet<Ulid> = newer.iter().copied().collect();
    queue.extend(oldest_first.into_iter().filter(|id| !queued.contains(id)));
    queue.extend(newer);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_back_work_goes_ahead_of_newer_sends_once_and_behind_older_read_back() {
        let id = |n: u64| Ulid::from_parts(n, 0);
        let mut queue = VecDeque::from([id(10), id(11)]);
        requeue(&mut queue, vec![id(1), id(2)]);
        assert_eq!(queue, [id(1), id(2), id(10), id(11)]);
        // A second chunk of the same backlog follows the first, still ahead of new sends.
        requeue(&mut queue, vec![id(3), id(4)]);
        assert_eq!(queue, [id(1), id(2), id(3), id(4), id(10), id(11)]);
        // Sends since the restart are in the index it read: they keep their one place.
        requeue(&mut queue, vec![id(5), id(10), id(11)]);
        assert_eq!(queue, [id(1), id(2), id(3), id(4), id(5), id(10), id(11)]);
        requeue(&mut queue, vec![]);
        assert_eq!(queue.len(), 7);
        let mut empty = VecDeque::new();
        requeue(&mut empty, vec![id(5)]);
        assert_eq!(empty, [id(5)]);
    }
}
