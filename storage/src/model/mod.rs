//! The persisted records. They are the engine's state, not the API's answers: the HTTP layer maps
//! them to response bodies, so a field can be renamed on the wire without touching what is on disk.

mod campaign;
mod media;
mod message;
mod phone;
mod records;
mod session;
mod tenant;
mod webhook;

pub use campaign::*;
pub use media::*;
pub use message::*;
pub use phone::*;
pub use records::*;
pub use session::*;
pub use tenant::*;
pub use webhook::*;

/// An id on the system clock, for unit tests that make records without a store. Everything
/// else takes its ids from [`crate::Store::new_id`], on the engine's clock.
#[cfg(test)]
pub(crate) fn new_id() -> ulid::Ulid {
    use std::sync::OnceLock;
    static IDS: OnceLock<crate::clock::Ids> = OnceLock::new();
    IDS.get_or_init(|| crate::clock::Ids::new(crate::clock::SystemClock::shared())).next()
}
