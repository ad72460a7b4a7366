//! The PostgreSQL engine's own behaviour, beyond what the store's tests check on both engines.
use super::*;

fn tree(pg: &Arc<Pg>) -> PgTree {
    pg.tree("meta").unwrap()
}

/// A global index: what exists there is cached (`fleet.rs`).
fn index(pg: &Arc<Pg>) -> PgTree {
    pg.tree("key_ids").unwrap()
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
    let pg = Pg::connect(&testing::database_url(), 2, 1 << 20, None, |_| {}).unwrap();
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
    let pg = Pg::connect(&testing::database_url(), 2, 1 << 20, None, |_| {}).unwrap();
    let t = index(&pg);
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
    drop(Pg::connect(&url, 1, 1 << 20, None, |_| {}).unwrap());
    // Applying again changes nothing.
    drop(Pg::connect(&url, 1, 1 << 20, None, |_| {}).unwrap());
    let pg = Pg::connect(&url, 1, 1 << 20, None, |_| {}).unwrap();
    let pool = pg.pool.clone();
    pg.run(async move {
        let c = pool.get().await.map_err(db_err)?;
        c.execute("INSERT INTO pigeon.schema_version (version) VALUES (99)", &[]).await.map_err(db_err)?;
        Ok(())
    })
    .unwrap();
    let e = Pg::connect(&url, 1, 1 << 20, None, |_| {}).err().expect("a newer schema is refused").to_string();
    assert!(e.contains("version 99, newer than this pigeon's"), "{e}");

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let e =
        Pg::connect(&format!("postgres://pigeon:s3cret@127.0.0.1:{port}/nowhere"), 1, 1 << 20, None, |_| {})
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
    let pg = Pg::connect(&testing::database_url(), 2, 1 << 20, None, |_| {}).unwrap();
    let t = index(&pg);
    t.write(b"k", Some(IVec::from(&b"1"[..])));
    pg.flush().unwrap();
    for c in pg.write_set().caches.iter_mut() {
        *c = Default::default();
    }
    assert_eq!(t.get(b"k").unwrap().as_deref(), Some(&b"1"[..]), "from the table");
    assert_eq!(t.get(b"absent").unwrap(), None);
    assert_eq!(pg.write_set().caches[t.id].get(b"k"), Some(Some(IVec::from(&b"1"[..]))), "now cached");
    // Absence is not: another node may write the key at any time.
    assert_eq!(pg.write_set().caches[t.id].get(b"absent"), None);
    t.write(b"k", Some(IVec::from(&b"2"[..])));
    t.write(b"absent", Some(IVec::from(&b"3"[..])));
    pg.flush().unwrap();
    assert_eq!(t.get(b"k").unwrap().as_deref(), Some(&b"2"[..]));
    assert_eq!(t.get(b"absent").unwrap().as_deref(), Some(&b"3"[..]), "a cached absence is replaced");
    t.write(b"k", None);
    pg.flush().unwrap();
    assert_eq!(t.get(b"k").unwrap(), None);
}

/// Two nodes on one database: a tenant's lease is one node's at a time, the other's commits for
/// it are fenced, and a released lease is taken at once, naming the node it came from.
#[test]
fn a_tenant_is_one_nodes_at_a_time_and_commits_are_fenced() {
    if !testing::available() {
        return;
    }
    let url = testing::database_url();
    let config = |port: u16| FleetConfig {
        advertise_url: format!("http://127.0.0.1:{port}"),
        lease: Duration::from_secs(30),
        version: "test".into(),
        home: None,
    };
    let a = Pg::connect(&url, 2, 1 << 20, Some(config(1)), |_| {}).unwrap();
    let b = Pg::connect(&url, 2, 1 << 20, Some(config(2)), |_| {}).unwrap();
    let tenant = ulid::Ulid::from_parts(1, 0xabc);
    assert_eq!(a.acquire(tenant).unwrap(), Acquired::Taken { previous: None });
    assert_eq!(a.acquire(tenant).unwrap(), Acquired::Held);
    let a_id = a.leases().unwrap().node_id().to_owned();
    assert_eq!(
        b.acquire(tenant).unwrap(),
        Acquired::Elsewhere { id: a_id.clone(), url: "http://127.0.0.1:1".into() }
    );
    assert_eq!(b.owner(tenant).unwrap(), Owner::Node { id: a_id.clone(), url: "http://127.0.0.1:1".into() });
    assert_eq!(a.owner(tenant).unwrap(), Owner::Me);
    let mut key = tenant.to_bytes().to_vec();
    key.extend_from_slice(b"record");
    // The owner commits; the other node's write for the tenant is refused whole.
    a.tree("tenants").unwrap().write(&key, Some(IVec::from(&b"a"[..])));
    a.flush().unwrap();
    b.tree("tenants").unwrap().write(&key, Some(IVec::from(&b"b"[..])));
    let e = b.flush().unwrap_err();
    assert!(e.contains("does not hold"), "{e}");
    let fresh = Pg::connect(&url, 1, 1 << 20, Some(config(3)), |_| {}).unwrap();
    assert_eq!(fresh.tree("tenants").unwrap().get(&key).unwrap().as_deref(), Some(&b"a"[..]));
    // The live nodes are listed, the owner with its tenant.
    let nodes = fresh.nodes().unwrap();
    assert!(nodes.iter().any(|n| n.id == a_id && n.tenants == 1), "{nodes:?}");
    assert_eq!(nodes.len(), 3, "{nodes:?}");
    // A graceful stop lets the lease go; the next node takes it at once, and a stale write of
    // the old owner is fenced.
    a.release(Vec::new()).unwrap();
    assert_eq!(fresh.acquire(tenant).unwrap(), Acquired::Taken { previous: Some(a_id.clone()) });
    assert!(matches!(b.owner(tenant).unwrap(), Owner::Node { url, .. } if url == "http://127.0.0.1:3"));
    assert!(!fresh.nodes().unwrap().iter().any(|n| n.id == a_id), "a stopped node is not listed");
    a.leases().unwrap().held.write().unwrap().insert(tenant.to_bytes(), 1);
    a.tree("tenants").unwrap().write(&key, Some(IVec::from(&b"stale"[..])));
    let e = a.flush().unwrap_err();
    assert!(e.contains("no longer this node's"), "{e}");
}

/// A lease left to expire is taken over by the next node that asks, on the database's clock.
#[test]
fn an_expired_lease_is_taken_over() {
    if !testing::available() {
        return;
    }
    let url = testing::database_url();
    let config = |lease_ms: u64| FleetConfig {
        advertise_url: "http://127.0.0.1:9".into(),
        lease: Duration::from_millis(lease_ms),
        version: "test".into(),
        home: None,
    };
    let lost = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = lost.clone();
    let a = Pg::connect(&url, 2, 1 << 20, Some(config(600)), move |_| {
        seen.store(true, std::sync::atomic::Ordering::SeqCst)
    })
    .unwrap();
    let tenant = ulid::Ulid::from_parts(2, 0xdef);
    assert_eq!(a.acquire(tenant).unwrap(), Acquired::Taken { previous: None });
    assert!(!a.leases().unwrap().holds(tenant), "not this node's to answer for until rebuilt");
    a.leases().unwrap().rebuilt(tenant);
    let b = Pg::connect(&url, 2, 1 << 20, Some(config(60_000)), |_| {}).unwrap();
    // Renewed every 200 ms, the lease stays a's well past its length.
    std::thread::sleep(Duration::from_millis(1_500));
    assert!(matches!(b.acquire(tenant).unwrap(), Acquired::Elsewhere { .. }));
    assert!(a.leases().unwrap().holds(tenant));
    // Renewals stop: the lease runs out, a no longer acts for the tenant, and b takes it.
    let _ = a.closing.send(true);
    std::thread::sleep(Duration::from_millis(1_000));
    assert!(!a.leases().unwrap().holds(tenant), "past its lease a node does not act for the tenant");
    let a_id = a.leases().unwrap().node_id().to_owned();
    assert_eq!(b.acquire(tenant).unwrap(), Acquired::Taken { previous: Some(a_id) });
    assert!(!lost.load(std::sync::atomic::Ordering::SeqCst));
}

/// A node started in the directory of a dead one takes its leases at once, without waiting for
/// them to expire; a node still running there keeps the next one out.
#[test]
fn a_node_restarted_in_its_directory_takes_its_leases_at_once() {
    if !testing::available() {
        return;
    }
    let url = testing::database_url();
    let dir = tempfile::tempdir().unwrap();
    let config = |home: bool| FleetConfig {
        advertise_url: "http://127.0.0.1:7".into(),
        lease: Duration::from_secs(60),
        version: "test".into(),
        home: home.then(|| dir.path().to_owned()),
    };
    let a = Pg::connect(&url, 1, 1 << 20, Some(config(true)), |_| {}).unwrap();
    let tenant = ulid::Ulid::from_parts(3, 0x123);
    assert_eq!(a.acquire(tenant).unwrap(), Acquired::Taken { previous: None });
    let a_id = a.leases().unwrap().node_id().to_owned();
    let other = Pg::connect(&url, 1, 1 << 20, Some(config(false)), |_| {}).unwrap();
    assert!(matches!(other.acquire(tenant).unwrap(), Acquired::Elsewhere { .. }));
    drop(a);
    let b = Pg::connect(&url, 1, 1 << 20, Some(config(true)), |_| {}).unwrap();
    assert_eq!(b.owner(tenant).unwrap(), Owner::Nobody, "the dead node's lease is free to its successor");
    assert_eq!(b.acquire(tenant).unwrap(), Acquired::Taken { previous: Some(a_id) });
    assert!(matches!(other.acquire(tenant).unwrap(), Acquired::Elsewhere { .. }));
    let e = Pg::connect(
        &url,
        1,
        1 << 20,
        Some(FleetConfig { lease: Duration::from_secs(1), ..config(true) }),
        |_| {},
    )
    .err()
    .expect("one node per directory")
    .to_string();
    assert!(e.contains("another pigeon node runs in"), "{e}");
}

/// Who needs an owner: a dead node's tenants, and of a node that stopped gracefully only those
/// it left owing work; with the work lists, also a tenant owing work that never had a lease.
#[test]
fn orphans_are_a_dead_nodes_tenants_and_those_left_owing_work() {
    if !testing::available() {
        return;
    }
    let url = testing::database_url();
    let config = || FleetConfig {
        advertise_url: "http://127.0.0.1:5".into(),
        lease: Duration::from_millis(1500),
        version: "test".into(),
        home: None,
    };
    let t = |n: u128| ulid::Ulid::from_parts(4, n);
    let (dead, stopped, survivor) = (
        Pg::connect(&url, 1, 1 << 20, Some(config()), |_| {}).unwrap(),
        Pg::connect(&url, 1, 1 << 20, Some(config()), |_| {}).unwrap(),
        Pg::connect(&url, 1, 1 << 20, Some(config()), |_| {}).unwrap(),
    );
    for (node, n) in [(&dead, 1), (&dead, 2), (&stopped, 3), (&stopped, 4)] {
        assert!(matches!(node.acquire(t(n)).unwrap(), Acquired::Taken { .. }));
    }
    // A tenant with a message owed on disk and no lease (a database from before the fleet).
    let mut pending = vec![9u8; 32];
    pending[16..].copy_from_slice(&t(5).to_bytes());
    let pool = survivor.pool.clone();
    survivor
        .run(async move {
            let c = pool.get().await.map_err(db_err)?;
            c.execute("INSERT INTO pigeon.pending (k, v) VALUES ($1, $2)", &[&pending, &&t(5).to_bytes()[..]])
                .await
                .map_err(db_err)
        })
        .unwrap();
    assert!(survivor.orphans(100, false).unwrap().is_empty(), "live leases are nobody's to take");
    stopped.release(vec![t(4).to_bytes().to_vec()]).unwrap();
    let _ = dead.closing.send(true);
    std::thread::sleep(Duration::from_millis(1_800));
    let mut found = survivor.orphans(100, false).unwrap();
    found.sort();
    assert_eq!(found, vec![t(1), t(2), t(4)]);
    let mut with_lists = survivor.orphans(100, true).unwrap();
    with_lists.sort();
    assert_eq!(with_lists, vec![t(1), t(2), t(4), t(5)]);
    assert!(matches!(survivor.acquire(t(4)).unwrap(), Acquired::Taken { .. }));
    assert!(!survivor.orphans(100, true).unwrap().contains(&t(4)), "taken, and no longer owing");
}

/// A node on its own (`--single-node`) is fenced by nothing, so it and a fleet's nodes keep each
/// other out of one database, whichever starts first.
#[test]
fn a_node_on_its_own_and_a_fleets_nodes_keep_each_other_out() {
    if !testing::available() {
        return;
    }
    let config = || FleetConfig {
        advertise_url: "http://127.0.0.1:4".into(),
        lease: Duration::from_secs(5),
        version: "test".into(),
        home: None,
    };
    let refused = |url: &str, fleet: Option<FleetConfig>| match Pg::connect(url, 1, 1 << 20, fleet, |_| {}) {
        Ok(_) => panic!("a node of the other kind was let in"),
        Err(e) => e.to_string(),
    };
    let alone_url = testing::database_url();
    let alone = Pg::connect(&alone_url, 1, 1 << 20, None, |_| {}).unwrap();
    assert!(alone.leases().is_none());
    let e = refused(&alone_url, Some(config()));
    assert!(e.contains("--single-node uses this database"), "{e}");
    let e = refused(&alone_url, None);
    assert!(e.contains("must be its only one"), "{e}");
    drop(alone);
    // Gone, it lets the next node in (its connection closed).
    drop(Pg::connect(&alone_url, 1, 1 << 20, Some(config()), |_| {}).unwrap());

    let fleet_url = testing::database_url();
    let member = Pg::connect(&fleet_url, 1, 1 << 20, Some(config()), |_| {}).unwrap();
    let _second = Pg::connect(&fleet_url, 1, 1 << 20, Some(config()), |_| {}).unwrap();
    let e = refused(&fleet_url, None);
    assert!(e.contains("must be its only one"), "{e}");
    assert!(member.leases().is_some());
}
