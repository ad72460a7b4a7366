//! The PostgreSQL engine's own behaviour, beyond what the store's tests check on both engines.
use super::*;

fn tree(pg: &Arc<Pg>) -> PgTree {
    pg.tree("meta").unwrap()
}

fn keys(it: PgIter) -> Vec<u32> {
    it.map(|kv| u32::from_be_bytes(kv.unwrap().0.as_ref().try_into().unwrap())).collect()
}

/// Ranges longer than a chunk, both ways, with the write set's inserts and deletes on both
/// sides of the chunks' edges, before and after a flush.
#[test]
fn ranges_merge_the_table_and_the_write_set_across_chunks() {
    if !testing::available() {
        return;
    }
    let pg = Pg::connect(&testing::database_url(), 2, 1 << 20).unwrap();
    let t = tree(&pg);
    for i in (0..1000u32).step_by(2) {
        t.write(&i.to_be_bytes(), Some(IVec::from(&b"v"[..])));
    }
    pg.flush().unwrap();
    assert!(pg.write_set().trees.iter().all(BTreeMap::is_empty), "a flush empties the set");
    // Not yet committed: odd keys in, multiples of 10 out.
    for i in (1..1000u32).step_by(2) {
        t.write(&i.to_be_bytes(), Some(IVec::from(&b"w"[..])));
    }
    for i in (0..1000u32).step_by(10) {
        t.write(&i.to_be_bytes(), None);
    }
    let want: Vec<u32> = (0..1000).filter(|i| i % 10 != 0).collect();
    let lo = 3u32.to_be_bytes().to_vec();
    let hi = 997u32.to_be_bytes().to_vec();
    let got = keys(t.range(Bound::Included(lo.clone()), Bound::Excluded(hi.clone())));
    let part: Vec<u32> = want.iter().copied().filter(|i| (3..997).contains(i)).collect();
    assert_eq!(got, part);
    let mut back = keys(t.range(Bound::Excluded(lo), Bound::Included(hi)).rev());
    back.reverse();
    assert_eq!(back, want.iter().copied().filter(|i| (4..=997).contains(i)).collect::<Vec<_>>());
    assert_eq!(keys(t.range(Bound::Unbounded, Bound::Unbounded)), want);
    pg.flush().unwrap();
    assert_eq!(keys(t.range(Bound::Unbounded, Bound::Unbounded)), want, "the same once committed");
    assert_eq!(t.get(&5u32.to_be_bytes()).unwrap().as_deref(), Some(&b"w"[..]));
    assert_eq!(t.get(&10u32.to_be_bytes()).unwrap(), None);
    // An empty or inverted range reads nothing.
    assert!(keys(t.range(Bound::Excluded(vec![1]), Bound::Excluded(vec![1]))).is_empty());
    assert!(keys(t.range(Bound::Included(vec![2]), Bound::Included(vec![1]))).is_empty());
}

/// A write made while its flush runs keeps its newer value in the set.
#[test]
fn a_key_written_again_during_a_flush_stays_for_the_next() {
    if !testing::available() {
        return;
    }
    let pg = Pg::connect(&testing::database_url(), 2, 1 << 20).unwrap();
    let t = tree(&pg);
    t.write(b"k", Some(IVec::from(&b"1"[..])));
    // What a flush does first: note the stamp it will remove up to.
    let upto = pg.write_set().seq;
    t.write(b"k", Some(IVec::from(&b"2"[..])));
    assert!(pg.write_set().trees[t.id][&b"k"[..]].seq > upto);
    pg.flush().unwrap();
    assert_eq!(t.get(b"k").unwrap().as_deref(), Some(&b"2"[..]));
}

#[test]
fn a_newer_schema_is_refused_and_an_unreachable_database_is_named_without_its_password() {
    if !testing::available() {
        return;
    }
    let url = testing::database_url();
    drop(Pg::connect(&url, 1, 1 << 20).unwrap());
    // Applying again changes nothing.
    drop(Pg::connect(&url, 1, 1 << 20).unwrap());
    let pg = Pg::connect(&url, 1, 1 << 20).unwrap();
    let pool = pg.pool.clone();
    pg.run(async move {
        let c = pool.get().await.map_err(db_err)?;
        c.execute("INSERT INTO pigeon.schema_version (version) VALUES (99)", &[]).await.map_err(db_err)?;
        Ok(())
    })
    .unwrap();
    let e = Pg::connect(&url, 1, 1 << 20).err().expect("a newer schema is refused").to_string();
    assert!(e.contains("version 99, newer than this pigeon's"), "{e}");

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let e = Pg::connect(&format!("postgres://pigeon:s3cret@127.0.0.1:{port}/nowhere"), 1, 1 << 20)
        .err()
        .expect("nothing listens there")
        .to_string();
    assert!(e.contains(&format!("postgres://pigeon@127.0.0.1:{port}/nowhere")), "{e}");
    assert!(!e.contains("s3cret"), "{e}");
}

/// What a read brings into the cache is replaced by the next write, before and after its flush.
#[test]
fn the_read_cache_follows_every_write() {
    if !testing::available() {
        return;
    }
    let pg = Pg::connect(&testing::database_url(), 2, 1 << 20).unwrap();
    let t = tree(&pg);
    t.write(b"k", Some(IVec::from(&b"1"[..])));
    pg.flush().unwrap();
    for c in pg.write_set().caches.iter_mut() {
        *c = Default::default();
    }
    assert_eq!(t.get(b"k").unwrap().as_deref(), Some(&b"1"[..]), "from the table");
    assert_eq!(t.get(b"absent").unwrap(), None);
    assert_eq!(pg.write_set().caches[t.id].get(b"k"), Some(Some(IVec::from(&b"1"[..]))), "now cached");
    t.write(b"k", Some(IVec::from(&b"2"[..])));
    t.write(b"absent", Some(IVec::from(&b"3"[..])));
    pg.flush().unwrap();
    assert_eq!(t.get(b"k").unwrap().as_deref(), Some(&b"2"[..]));
    assert_eq!(t.get(b"absent").unwrap().as_deref(), Some(&b"3"[..]), "a cached absence is replaced");
    t.write(b"k", None);
    pg.flush().unwrap();
    assert_eq!(t.get(b"k").unwrap(), None);
}
