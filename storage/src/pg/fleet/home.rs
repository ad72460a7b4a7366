//! A node's own directory in a fleet: who ran there before, and proof that it is dead.

use std::time::{Duration, Instant};

use crate::StoreError;

/// `<home>/fleet-node`: the id of the node running in a directory, locked (`flock`) while it runs.
/// Holding the lock proves the node named in the file is dead (the kernel lets go of a dead
/// process's locks), so its leases can be taken at once: a restart does not leave its tenants
/// waiting out the lease.
pub(super) struct Home {
    file: std::fs::File,
    /// The node that ran here before.
    pub(super) predecessor: Option<String>,
}

impl Home {
    /// Locks the file, waiting up to three seconds for a node still stopping there.
    pub(super) fn claim(dir: &std::path::Path) -> Result<Self, StoreError> {
        use std::io::Read;
        let fail =
            |e: std::io::Error| StoreError::Database(format!("{}: {e}", dir.join("fleet-node").display()));
        std::fs::create_dir_all(dir).map_err(fail)?;
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join("fleet-node"))
            .map_err(fail)?;
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{flock, FlockOperation};
            let started = Instant::now();
            while let Err(e) = flock(&file, FlockOperation::NonBlockingLockExclusive) {
                if started.elapsed() > Duration::from_secs(3) {
                    return Err(StoreError::Database(format!(
                        "another pigeon node runs in {} ({e})",
                        dir.display()
                    )));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(fail)?;
        let predecessor = Some(text.trim().to_owned()).filter(|t| !t.is_empty());
        Ok(Self { file, predecessor })
    }

    /// Writes this node's id for its successor.
    pub(super) fn name(&self, id: &str) -> Result<(), StoreError> {
        use std::io::{Seek, Write};
        let mut f = &self.file;
        let done = f
            .set_len(0)
            .and_then(|()| f.rewind())
            .and_then(|()| f.write_all(id.as_bytes()))
            .and_then(|()| f.sync_data());
        done.map_err(|e| StoreError::Database(format!("cannot record the node's id: {e}")))
    }
}
