//! Connectors: what actually sends a text. The agent's loop is the same for each; a connector
//! sends one job and says what became of it, answers detection questions, and after a crash says
//! what it can about a send it was in the middle of.

pub mod bluebubbles;
pub mod command;
pub mod messages;
pub(crate) mod received;
pub mod typedstream;

use std::path::PathBuf;

use pigeon_protocol::{JobChannel, JobMedia, JobView, ReportedStatus, StatusBody};
use tokio::sync::mpsc::UnboundedSender;

pub use bluebubbles::BlueBubbles;
pub use command::CommandConnector;
pub use messages::Messages;

use crate::node::{Node, Outcome};

/// Runs `round` every `poll` for as long as the agent runs, saying once when `source` stops
/// answering and once when it is back (a connector's receipts and texts received).
pub(crate) async fn every<E: std::fmt::Display>(
    poll: std::time::Duration,
    source: &str,
    mut round: impl AsyncFnMut() -> Result<(), E>,
) {
    let mut warned = false;
    loop {
        match round().await {
            Ok(()) if warned => {
                tracing::info!(source, "answers again");
                warned = false;
            }
            Ok(()) => {}
            Err(e) if !warned => {
                tracing::warn!(source, error = %e, "cannot read receipts and texts received; trying again");
                warned = true;
            }
            Err(_) => {}
        }
        actix_rt::time::sleep(poll).await;
    }
}

/// A send job with everything it needs.
#[derive(Debug, Clone)]
pub struct SendJob {
    /// The message.
    pub message_id: String,
    /// Recipient, E.164.
    pub to: String,
    /// The text; empty when the job is its attachments alone.
    pub body: String,
    /// The channel asked for.
    pub channel: JobChannel,
    /// The attachments, as the node names them.
    pub media: Vec<JobMedia>,
    /// Their local copies, in the same order, once downloaded and checked.
    pub files: Vec<PathBuf>,
}

impl SendJob {
    /// The send in `job`, if it is a whole one.
    pub fn from_job(job: &JobView) -> Option<Self> {
        let media = job.media.clone().unwrap_or_default();
        let body = match &job.body {
            Some(b) => b.clone(),
            None if !media.is_empty() => String::new(),
            None => return None,
        };
        Some(Self {
            message_id: job.message_id.clone()?,
            to: job.to.clone()?,
            body,
            channel: job.channel.unwrap_or(JobChannel::Auto),
            media,
            files: Vec::new(),
        })
    }
}

/// The connector an agent runs.
#[derive(Debug, Clone)]
pub enum Connector {
    /// A command line (see `command.rs`).
    Command(CommandConnector),
    /// A BlueBubbles server (see `bluebubbles/`).
    BlueBubbles(BlueBubbles),
    /// Messages.app on this Mac (see `messages/`).
    Messages(Messages),
}

impl Connector {
    /// Why this connector cannot send attachments, if it cannot.
    pub fn media_refused(&self) -> Option<&'static str> {
        match self {
            Connector::Command(c) if c.takes_media() => None,
            Connector::Command(_) => Some("the send command has no {media} argument to take attachments"),
            Connector::BlueBubbles(_) | Connector::Messages(_) => None,
        }
    }

    /// Sends one job; what became of it.
    pub async fn send(&self, job: &SendJob) -> StatusBody {
        match self {
            Connector::Command(c) => c.send(job).await,
            Connector::BlueBubbles(c) => c.send(job).await,
            Connector::Messages(c) => c.send(job).await,
        }
    }

    /// Whether `phone` has iMessage.
    pub async fn detect(&self, phone: &str) -> bool {
        match self {
            Connector::Command(c) => c.detect(phone).await,
            Connector::BlueBubbles(c) => c.detect(phone).await,
            Connector::Messages(c) => c.detect(phone).await,
        }
    }

    /// Starts what the connector follows on its own (receipts, texts received), reporting into
    /// `outcomes` and forwarding texts to `node`.
    pub fn follow(&self, node: &Node, outcomes: &UnboundedSender<Outcome>) {
        match self {
            Connector::Command(_) => {}
            Connector::BlueBubbles(c) => {
                actix_rt::spawn(c.clone().follow(node.clone(), outcomes.clone()));
            }
            Connector::Messages(c) => {
                actix_rt::spawn(c.clone().follow(node.clone(), outcomes.clone()));
            }
        }
    }

    /// After a crash: what became of a send this agent had handed over and never heard back
    /// from. Messages and BlueBubbles leave a row that tells (found by recipient and text); a
    /// command's outcome does not outlive the agent that waited for it, so for it, and when the
    /// row cannot be read, it says it cannot tell.
    pub async fn settle(&self, message_id: &str) -> StatusBody {
        let what = match self {
            Connector::Command(_) => "the send command ran",
            Connector::BlueBubbles(c) => match c.settle(message_id).await {
                Some(report) => return report,
                None => "BlueBubbles was sending it",
            },
            // Messages leaves a row: chat.db tells what became of the send.
            Connector::Messages(c) => match c.settle(message_id).await {
                Some(report) => return report,
                None => "osascript ran",
            },
        };
        StatusBody {
            status: ReportedStatus::Failed,
            failure_reason: Some(format!(
                "outcome unknown: the agent stopped while {what}; it was not sent again"
            )),
            channel_used: None,
            failure_scope: None,
        }
    }
}
