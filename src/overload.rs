//! Load shedding on the send path. A node offered more sends than it can write used to queue the
//! rest without bound (in actor mailboxes and commit waits): at 3× capacity every accept waited
//! tens of seconds, memory grew, and a client could not tell "slow" from "overloaded". Now at most
//! `--max-pending-sends` sends are in the accept path at once; the next one is answered 503
//! `OVERLOADED` with `Retry-After` at once, before its body is parsed or its key looked up, so a
//! refusal costs little and the sends taken keep their latency. The refused body is still read
//! and dropped (at most 1 MiB, within the body time-out): left unread, it made actix-http close
//! the connection, and under overload every refusal then cost the client a new connection.
//!
//! A send is judged when it arrives but takes its place only once its body is in: a client that
//! never finishes its body (slowloris) holds a connection until the body time-out, never a place,
//! so stalled uploads cannot fill the gate and lock every other sender out.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::{ready, Either, LocalBoxFuture, Ready};
use futures_util::StreamExt;

use crate::error::ApiError;
use crate::limits::{BODY_TIMEOUT, MAX_BODY};

/// Sends in the accept path at once, unless the operator sets another bound. Measured under
/// overload (`benches/overload.rs`, docs/operating.md "Overload"): 256 let the sends taken wait ~0.7 s at
/// p99 behind the refusals, 128 about 0.1 s; 32 already refused an open-loop client at half the
/// node's rate. A closed-loop client with fewer connections than this is never refused.
pub const DEFAULT_MAX_PENDING_SENDS: usize = 128;

/// The bound and how many sends are past it now; shared by every worker.
#[derive(Debug)]
pub struct Gate {
    pending: AtomicUsize,
    max: usize,
}

impl Gate {
    /// A gate letting `max` sends through at once (at least one).
    pub fn new(max: usize) -> Arc<Self> {
        Arc::new(Self { pending: AtomicUsize::new(0), max: max.max(1) })
    }

    /// Sends in the accept path now.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }
}

/// A send let in when it arrived; [`Admitted::hold`] takes its place once its body is read. As a
/// handler's first argument it is decided before the body is read: actix-web makes every
/// argument's extractor in order, so a refusal takes the body away from the ones after it, and
/// stops at the first error.
pub struct Admitted(Arc<Gate>);

impl Admitted {
    /// Takes the send's place in the accept path until the returned [`Slot`] is dropped. Taken
    /// even if the gate filled up meanwhile: the send was let in when it came.
    pub fn hold(self) -> Slot {
        self.0.pending.fetch_add(1, Ordering::Relaxed);
        Slot(self.0)
    }
}

/// A send's place in the accept path, held until its answer is made.
pub struct Slot(Arc<Gate>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.pending.fetch_sub(1, Ordering::Relaxed);
    }
}

impl FromRequest for Admitted {
    type Error = ApiError;
    type Future = Either<Ready<Result<Self, ApiError>>, LocalBoxFuture<'static, Result<Self, ApiError>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let Some(gate) = req.app_data::<web::Data<Gate>>() else {
            return Either::Left(ready(Err(ApiError::Internal)));
        };
        let gate = gate.clone().into_inner();
        if gate.pending() < gate.max {
            return Either::Left(ready(Ok(Admitted(gate))));
        }
        metrics::counter!("pigeon_sends_refused_total", "reason" => "overloaded").increment(1);
        let body = payload.take();
        Either::Right(Box::pin(async move {
            let _ = actix_web::rt::time::timeout(BODY_TIMEOUT, drain(body)).await;
            Err(ApiError::Overloaded)
        }))
    }
}

/// Reads a body to its end and drops it, stopping past [`MAX_BODY`] (the connection then closes).
async fn drain(mut body: Payload) {
    let mut read = 0;
    while let Some(Ok(chunk)) = body.next().await {
        read += chunk.len();
        if read > MAX_BODY {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn the_gate_lets_max_through_and_frees_a_place_when_a_slot_is_dropped() {
        let gate = Gate::new(2);
        let req =
            actix_web::test::TestRequest::default().app_data(web::Data::from(gate.clone())).to_http_request();
        let take = || {
            futures_util::FutureExt::now_or_never(Admitted::from_request(&req, &mut Payload::None)).unwrap()
        };
        // Let in while its body comes, a send holds no place yet.
        let (a, b) = (take().ok().unwrap(), take().ok().unwrap());
        assert_eq!(gate.pending(), 0);
        let (a, b) = (a.hold(), b.hold());
        assert_eq!(take().err(), Some(ApiError::Overloaded));
        assert_eq!(gate.pending(), 2, "a refusal holds no place");
        drop(a);
        let c = take().ok().unwrap().hold();
        drop((b, c));
        assert_eq!(gate.pending(), 0);
    }
}
