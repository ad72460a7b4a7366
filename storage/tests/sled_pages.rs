//! Guards pigeon's packing of sled's per-fragment page-table entry (`CacheInfo`, 48 → 32 bytes;
//! vendor/sled/PIGEON.md): every way a page's fragments are found again must still find them. A
//! 1 MiB cache pages nearly everything out, so reads go to disk through the packed pointers; a
//! reopen rebuilds the entries from the log; blobs (values past a quarter of a segment) take the
//! other pointer form.

mod common;

use std::collections::BTreeMap;

fn open(dir: &std::path::Path) -> sled::Db {
    common::open_when_unlocked(&sled::Config::new().path(dir).cache_capacity(1 << 20))
}

fn value(i: u32, round: u32) -> Vec<u8> {
    let len = if i % 500 == 7 { 300 * 1024 } else { 40 + (i % 200) as usize };
    let mut v = vec![(i % 251) as u8; len];
    v[..8].copy_from_slice(&(u64::from(i) << 32 | u64::from(round)).to_be_bytes());
    v
}

fn check(db: &sled::Db, want: &BTreeMap<Vec<u8>, Vec<u8>>) {
    assert_eq!(db.len(), want.len());
    for (k, v) in want {
        assert_eq!(db.get(k).unwrap().as_deref(), Some(v.as_slice()), "key {k:?}");
    }
    let scanned: Vec<_> = db.iter().map(|r| r.unwrap().0.to_vec()).collect();
    assert_eq!(scanned, want.keys().cloned().collect::<Vec<_>>());
}

#[test]
fn fragments_inline_and_blobs_are_found_again_through_the_cache_and_after_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let mut want = BTreeMap::new();
    {
        let db = open(dir.path());
        // Appended keys (leaves split behind them), then each updated many times over: pages
        // with up to ten fragments, consolidated and not; every 500th value is a blob.
        for round in 0..12 {
            for i in 0..3_000u32 {
                if round > 0 && i % 3 != round % 3 {
                    continue;
                }
                let k = i.to_be_bytes().to_vec();
                let v = value(i, round);
                db.insert(&k, v.clone()).unwrap();
                want.insert(k, v);
            }
        }
        for i in (0..3_000u32).step_by(11) {
            db.remove(i.to_be_bytes()).unwrap();
            want.remove(i.to_be_bytes().as_slice());
        }
        db.flush().unwrap();
        check(&db, &want);
        let blobs = std::fs::read_dir(dir.path().join("blobs")).unwrap().count();
        assert!(blobs > 0, "the test means to write blobs");
    }
    let db = open(dir.path());
    check(&db, &want);
    // Blobs replaced by blobs and by small values, after a reopen.
    for i in (7..3_000u32).step_by(500) {
        let k = i.to_be_bytes().to_vec();
        let v = if i % 1000 == 7 { value(i, 99) } else { vec![1, 2, 3] };
        db.insert(&k, v.clone()).unwrap();
        want.insert(k, v);
    }
    db.flush().unwrap();
    drop(db);
    let db = open(dir.path());
    check(&db, &want);
}
