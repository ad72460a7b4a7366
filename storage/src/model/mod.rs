//! The persisted records. They are the engine's state, not the API's answers: the HTTP layer maps
//! them to response bodies, so a field can be renamed on the wire without touching what is on disk.

mod campaign;
mod message;
mod phone;
mod records;
mod session;
mod tenant;
mod webhook;

pub use campaign::*;
pub use message::*;
pub use phone::*;
pub use records::*;
pub use session::*;
pub use tenant::*;
pub use webhook::*;

use ulid::Ulid;

/// A new id: a ULID, strictly increasing within this process, so ids sort in creation order
/// (plain ULIDs made in the same millisecond would sort at random).
pub fn new_id() -> Ulid {
    use std::sync::{Mutex, OnceLock};
    static GEN: OnceLock<Mutex<ulid::Generator>> = OnceLock::new();
    let mut g =
        GEN.get_or_init(|| Mutex::new(ulid::Generator::new())).lock().unwrap_or_else(|e| e.into_inner());
    match g.generate() {
        Ok(id) => id,
        Err(overflow) => overflow.commit_overflow_random(),
    }
}
