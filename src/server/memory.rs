//! How the server asks its allocator (mimalloc, the binary's global allocator) to hold memory:
//! set once at start, before the engine allocates, so a node's CPU a message does not grow with
//! its age and its RSS stays within what docs/operating.md promises.
//!
//! `unsafe` here is two calls into mimalloc's C options table, which has no safe wrapper.
#![allow(unsafe_code)]

use std::ffi::OsStr;

/// mimalloc's number for its purge delay (`mi_option_purge_delay` in v3's `mimalloc.h`; the -sys
/// crate names only some of its options).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Never hand freed pages back to the OS. mimalloc's own default (1 s) hands back every page that
/// is free when its timer fires, and a busy node takes most of them again moments later, each
/// page faulted in and zeroed by the kernel anew; as the heap ages and scatters that churn grows.
/// In alternating 12-minute soaks the CPU a message, against a fixed probe of the machine, grew
/// 8-10 % with it and stayed within 2 % without it, for ~40 MiB more RSS held at the node's peak,
/// and more after many tenants wake at once (docs/lab/2026-11-29-mimalloc-keeps-what-frees-pigeon.md).
const NEVER: std::ffi::c_long = -1;

/// Applies pigeon's allocator settings, except where the operator set mimalloc's own variable
/// (`MIMALLOC_PURGE_DELAY`, or its old name `MIMALLOC_RESET_DELAY`), which mimalloc has read
/// at load and which wins. Returns the purge delay in force, in milliseconds (-1: never).
pub fn tune_for_server() -> i64 {
    #[cfg(target_os = "linux")]
    // mimalloc asks for transparent huge pages on its arenas, and a huge page counts whole in
    // RSS however little of it is used: after 300k messages that was 98 of 259 MiB. Without
    // them the same run ended at 160 MiB.
    if let Err(e) = rustix::thread::disable_transparent_huge_pages(true) {
        tracing::warn!(error = %e, "cannot turn off transparent huge pages");
    }
    let operator =
        std::env::var_os("MIMALLOC_PURGE_DELAY").or_else(|| std::env::var_os("MIMALLOC_RESET_DELAY"));
    if let Some(delay) = purge_delay(operator.as_deref()) {
        // SAFETY: sets one word in mimalloc's option table, which any thread may do at any time.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, delay) };
    }
    // SAFETY: reads one word of the same table.
    unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }
}

/// The purge delay pigeon sets: none when the operator chose one.
fn purge_delay(operator: Option<&OsStr>) -> Option<std::ffi::c_long> {
    match operator {
        Some(_) => None,
        None => Some(NEVER),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operators_variable_wins() {
        assert_eq!(purge_delay(None), Some(-1));
        assert_eq!(purge_delay(Some(OsStr::new("0"))), None);
        assert_eq!(purge_delay(Some(OsStr::new("250"))), None);
    }

    #[test]
    fn the_option_number_is_mimallocs_purge_delay() {
        // Unset (tests run without mimalloc's variables), the option holds mimalloc's documented
        // default for the purge delay: the number names the right option.
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none()
            && std::env::var_os("MIMALLOC_RESET_DELAY").is_none()
        {
            // SAFETY: as above.
            let before = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
            assert!(before == 1000 || before == NEVER, "{before}");
            assert_eq!(tune_for_server(), -1);
        }
    }
}
