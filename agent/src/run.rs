//! The agent's loop: long-poll the node for jobs, hand each send to the connector once, report
//! every outcome until the node takes it, answer detection questions. While the node is away it
//! backs off (capped, with jitter) and says so once; a refused token stops it.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use pigeon_protocol::{JobKind, JobView, StatusBody};
use tokio::sync::{mpsc, watch, Notify, Semaphore};

use crate::connector::{Connector, SendJob};
use crate::journal::{Journal, Unfinished};
use crate::media::{FetchError, MediaDir};
use crate::node::{Node, NodeError, Outcome};

/// Reports sent to the node at once.
const REPORTS_AT_ONCE: usize = 32;
/// The longest wait between tries while the node is away.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long a stopping agent waits for its last reports.
const LAST_REPORTS: Duration = Duration::from_secs(5);

/// Why the loop ended.
#[derive(Debug)]
pub enum Exit {
    /// SIGTERM or SIGINT: in-flight sends finished, reports sent or kept.
    Stopped,
    /// The node refused the token.
    TokenRefused(String),
    /// The journal cannot be written: without it, a send could be repeated.
    Journal(std::io::Error),
}

/// The loop's settings.
pub struct Loop {
    /// The node.
    pub node: Node,
    /// What sends.
    pub connector: Connector,
    /// The journal, opened.
    pub journal: Journal,
    /// Sends running at once before the agent stops asking for more.
    pub concurrency: usize,
    /// A poll's wait, seconds.
    pub poll_wait_s: u64,
    /// Where send jobs' attachments are downloaded.
    pub media: MediaDir,
}

/// Runs the loop until a signal, a refused token or a journal failure.
pub async fn run(cfg: Loop, unfinished: Unfinished) -> Exit {
    let Loop { node, connector, journal, concurrency, poll_wait_s, media } = cfg;
    let (outcomes, rx) = mpsc::unbounded_channel::<Outcome>();
    let (refused_tx, mut refused) = watch::channel(None::<String>);
    let reports_pending = Rc::new(Cell::new(0usize));
    actix_rt::spawn(report_loop(node.clone(), journal.clone(), rx, refused_tx, reports_pending.clone()));

    connector.follow(&node, &outcomes);
    for (id, report) in unfinished.unreported {
        let _ = outcomes.send(Outcome { id, report, journaled: true });
    }
    for id in unfinished.attempted {
        let report = connector.settle(&id).await;
        tracing::warn!(message_id = %id, status = ?report.status, "settled a send the agent stopped in the middle of");
        let _ = outcomes.send(Outcome { id, report, journaled: false });
    }

    let inflight = Rc::new(Cell::new(0usize));
    let freed = Rc::new(Notify::new());
    let mut link = Link::default();
    // Jobs answered to a poll this agent never read (it died, or lost the answer) wait out their
    // lease unless the node hears which ones the agent holds: at start, and after a failed poll.
    let mut release_due = true;
    let stop = stop_signal();
    tokio::pin!(stop);
    let exit = loop {
        while inflight.get() >= concurrency {
            tokio::select! {
                _ = freed.notified() => {}
                _ = &mut stop => break,
            }
        }
        if inflight.get() >= concurrency {
            break Exit::Stopped;
        }
        if release_due {
            match node.release(journal.live_ids()).await {
                Ok(n) => {
                    release_due = false;
                    if n > 0 {
                        tracing::info!(
                            jobs = n,
                            "jobs answered to a poll this agent never read are back in the queue"
                        );
                    }
                }
                Err(NodeError::Unauthorized(e)) => break Exit::TokenRefused(e),
                Err(NodeError::Refused { status, .. }) => {
                    tracing::debug!(status, "the node does not take lease releases");
                    release_due = false;
                }
                Err(_) => {}
            }
        }
        let polled = tokio::select! {
            r = node.poll(poll_wait_s) => r,
            _ = &mut stop => break Exit::Stopped,
            _ = refused.changed() => break Exit::TokenRefused(refused.borrow().clone().unwrap_or_default()),
        };
        let jobs = match polled {
            Ok(jobs) => {
                link.up();
                jobs
            }
            Err(NodeError::Unauthorized(e)) => break Exit::TokenRefused(e),
            Err(e) => {
                release_due = true;
                let wait = link.down(&e);
                tokio::select! {
                    _ = actix_rt::time::sleep(wait) => {}
                    _ = &mut stop => break Exit::Stopped,
                }
                continue;
            }
        };
        let mut sends: Vec<SendJob> = Vec::new();
        for job in jobs {
            match job.kind {
                JobKind::Detect => detect(&node, &connector, job),
                JobKind::Send => match SendJob::from_job(&job) {
                    None => tracing::warn!(job_id = %job.job_id, "a send job without its message; skipped"),
                    Some(s)
                        if journal.knows(&s.message_id)
                            || sends.iter().any(|o| o.message_id == s.message_id) =>
                    {
                        // A lease that expired and came back: handed over once already.
                        tracing::info!(message_id = %s.message_id, "already handed to the connector; not again");
                    }
                    Some(s) => sends.push(s),
                },
            }
        }
        if sends.is_empty() {
            continue;
        }
        let ids: Vec<String> = sends.iter().map(|s| s.message_id.clone()).collect();
        if let Err(e) = journal.attempted(&ids).await {
            break Exit::Journal(e);
        }
        for s in sends {
            inflight.set(inflight.get() + 1);
            let (connector, outcomes, inflight, freed) =
                (connector.clone(), outcomes.clone(), inflight.clone(), freed.clone());
            let (node, media) = (node.clone(), media.clone());
            actix_rt::spawn(async move {
                let mut s = s;
                let report = match with_files(&node, &media, &connector, &mut s).await {
                    Ok(()) => connector.send(&s).await,
                    Err(report) => report,
                };
                tracing::debug!(message_id = %s.message_id, status = ?report.status, "sent");
                let _ = outcomes.send(Outcome { id: s.message_id, report, journaled: false });
                inflight.set(inflight.get() - 1);
                freed.notify_one();
            });
        }
    };
    if matches!(exit, Exit::Stopped) {
        tracing::info!(sends = inflight.get(), "stopping: finishing the sends in flight");
        while inflight.get() > 0 {
            freed.notified().await;
        }
        let until = Instant::now() + LAST_REPORTS;
        while reports_pending.get() > 0 && Instant::now() < until {
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
        if reports_pending.get() > 0 {
            tracing::warn!(
                reports = reports_pending.get(),
                "stopped with reports the node has not taken; they go at the next start"
            );
        }
    }
    exit
}

/// Downloads the job's attachments for the connector, or says why the send fails here. A node
/// that cannot serve them now, or a disk that cannot keep them, is this phone's trouble
/// (`failure_scope: phone`: another phone may send it); a connector that cannot send
/// attachments, or bytes that are not the job's, would be the same on this phone's next try, and
/// fail the message without counting against the phone's health.
async fn with_files(
    node: &Node,
    media: &MediaDir,
    connector: &Connector,
    s: &mut SendJob,
) -> Result<(), StatusBody> {
    use pigeon_protocol::FailureScope;
    if s.media.is_empty() {
        return Ok(());
    }
    let failed = |reason: String, scope: FailureScope| StatusBody {
        status: pigeon_protocol::ReportedStatus::Failed,
        failure_reason: Some(reason),
        channel_used: None,
        failure_scope: Some(scope),
    };
    if let Some(why) = connector.media_refused() {
        return Err(failed(why.to_owned(), FailureScope::Recipient));
    }
    match media.fetch(node, &s.media).await {
        Ok(files) => {
            s.files = files;
            Ok(())
        }
        Err(e) => {
            tracing::warn!(message_id = %s.message_id, error = %e, "the attachments of a send cannot be had");
            let scope = match e {
                FetchError::Node(NodeError::Transient(_)) | FetchError::Disk(_) => FailureScope::Phone,
                _ => FailureScope::Recipient,
            };
            Err(failed(e.to_string(), scope))
        }
    }
}

/// Answers a detection question in the background.
fn detect(node: &Node, connector: &Connector, job: JobView) {
    let (node, connector) = (node.clone(), connector.clone());
    actix_rt::spawn(async move {
        let Some(phone) = job.phone else { return };
        let imessage = connector.detect(&phone).await;
        if let Err(e) = node.answer(&job.job_id, imessage).await {
            tracing::warn!(job_id = %job.job_id, error = %e, "could not answer a detection question");
        }
    });
}

/// Journals outcomes in batches, then reports each until the node takes it.
async fn report_loop(
    node: Node,
    journal: Journal,
    mut rx: mpsc::UnboundedReceiver<Outcome>,
    refused: watch::Sender<Option<String>>,
    pending: Rc<Cell<usize>>,
) {
    let slots = std::sync::Arc::new(Semaphore::new(REPORTS_AT_ONCE));
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while let Ok(more) = rx.try_recv() {
            batch.push(more);
        }
        pending.set(pending.get() + batch.len());
        let fresh: Vec<(String, StatusBody)> =
            batch.iter().filter(|o| !o.journaled).map(|o| (o.id.clone(), o.report.clone())).collect();
        if !fresh.is_empty() {
            if let Err(e) = journal.outcomes(&fresh).await {
                tracing::error!(error = %e, "cannot write outcomes to the journal; reporting them anyway");
            }
        }
        for o in batch {
            let permit = slots.clone().acquire_owned().await.expect("never closed");
            let (node, journal, refused, pending) =
                (node.clone(), journal.clone(), refused.clone(), pending.clone());
            actix_rt::spawn(async move {
                deliver(&node, &journal, &o.id, &o.report, &refused).await;
                pending.set(pending.get() - 1);
                drop(permit);
            });
        }
    }
}

/// Reports one outcome until the node takes it (or refuses it for good, or refuses the token).
async fn deliver(
    node: &Node,
    journal: &Journal,
    id: &str,
    report: &StatusBody,
    refused: &watch::Sender<Option<String>>,
) {
    let mut wait = Duration::from_millis(250);
    loop {
        match node.report(id, report).await {
            Ok(()) => break,
            Err(NodeError::Refused { status, code, error }) => {
                // Gone (404) or already final (409): the node will never take it.
                tracing::warn!(message_id = %id, status, code = %code, error = %error, "the node refused a report; dropped");
                break;
            }
            Err(NodeError::Unauthorized(e)) => {
                // Kept in the journal for a start with a valid token.
                let _ = refused.send(Some(e));
                return;
            }
            Err(NodeError::Transient(e)) => {
                tracing::debug!(message_id = %id, error = %e, "report not taken yet");
                actix_rt::time::sleep(jittered(wait)).await;
                wait = (wait * 2).min(MAX_BACKOFF);
            }
        }
    }
    if let Err(e) = journal.acked(id).await {
        tracing::warn!(message_id = %id, error = %e, "cannot record a report as taken; it will be sent again");
    }
}

/// The link to the node: backoff while it is away, one log line when it goes and one when it is back.
#[derive(Default)]
struct Link {
    down_since: Option<Instant>,
    wait: Duration,
}

impl Link {
    /// A failed poll: how long to wait before the next.
    fn down(&mut self, why: &NodeError) -> Duration {
        if self.down_since.is_none() {
            tracing::warn!(error = %why, "the node is unreachable; retrying with backoff (at most every 30 s)");
            self.down_since = Some(Instant::now());
            self.wait = Duration::from_millis(500);
        } else {
            self.wait = (self.wait * 2).min(MAX_BACKOFF);
        }
        jittered(self.wait)
    }

    /// A poll answered.
    fn up(&mut self) {
        if let Some(since) = self.down_since.take() {
            tracing::info!(after_s = since.elapsed().as_secs(), "the node is reachable again");
        }
    }
}

/// `d` scaled by a factor in [0.5, 1), so agents that lost the node together do not return in step.
fn jittered(d: Duration) -> Duration {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().subsec_nanos();
    d.mul_f64(0.5 + f64::from(nanos % 1000) / 2000.0)
}

/// Resolves on SIGTERM or SIGINT.
async fn stop_signal() {
    let mut term = match actix_rt::signal::unix::signal(actix_rt::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = actix_rt::signal::ctrl_c() => {}
    }
}
