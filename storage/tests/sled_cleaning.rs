//! Guards pigeon's change to where sled cleans its segments (vendor/sled/PIGEON.md, 4): a writer
//! rewrites a page of a segment being cleaned only when that reads nothing from the disk (the
//! page is in sled's cache or its bytes are in the OS's page cache); a cold page is left to the
//! periodic flusher. Upstream made the next writer read it, so on a node whose OS drops pages
//! untouched for a minute, sends waited for disk reads of old segments.
//!
//! The OS's page cache of the store file is dropped with `posix_fadvise(DONTNEED)` (after a
//! flush, so nothing is dirty), which makes every old page as cold as such an OS would.
#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

fn open(dir: &Path, flush_every_ms: Option<u64>) -> sled::Db {
    common::open_when_unlocked(
        &sled::Config::new()
            .path(dir)
            .cache_capacity(1 << 20)
            .segment_size(64 * 1024)
            .flush_every_ms(flush_every_ms),
    )
}

/// Hot keys overwritten round after round, with a cold key added now and then: segments end
/// up holding a few cold leaves among dead hot ones, so they are freed only once a cleaner moves
/// those leaves out. The cold keys go in descending order: appended in order, they would fill
/// leaves to their tail (change 11) and leave most segments more than half live, so that few
/// came up for cleaning at all (~25 pages left to the flusher here, against ~1,100 with
/// upstream's split, and without a flusher a file of 12 MB against 19).
fn churn(db: &sled::Db, rounds: std::ops::Range<u32>, want: &mut BTreeMap<Vec<u8>, Vec<u8>>) {
    for round in rounds {
        for h in 0..400u32 {
            let k = [b"h".as_slice(), &h.to_be_bytes()].concat();
            let v = vec![(round % 251) as u8; 200];
            db.insert(&k, v.clone()).unwrap();
            want.insert(k, v);
            if h % 8 == 0 {
                let cold = u32::MAX - (round * 50 + h / 8);
                let k = [b"c".as_slice(), &cold.to_be_bytes()].concat();
                let v = vec![(cold % 251) as u8; 400];
                db.insert(&k, v.clone()).unwrap();
                want.insert(k, v);
            }
        }
        db.flush().unwrap();
    }
}

fn check(db: &sled::Db, want: &BTreeMap<Vec<u8>, Vec<u8>>) {
    assert_eq!(db.len(), want.len());
    for (k, v) in want {
        assert_eq!(db.get(k).unwrap().as_deref(), Some(v.as_slice()), "key {k:?}");
    }
}

/// Drops the OS's cached pages of the store's file (written and synced, so all clean).
fn drop_os_cache(dir: &Path) {
    let file = std::fs::File::open(dir.join("db")).unwrap();
    rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed).unwrap();
}

/// The same writes to a fresh store: 200 rounds, then 100 more with the OS's cache dropped. Returns the
/// store, what it should hold, and how many pages writers left to the flusher before and after
/// the drop.
fn write_with_cold_pages(
    dir: &Path,
    flush_every_ms: Option<u64>,
) -> (sled::Db, BTreeMap<Vec<u8>, Vec<u8>>, u64, u64) {
    let db = open(dir, flush_every_ms);
    let mut want = BTreeMap::new();
    churn(&db, 0..200, &mut want);
    let warm = db.cleaning_left_to_flusher();
    // Dropped again every 10 rounds: how many old pages come up for cleaning right after one
    // drop varies from run to run (8 to 882 were seen with a single drop).
    for start in (200..300).step_by(10) {
        drop_os_cache(dir);
        churn(&db, start..start + 10, &mut want);
    }
    let cold = db.cleaning_left_to_flusher() - warm;
    (db, want, warm, cold)
}

#[test]
fn writers_leave_cold_pages_to_the_flusher() {
    // No flusher: only writers clean. While the file is in the OS's cache they move every page
    // themselves; once it is dropped, the old pages they would move are on disk and are left.
    // (Upstream's writers read those from the disk: 0.3-2 MB in the second part.)
    // How many old pages come up for cleaning after the drops moves with timing: 138 to 1,157
    // were seen (138 once, in a CI run). A count under the bound is measured again on a new
    // store, up to three times; writers that read cold pages (upstream) leave none in any.
    // Pages in the OS's cache are moved by the writers (at most 20 left: a page can also be left
    // while a fragment of it is still in an unwritten buffer); pages on disk are left.
    let (kept, db, want, warm, cold) =
        common::within_three_tries("pages left to the flusher (warm, cold)", |_| {
            let kept = tempfile::tempdir().unwrap();
            let (db, want, warm, cold) = write_with_cold_pages(kept.path(), None);
            eprintln!("pages left to the flusher: {warm} while cached, {cold} once on disk");
            if warm <= 20 && cold >= 200 {
                Ok((kept, db, want, warm, cold))
            } else {
                Err((warm, cold))
            }
        });
    // Without a flusher nothing takes them.
    assert_eq!(db.cleaning_waiting_for_flusher() as u64, warm + cold);
    check(&db, &want);
    drop(db);

    // With the flusher the cold pages are moved after all (in the background, while the same
    // writes go on); what it moved and what it did not reads back, also after a reopen.
    let cleaned = tempfile::tempdir().unwrap();
    let (db, want_cleaned, _, _) = write_with_cold_pages(cleaned.path(), Some(20));
    assert_eq!(want, want_cleaned);
    // (Within 500 ms here; a loaded CI machine gets 10 s.)
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while db.cleaning_waiting_for_flusher() > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(db.cleaning_waiting_for_flusher(), 0, "the flusher moved what writers left");
    check(&db, &want);
    drop(db);

    // Moved and unmoved pages read back after a reopen.
    for dir in [&kept, &cleaned] {
        let db = open(dir.path(), Some(20));
        check(&db, &want);
    }
}
