//! Makes sled's blob files durable with the commit that needs them.
//!
//! sled 0.34.7 writes a log record larger than a quarter of a segment (~128 KiB) to a file of its
//! own, `<dir>/blobs/<lsn>`, and leaves only a pointer in the log; it never syncs that file nor
//! the directory naming it (`pagecache/blob_io.rs`). A leaf of long texts is such a record: 40
//! messages with 10,000-character bodies left 7–8 blob files. Our `fdatasync` of the log made the
//! pointer durable and not what it points to, so a power cut right after a 202 could leave the
//! store with a pointer to a missing or torn file. The committer therefore syncs, after each
//! flush, every blob file it has not synced yet, and then the directory.
//!
//! sled writes a blob inside the reservation of its log record, so a blob whose record a flush
//! covered is complete when the flush returns. A blob met part-written belongs to a record the
//! flush did not cover; it is synced again once its checksum (sled's own, the file's first four
//! bytes) matches. Checking the directory costs one `stat` per commit: it is listed only when its
//! modification time moved, or is too recent to trust (a time stamp has the kernel's tick as its
//! grain, so a file made in the same tick as the last listing would not move it).

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// A directory modified less than this long ago is listed again.
const RECENT: Duration = Duration::from_millis(50);

pub(crate) struct Blobs {
    dir: PathBuf,
    /// The directory's modification time at the last listing.
    listed_at: Option<SystemTime>,
    /// Blobs synced complete, by log position; pruned as sled deletes them.
    synced: HashSet<u64>,
    /// A blob was met part-written at the last listing.
    partial: bool,
}

impl Blobs {
    /// Blobs of the store in `dir` (sled's data directory).
    pub(crate) fn new(dir: &std::path::Path) -> Self {
        Self { dir: dir.join("blobs"), listed_at: None, synced: HashSet::new(), partial: false }
    }

    /// Syncs every complete blob not synced before, then the directory if any was. Returns how
    /// many it synced.
    pub(crate) fn sync(&mut self) -> Result<u64, String> {
        let err = |what: &str, e: std::io::Error| format!("{what} of the store's blob files: {e}");
        let modified = match std::fs::metadata(&self.dir) {
            Ok(m) => m.modified().map_err(|e| err("stat", e))?,
            // sled makes the directory at open; none means no blob was ever written.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(err("stat", e)),
        };
        let recent = SystemTime::now().duration_since(modified).map_or(true, |age| age < RECENT);
        if self.listed_at == Some(modified) && !recent && !self.partial {
            return Ok(0);
        }
        self.listed_at = Some(modified);
        self.partial = false;
        let mut present = HashSet::with_capacity(self.synced.len());
        let mut newly = 0;
        for entry in std::fs::read_dir(&self.dir).map_err(|e| err("listing", e))? {
            let entry = entry.map_err(|e| err("listing", e))?;
            let Some(lsn) = entry.file_name().to_str().and_then(|n| n.parse::<u64>().ok()) else { continue };
            present.insert(lsn);
            if self.synced.contains(&lsn) {
                continue;
            }
            let mut file = match File::open(entry.path()) {
                Ok(f) => f,
                // sled's cleaning removed it after the listing.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(err("open", e)),
            };
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map_err(|e| err("read", e))?;
            if !complete(&bytes) {
                self.partial = true;
                continue;
            }
            file.sync_data().map_err(|e| err("fdatasync", e))?;
            self.synced.insert(lsn);
            newly += 1;
        }
        self.synced.retain(|lsn| present.contains(lsn));
        if newly > 0 {
            File::open(&self.dir).and_then(|d| d.sync_all()).map_err(|e| err("directory fsync", e))?;
        }
        Ok(newly)
    }
}

/// Whether a blob file is whole: sled writes its CRC-32 (little-endian) first, then the record's
/// kind byte and its bytes, and checks the CRC over both when it reads the blob back.
fn complete(bytes: &[u8]) -> bool {
    let Some((crc, rest)) = bytes.split_first_chunk::<4>() else { return false };
    !rest.is_empty() && crc32fast::hash(rest) == u32::from_le_bytes(*crc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(payload: &[u8]) -> Vec<u8> {
        let mut out = crc32fast::hash(payload).to_le_bytes().to_vec();
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn a_blob_is_complete_only_when_its_checksum_covers_all_of_it() {
        let whole = blob(b"\x01the record's bytes");
        assert!(complete(&whole));
        assert!(!complete(&whole[..whole.len() - 1]));
        assert!(!complete(&whole[..4]));
        assert!(!complete(&[]));
    }

    #[test]
    fn each_complete_blob_is_synced_once_and_a_torn_one_when_it_is_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut blobs = Blobs::new(dir.path());
        assert_eq!(blobs.sync().unwrap(), 0, "no directory yet");
        std::fs::create_dir(dir.path().join("blobs")).unwrap();
        let whole = blob(b"\x01a leaf");
        std::fs::write(dir.path().join("blobs/100"), &whole).unwrap();
        std::fs::write(dir.path().join("blobs/200"), &whole[..6]).unwrap();
        assert_eq!(blobs.sync().unwrap(), 1);
        // The torn one is looked at again, however old the directory's time.
        assert!(blobs.partial);
        std::fs::write(dir.path().join("blobs/200"), &whole).unwrap();
        assert_eq!(blobs.sync().unwrap(), 1);
        assert_eq!(blobs.sync().unwrap(), 0);
        // sled deletes a blob: it is forgotten; a new one is synced.
        std::fs::remove_file(dir.path().join("blobs/100")).unwrap();
        std::fs::write(dir.path().join("blobs/300"), &whole).unwrap();
        assert_eq!(blobs.sync().unwrap(), 1);
        assert_eq!(blobs.synced, HashSet::from([200, 300]));
    }
}
