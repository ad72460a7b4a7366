//! Guards pigeon's change to how sled's flusher cleans segments (vendor/sled/PIGEON.md, 6): in
//! each of its turns it moves the live pages out of every segment due for cleaning, as long as
//! its time allows. Upstream's queue answered "nothing" whenever it passed a segment whose pages
//! were all handed out, which ended the flusher's turn after one segment: a quiet node, where
//! few writers come by to clean, emptied one segment per turn while retention made more
//! cleanable than that, and its file grew for tens of minutes (to 57 MB for ~5 MB of live pages).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// One flusher turn every 2 s: long enough that one segment a turn cannot pass for all of them.
const TURN_MS: u64 = 2_000;

fn open(dir: &Path) -> sled::Db {
    sled::Config::new()
        .path(dir)
        .cache_capacity(8 << 20)
        .segment_size(64 * 1024)
        .flush_every_ms(Some(TURN_MS))
        .open()
        .unwrap()
}

/// Span-like trees, each written with a few records of a long-lived tree among its own, then all
/// but the last dropped: most segments keep a few live pages among dead ones.
fn write_and_drop(db: &sled::Db, want: &mut BTreeMap<Vec<u8>, Vec<u8>>) {
    let keep = db.open_tree("keep").unwrap();
    let spans = 30u32;
    for span in 0..spans {
        let tree = db.open_tree(format!("span{span}")).unwrap();
        for i in 0..300u32 {
            tree.insert(i.to_be_bytes(), vec![(i % 251) as u8; 200]).unwrap();
            if i % 30 == 0 {
                let k = (span * 1_000 + i).to_be_bytes().to_vec();
                let v = vec![(span % 251) as u8; 120];
                keep.insert(&k, v.clone()).unwrap();
                want.insert(k, v);
            }
        }
        db.flush().unwrap();
    }
    for span in 0..spans - 1 {
        assert!(db.drop_tree(format!("span{span}")).unwrap());
    }
    db.flush().unwrap();
}

fn check(db: &sled::Db, want: &BTreeMap<Vec<u8>, Vec<u8>>) {
    let keep = db.open_tree("keep").unwrap();
    assert_eq!(keep.len(), want.len());
    for (k, v) in want {
        assert_eq!(keep.get(k).unwrap().as_deref(), Some(v.as_slice()), "key {k:?}");
    }
    assert_eq!(db.open_tree("span29").unwrap().len(), 300);
}

#[test]
fn the_flusher_cleans_every_segment_due_in_one_turn() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let mut want = BTreeMap::new();
    write_and_drop(&db, &mut want);
    let due = db.segment_summary().draining;
    eprintln!("segments being cleaned after the drops: {due}");
    assert!(due >= 12, "the drops leave many segments to clean, {due} were");

    // No writer comes by: only the flusher cleans. Within 5 s it has had at most three turns
    // (upstream's queue would have left at least `due - 3`).
    let deadline = Instant::now() + Duration::from_millis(TURN_MS * 5 / 2);
    while db.segment_summary().draining > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = db.segment_summary().draining;
    assert_eq!(left, 0, "the flusher cleaned every segment in its turns, {left} of {due} were left");
    check(&db, &want);
    drop(db);

    let db = open(dir.path());
    check(&db, &want);
}
