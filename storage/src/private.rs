//! The data directory is private (DESIGN "Security defaults"): it holds webhook secrets, message
//! bodies and numbers. At open, the directory and what is already in it lose every permission
//! for group and others (a store made under a looser umask included: the server calls
//! [`restrict_or_warn`] before it opens the store); files made later are kept private by the
//! process's umask, which `main` sets.

use std::path::Path;

/// Directories: the owner reads, writes and enters them.
const DIR_MODE: u32 = 0o700;
/// Files: the owner reads and writes them.
const FILE_MODE: u32 = 0o600;

/// Takes group and other permissions off `dir` and everything under it. Symbolic links are
/// left alone (their targets are not ours to change).
#[cfg(unix)]
pub fn restrict(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.is_dir() {
        if meta.permissions().mode() & 0o777 != DIR_MODE {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(DIR_MODE))?;
        }
        for entry in std::fs::read_dir(dir)? {
            restrict(&entry?.path())?;
        }
    } else if meta.is_file() && meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(FILE_MODE))?;
    }
    Ok(())
}

/// [`restrict`], a failure only logged: in another user's directory, say, the store still works,
/// and the operator is told.
pub fn restrict_or_warn(dir: &Path) {
    if let Err(e) = restrict(dir) {
        tracing::warn!(error = %e, dir = %dir.display(), "cannot make the data directory private (0700, files 0600)");
    }
}

/// Elsewhere permissions are the platform's.
#[cfg(not(unix))]
pub fn restrict(_: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_store_made_under_a_loose_umask_becomes_private() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        std::fs::create_dir_all(store.join("blobs")).unwrap();
        std::fs::write(store.join("db"), b"x").unwrap();
        std::fs::write(store.join("blobs/1"), b"x").unwrap();
        for p in [&store, &store.join("blobs")] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::set_permissions(store.join("db"), std::fs::Permissions::from_mode(0o644)).unwrap();
        restrict(&store).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&store), 0o700);
        assert_eq!(mode(&store.join("blobs")), 0o700);
        assert_eq!(mode(&store.join("db")), 0o600);
        assert_eq!(mode(&store.join("blobs/1")), 0o600);
    }
}
