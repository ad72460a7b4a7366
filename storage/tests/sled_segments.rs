//! Guards pigeon's count of sled's segments by state (vendor/sled/PIGEON.md, 6), which `/metrics`
//! shows as `pigeon_store_segments{state}` and `pigeon_store_live_bytes`: dropping span-like
//! trees leaves most segments at most half live, so they go to cleaning (`draining`), and the live
//! bytes fall with what was dropped. And the flusher cleans every segment due in one turn
//! (PIGEON.md, 7): upstream, it cleaned one a turn, so a quiet node's file grew to ~11× its live
//! pages before it levelled off.

use std::collections::BTreeMap;
use std::path::Path;

/// No flusher (only writers clean, and none write after the drops), or one every `flush_ms`.
fn open_with(dir: &Path, flush_ms: Option<u64>) -> sled::Db {
    sled::Config::new()
        .path(dir)
        .cache_capacity(8 << 20)
        .segment_size(64 * 1024)
        .flush_every_ms(flush_ms)
        .open()
        .unwrap()
}

fn open(dir: &Path) -> sled::Db {
    open_with(dir, None)
}

/// Span-like trees, each written with a few records of a long-lived tree among its own, then all
/// but the last dropped: most segments keep a few live pages among dead ones.
fn write_and_drop(db: &sled::Db, want: &mut BTreeMap<Vec<u8>, Vec<u8>>) -> (u64, u64) {
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
    let before = db.segment_summary().live_bytes;
    for span in 0..spans - 1 {
        assert!(db.drop_tree(format!("span{span}")).unwrap());
    }
    db.flush().unwrap();
    (before, db.segment_summary().live_bytes)
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
fn the_segment_summary_follows_drops_and_cleaning() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let mut want = BTreeMap::new();
    let (before, after) = write_and_drop(&db, &mut want);
    let s = db.segment_summary();
    eprintln!("live bytes {before} -> {after}; {s:?}");
    // 30 spans of 300 records of 200 bytes, 29 of them dropped: the live bytes fall by most of it.
    assert!(before > 1_500_000, "{before}");
    assert!(after * 4 < before, "live bytes {before} -> {after}");
    assert!(s.draining >= 12, "the drops leave many segments to clean: {s:?}");
    check(&db, &want);
    drop(db);

    let db = open(dir.path());
    check(&db, &want);
}

#[test]
fn the_flusher_cleans_every_segment_due_in_one_turn() {
    let dir = tempfile::tempdir().unwrap();
    // A flusher turn every 2 s, so that upstream's one segment a turn would need a minute here.
    let db = open_with(dir.path(), Some(2_000));
    let mut want = BTreeMap::new();
    write_and_drop(&db, &mut want);
    let due = db.segment_summary().draining;
    assert!(due >= 12, "the drops leave many segments to clean: {due}");
    // Three turns at most; nothing is written meanwhile, so only the flusher cleans.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(6);
    let left = loop {
        let left = db.segment_summary().draining;
        if left <= 2 || std::time::Instant::now() > deadline {
            break left;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(left <= 2, "{due} segments due, {left} still being cleaned after 6 s");
    check(&db, &want);
    drop(db);
    let db = open(dir.path());
    check(&db, &want);
}
