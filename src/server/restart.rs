//! The node's own restart once a full disk has room again (see `pigeon_storage::Writable`).
//!
//! sled gives up writing for good after one failed write, so the store must be opened again,
//! and opening it again in place would mean swapping it under every actor. The process instead
//! replaces itself (`exec`) with a fresh start of the same command: same PID (a service manager
//! sees no exit), same arguments and environment, and the listening socket handed over (its
//! descriptor number in [`LISTEN_FD`]) so that clients keep the address and new connections wait
//! in its backlog instead of being refused. The new process opens the store exactly as after a
//! `kill -9`: every acknowledged write was synced, and the work it owes is listed again.
//!
//! One of two modules with `unsafe` (memory.rs is the other): a descriptor number from the
//! environment, and one kept open across `exec`, can only be taken up by number.
#![allow(unsafe_code)]

use std::net::TcpListener;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::time::Duration;

use pigeon_actors::storage::{StoreHealth, Writable};

/// The variable that hands the listening socket's descriptor to the restarted process.
pub const LISTEN_FD: &str = "PIGEON_LISTEN_FD";

/// Exit status when the restart itself fails: a service manager should start the node again.
const EX_TEMPFAIL: i32 = 75;

/// The listening socket handed over by the process this one replaced, if any.
pub fn inherited_listener() -> Option<TcpListener> {
    let fd: RawFd = std::env::var(LISTEN_FD).ok()?.parse().ok()?;
    // SAFETY: only `restart` sets the variable, to a listening socket it kept open across `exec`
    // for this process to own; `local_addr` below checks that it is one.
    let listener = unsafe { TcpListener::from_raw_fd(fd) };
    match listener.local_addr() {
        Ok(_) => {
            // Close-on-exec again, so that a later restart does not leak it into the next process.
            if let Err(e) = rustix::io::fcntl_setfd(&listener, rustix::io::FdFlags::CLOEXEC) {
                tracing::warn!(error = %e, "cannot mark the inherited socket close-on-exec");
            }
            Some(listener)
        }
        Err(e) => {
            tracing::warn!(fd, error = %e, "{LISTEN_FD} names no listening socket; binding instead");
            std::mem::forget(listener);
            None
        }
    }
}

/// Watches the store on a thread of its own and restarts the process once writes failed and
/// the disk has room again. `listener` is a handle on the server's socket (a `try_clone`), kept
/// open for the restart to hand over.
pub fn watch(store: StoreHealth, listener: TcpListener) -> std::io::Result<()> {
    std::thread::Builder::new().name("pigeon-restart".into()).spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        if store.writable() == Writable::SpaceBack {
            restart(listener.as_raw_fd());
        }
    })?;
    Ok(())
}

fn restart(fd: RawFd) -> ! {
    tracing::warn!("restarting to open the store again");
    // SAFETY: `fd` is the watcher's own clone of the listening socket, open for the life of the
    // process. `exec` keeps every descriptor without close-on-exec.
    let socket = unsafe { BorrowedFd::borrow_raw(fd) };
    let err = match rustix::io::fcntl_setfd(socket, rustix::io::FdFlags::empty()) {
        Err(e) => std::io::Error::from(e),
        Ok(()) => match std::env::current_exe() {
            Err(e) => e,
            Ok(exe) => std::process::Command::new(exe)
                .args(std::env::args_os().skip(1))
                .env(LISTEN_FD, fd.to_string())
                .exec(),
        },
    };
    tracing::error!(error = %err, "cannot restart; exiting for the service manager to start the node");
    std::process::exit(EX_TEMPFAIL)
}
