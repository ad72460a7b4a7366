//! The limits and timeouts of the HTTP edge, in one place: what enforces them (startup, the
//! extractors, the wire wrapper, the overload gate) and the error texts that state them read them
//! here, so neither side imports the other.

use std::time::Duration;

/// Largest accepted body.
pub const MAX_BODY: usize = 1024 * 1024;

/// Largest accepted request head (request line and headers). Every connection may hold one head
/// in memory, and the node takes up to 20,000 connections; nginx keeps 32 KiB too.
pub const MAX_HEAD: usize = 32 * 1024;

/// Most headers in one request (actix-http's fixed table).
pub const MAX_HEADERS: usize = 96;

/// How long a client may take to send a request's head.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a body may take to arrive once its headers have: a client that announces a body and
/// then stalls holds a connection (and a descriptor) only this long.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
