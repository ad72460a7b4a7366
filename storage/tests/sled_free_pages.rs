//! Guards pigeon's compact freed page (vendor/sled/PIGEON.md, 8). Dropping a tree frees each of
//! its pages, and a freed page stays in sled's page table until its id is allocated again;
//! upstream kept each as a boxed `Update::Free` (160 bytes beside the entry itself), so every
//! retired span of messages put ~25 MiB on the node's RSS for the half minute until its ids were
//! reused. Now a freed page is one flagged fragment entry, no larger than what it replaces. And
//! the drop reclaims its garbage as it goes (9) instead of leaving it to other threads.
//! This counts the heap's live bytes around a drop, and checks that freed pages still behave as
//! free ones: reused by new pages, found again after a reopen, nothing read back wrong.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};

/// The system allocator, counting the bytes it has handed out and not had back.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most `LIVE` has been since it was last reset.
static HIGH: AtomicIsize = AtomicIsize::new(0);
/// How many allocations were made (a scan's decoding work, pages pulled from disk).
static ALLOCS: AtomicIsize = AtomicIsize::new(0);

fn grew(by: isize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    HIGH.fetch_max(now, Relaxed);
}

// The one way to count the heap's live bytes: a wrapper around the system's allocator.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size() as isize);
            ALLOCS.fetch_add(1, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size() as isize, Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            grew(new_size as isize - layout.size() as isize);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A small cache, so most of a large tree's pages are on disk only, as a retired span's are.
fn open(dir: &Path) -> sled::Db {
    common::open_when_unlocked(&sled::Config::new().path(dir).cache_capacity(1 << 20).flush_every_ms(None))
}

/// Reads until sled has handed every page freed so far back to its free list (that waits until
/// no reader can still see the page, and so does giving back what the page replaced).
fn settle(db: &sled::Db, probe: &sled::Tree) -> usize {
    let (mut last, mut same) = (usize::MAX, 0);
    for i in 0u32.. {
        probe.get(i.to_be_bytes()).unwrap();
        if i % 1_000 == 0 {
            let now = db.free_pages();
            same = if now == last { same + 1 } else { 0 };
            last = now;
            if same == 20 {
                return now;
            }
        }
    }
    unreachable!()
}

fn value(i: u32) -> Vec<u8> {
    let mut v = vec![(i % 251) as u8; 90];
    v[..4].copy_from_slice(&i.to_be_bytes());
    v
}

/// The tests take turns, so no other test's allocations fall between the counts.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_dropped_trees_freed_pages_hold_no_more_memory_than_they_did_and_are_reused() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    // The drop's reclaiming waits a bounded while for sled's epoch, which is the whole
    // process's: a thread pinned through the drop (for instance one of sled's I/O threads
    // waiting out one of this VM's disk stalls) leaves every batch to stack, as upstream's walk
    // did; CI's midnight run saw it once (321 bytes a page). So a drop over its bound is measured
    // again, on a new store, up to three times. Upstream's walk holds ~265 bytes a page every
    // time, and fails each.
    common::within_three_tries("a drop over its bound", |_| drop_a_span());
}

/// Writes a span and a few live records, drops the span from a reopened store and checks the
/// memory around the drop; `Err` for a bound that depends on the epoch's pace, a panic for
/// anything else.
fn drop_a_span() -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let mut want = BTreeMap::new();
    {
        let db = open(dir.path());
        let keep = db.open_tree("keep").unwrap();
        let span = db.open_tree("span").unwrap();
        // ~6,700 leaves: leaves written in order keep 13 records (change 11).
        for i in 0..87_000u32 {
            // Ids in time order, as a span's messages are; a few live records beside them.
            span.insert(i.to_be_bytes(), value(i)).unwrap();
            if i % 100 == 0 {
                keep.insert(i.to_be_bytes(), value(i)).unwrap();
                want.insert(i.to_be_bytes().to_vec(), value(i));
            }
        }
        db.flush().unwrap();
    }
    {
        // Reopened, nothing of the span is in memory but its page-table entries, as with a
        // span retired minutes after it was written.
        let db = open(dir.path());
        let keep = db.open_tree("keep").unwrap();
        let free_before = settle(&db, &keep);
        let live_before = LIVE.load(Relaxed);
        HIGH.store(live_before, Relaxed);

        assert!(db.drop_tree("span").unwrap());
        // What the drop held at once, and what it left behind for other threads to reclaim.
        let peak = HIGH.load(Relaxed) - live_before;
        let left = LIVE.load(Relaxed) - live_before;
        let back = db.free_pages() - free_before;
        let freed = settle(&db, &keep) - free_before;
        let grown = LIVE.load(Relaxed) - live_before;
        assert!(freed > 5_000, "the test means to free many pages: {freed}");
        let per_page = |bytes: isize| bytes as f64 / freed as f64;
        eprintln!(
            "a drop of {freed} pages: peak {:.0}, left {:.0}, kept {:.0} B a page; {back} ids back",
            per_page(peak),
            per_page(left),
            per_page(grown)
        );
        // Upstream: ~160 bytes more a page (the boxed `Update::Free`); now the new entry is
        // no larger than the one it replaced, and the free list holds an id (8 bytes, 16 while
        // the heap's buffer has just doubled).
        assert!(per_page(grown) <= 24.0, "{:.0} bytes stay per freed page ({freed} pages)", per_page(grown));
        // The drop reclaims as it goes (change 9). Upstream held the whole tree's garbage (the
        // old entries, the epoch's bags) until it returned and left it to other threads' pins:
        // ~265 bytes a page at the peak and at the return, and ids back on the free list only
        // as others collected (73 of 6,718 here). Now a batch of 1,024 pages at a time: ~41
        // bytes a page. A batch waits a bounded while for the epoch, so under CPU contention
        // (sled's IO thread descheduled while pinned) a few batches can stack: up to 119 with
        // two busy loops on two cores.
        if per_page(peak) > 160.0 {
            return Err(format!("{:.0} bytes a freed page at the drop's peak", per_page(peak)));
        }
        if per_page(left) > 24.0 {
            return Err(format!("{:.0} bytes a freed page left at the return", per_page(left)));
        }
        if back * 100 < freed * 95 {
            return Err(format!("{back} of {freed} ids back on the free list at the return"));
        }

        // New pages take the freed ids.
        let next = db.open_tree("next").unwrap();
        for i in 0..20_000u32 {
            next.insert(i.to_be_bytes(), value(i)).unwrap();
        }
        db.flush().unwrap();
        let free_after = db.free_pages();
        assert!(free_after < free_before + freed, "no freed id was reused: {free_after}");
        for i in (0..20_000u32).step_by(7) {
            assert_eq!(next.get(i.to_be_bytes()).unwrap().as_deref(), Some(value(i).as_slice()));
        }
    }
    // A reopen finds the ids still free (read back as free pages) and everything else as written.
    let db = open(dir.path());
    assert!(!db.tree_names().iter().any(|n| n.as_ref() == b"span"));
    let before = db.free_pages();
    assert!(before > 0, "the ids left free are free after a reopen");
    let keep = db.open_tree("keep").unwrap();
    assert_eq!(keep.len(), want.len());
    for (k, v) in &want {
        assert_eq!(keep.get(k).unwrap().as_deref(), Some(v.as_slice()));
    }
    assert_eq!(db.open_tree("next").unwrap().len(), 20_000);
    // And a reopened store hands them out again.
    let more = db.open_tree("more").unwrap();
    for i in 0..20_000u32 {
        more.insert(i.to_be_bytes(), value(i)).unwrap();
    }
    db.flush().unwrap();
    assert!(db.free_pages() < before, "ids free after a reopen are reused");
    assert_eq!(more.iter().count(), 20_000);
    Ok(())
}

/// Collects the epoch's garbage: what a page-out swapped away is freed only once no reader can
/// see it.
fn collect_garbage() {
    for _ in 0..1_000 {
        sled::pin().flush();
    }
}

/// A retired span is read once, then dropped (vendor/sled/PIGEON.md, 10): read cold, the pages
/// it reads from disk are paged out again at once, so the scan leaves nothing in memory (a
/// plain scan leaves a cache's worth of decoded pages, and more: 14 MB here for a 1 MiB cache).
/// It pulls each page no more often than a plain scan does: the index nodes above the leaves
/// stay cached, or it would pull a parent again for every leaf below it.
#[test]
fn a_cold_scan_reads_everything_and_leaves_no_pages_in_memory() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    {
        let db = open(dir.path());
        for name in ["cold", "plain"] {
            let t = db.open_tree(name).unwrap();
            for i in 0..60_000u32 {
                t.insert(i.to_be_bytes(), value(i)).unwrap();
            }
        }
        db.flush().unwrap();
    }
    let db = open(dir.path());
    let (mut grown, mut allocs) = (Vec::new(), Vec::new());
    for (name, cold) in [("cold", true), ("plain", false)] {
        let t = db.open_tree(name).unwrap();
        collect_garbage();
        let (before, allocs_before) = (LIVE.load(Relaxed), ALLOCS.load(Relaxed));
        let from = 17u32.to_be_bytes();
        let scan = if cold { t.range_cold(from..) } else { t.range(from..) };
        let mut n = 17u32;
        for kv in scan {
            let (k, v) = kv.unwrap();
            assert_eq!((k.as_ref(), v.as_ref()), (n.to_be_bytes().as_slice(), value(n).as_slice()));
            n += 1;
        }
        assert_eq!(n, 60_000, "{name}: every record from the start, in order");
        allocs.push(ALLOCS.load(Relaxed) - allocs_before);
        collect_garbage();
        grown.push(LIVE.load(Relaxed) - before);
    }
    eprintln!("heap grown by a scan: cold {} B, plain {} B", grown[0], grown[1]);
    eprintln!("allocations by a scan: cold {}, plain {}", allocs[0], allocs[1]);
    assert!(allocs[0] * 4 <= allocs[1] * 5, "the cold scan pulled more: {allocs:?} allocations");
    let [cold, plain] = grown[..] else { unreachable!() };
    // The plain scan fills the 1 MiB cache (decoded pages take more than their log size).
    assert!(plain > 1 << 20, "a plain scan keeps its pages cached: {plain} B");
    assert!(cold < 64 << 10, "a cold scan keeps {cold} B");
}
