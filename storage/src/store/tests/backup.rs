//! Backups while writers go on (`backup.rs`): the copy holds every write made before it began,
//! nothing of a batch in part, and what it replays from the log in the order it was made.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use super::*;

#[test]
fn a_backup_taken_while_writers_go_on_is_the_store_at_one_instant() {
    let root = tempfile::tempdir().unwrap();
    let s = Store::open(root.path()).unwrap();
    let i = &s.inner;
    let opener = tree::Opener {
        engine: &i.engine,
        writes: &i.writes,
        health: &i.health,
        clock: i.ids.clock(),
        tap: &i.tap,
    };
    let (a, b, c) = (opener.tree("a").unwrap(), opener.tree("b").unwrap(), opener.tree("c").unwrap());
    for n in 0..30_000u64 {
        c.insert(n.to_be_bytes(), &[1u8; 100][..]).unwrap();
    }
    let (stop, done) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
    let writers: Vec<_> = (0..2u64)
        .map(|w| {
            let (a, b, c, stop, done) = (a.clone(), b.clone(), c.clone(), stop.clone(), done.clone());
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(Ordering::SeqCst) {
                    // A record and its index, together; the same key overwritten by both writers;
                    // and deletes of what was there before.
                    let key = (w << 32 | n).to_be_bytes();
                    let mut writes = tree::Writes::default();
                    writes.insert(&a, key, &n.to_be_bytes()[..]);
                    writes.insert(&b, key, &n.to_be_bytes()[..]);
                    writes.apply().unwrap();
                    let mut both = tree::Writes::default();
                    both.insert(&a, b"shared", &key[..]);
                    both.insert(&b, b"shared", &key[..]);
                    both.apply().unwrap();
                    c.remove((w * 15_000 + n % 15_000).to_be_bytes()).unwrap();
                    n += 1;
                    done.fetch_add(1, Ordering::SeqCst);
                    // A node's pace, not a tight loop's: a copier that writers outran would
                    // chase their inserts into the ranges it has still to read.
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
                n
            })
        })
        .collect();
    while done.load(Ordering::SeqCst) < 2_000 {
        std::thread::yield_now();
    }
    let before = done.load(Ordering::SeqCst);
    let snap = s.backup().unwrap();
    let during = done.load(Ordering::SeqCst) - before;
    stop.store(true, Ordering::SeqCst);
    let wrote: Vec<u64> = writers.into_iter().map(|w| w.join().unwrap()).collect();
    assert!(during > 0, "writers went on while it copied");
    assert!(matches!(s.backup(), Err(StoreError::BackupBusy)), "one at a time");

    let mut tar = Vec::new();
    snap.write_archive(&mut tar).unwrap();
    drop(snap);
    assert!(!root.path().join(crate::backup::COPY_DIR).exists(), "the copy goes with the snapshot");
    let out = root.path().join("restored");
    let restored = crate::backup::restore(tar.as_slice(), &out).unwrap();
    let copy = sled::open(&out).unwrap();
    let (ca, cb, cc) =
        (copy.open_tree("a").unwrap(), copy.open_tree("b").unwrap(), copy.open_tree("c").unwrap());
    assert_eq!(restored.manifest.trees["a"], ca.len() as u64);
    assert_eq!(ca.len(), cb.len(), "no batch in part");
    assert_eq!(ca.get(b"shared").unwrap(), cb.get(b"shared").unwrap(), "the same last write in both");
    let copied = ca.len() as u64 - 1;
    assert!(copied >= before && copied < wrote.iter().sum::<u64>(), "{before} ≤ {copied} < {wrote:?}");
    for (w, &n) in wrote.iter().enumerate() {
        let had = (0..n)
            .take_while(|n| ca.contains_key(((w as u64) << 32 | n).to_be_bytes()).unwrap())
            .count() as u64;
        // Its last step may be cut between its writes: the ones before it are whole.
        let removed = (0..had.saturating_sub(1).min(15_000))
            .all(|n| !cc.contains_key((w as u64 * 15_000 + n).to_be_bytes()).unwrap());
        assert!(removed, "writer {w}: each of its {had} steps whole");
        let later =
            (had..n).filter(|n| ca.contains_key(((w as u64) << 32 | n).to_be_bytes()).unwrap()).count();
        assert_eq!(later, 0, "writer {w}: a prefix of its writes, nothing after the cut");
    }
    s.backup().expect("the next backup may start");
}

/// An archive with anything but the store's files under `data/` is refused whole, and the
/// directory is left as it was found: no file outside it, none inside it.
#[test]
fn a_restore_refuses_what_is_not_a_store_and_leaves_nothing() {
    fn archive(add: impl FnOnce(&mut tar::Builder<Vec<u8>>)) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        let file = |b: &mut tar::Builder<Vec<u8>>, path: &str| {
            let mut h = tar::Header::new_gnu();
            h.set_size(3);
            h.set_mode(0o600);
            b.append_data(&mut h, path, &b"abc"[..]).unwrap();
        };
        file(&mut b, "data/conf");
        add(&mut b);
        file(&mut b, "data/db");
        b.into_inner().unwrap()
    }
    let root = tempfile::tempdir().unwrap();
    let link = archive(|b| {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(tar::EntryType::Symlink);
        h.set_size(0);
        b.append_link(&mut h, "data/blobs", "/etc").unwrap();
    });
    let outside = archive(|b| {
        let mut h = tar::Header::new_gnu();
        h.set_size(1);
        b.append_data(&mut h, "etc/passwd", &b"x"[..]).unwrap();
    });
    let no_manifest = archive(|_| {});
    for (name, bytes, why) in [
        ("link", link, "Symlink"),
        ("outside", outside, "etc/passwd"),
        ("no manifest", no_manifest, "cut short"),
    ] {
        let dir = root.path().join(name.replace(' ', "-"));
        let e = crate::backup::restore(bytes.as_slice(), &dir).unwrap_err().to_string();
        assert!(e.contains(why), "{name}: {e}");
        assert!(!dir.exists(), "{name}: the directory it made is gone");
    }
    // A directory that was there and empty stays, empty.
    let empty = root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let bytes = archive(|_| {});
    assert!(crate::backup::restore(bytes.as_slice(), &empty).is_err());
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    assert!(!root.path().join("etc").exists());
}

/// Media files are not in the trees: a backup carries them over all the same, so every record
/// restored still finds its bytes (`compact.rs` tests a compaction's).
#[test]
fn media_files_go_with_a_backup() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let s = Store::open(&data).unwrap();
    let mut spool = s.media_spool().unwrap();
    let bytes: Vec<u8> = (0..300_000u32).map(|n| (n * 7 % 251) as u8).collect();
    spool.write(&bytes).unwrap();
    let kept = s.keep_media(spool).unwrap();
    let m = crate::model::MediaRecord {
        id: s.new_id(),
        tenant_id: s.new_id(),
        content_type: "application/pdf".into(),
        size: kept.size,
        sha256: kept.sha256.clone(),
        filename: None,
        phone_id: None,
        created_at: chrono::DateTime::from_timestamp_millis(1_700_000_000_000).unwrap(),
    };
    s.media().put(&m).unwrap();
    let read_all = |s: &Store| {
        let mut c = s.media_content(&m).unwrap().expect("the bytes are there");
        let mut out = Vec::new();
        while let Some(chunk) = c.next_chunk().unwrap() {
            out.extend(chunk);
        }
        out
    };
    assert!(read_all(&s) == bytes);

    let mut tar = Vec::new();
    s.backup().unwrap().write_archive(&mut tar).unwrap();
    drop(s);
    let out = root.path().join("restored");
    crate::backup::restore(tar.as_slice(), &out).unwrap();
    let restored = Store::open(&out).unwrap();
    assert_eq!(restored.media().get(m.tenant_id, m.id).unwrap().as_ref(), Some(&m));
    assert!(read_all(&restored) == bytes, "the restored node serves the file");
    assert!(restored.media().held(&m.sha256).unwrap());
}
