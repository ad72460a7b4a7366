//! The engine's threads: their names, so tools tell them apart, and the work threads' lower
//! priority, so accepts come first on a busy node.

/// How much nicer the work threads are than the rest. Delivery can wait a few milliseconds; an
/// accept should not: on two cores, bursts of sim deliveries and webhook POSTs at equal priority
/// stretched accept latency at half load to p90 8.5 ms (hundreds of ms when they shared threads).
/// Four steps nicer (weight 423 against 1024), accepts come first under load and delivery keeps
/// its pace; ten steps starved delivery (4.0k against 9.5k accepted/s) and grew the backlog.
const WORK_NICE: i32 = 4;

/// Lowers the calling thread's priority by [`WORK_NICE`] (Linux keeps niceness per thread).
pub(super) fn background_priority() {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getpriority_process, setpriority_process};
        let me = Some(rustix::thread::gettid());
        let lowered = getpriority_process(me).and_then(|n| setpriority_process(me, (n + WORK_NICE).min(19)));
        if let Err(e) = lowered {
            tracing::warn!(error = %e, "cannot lower the work threads' priority");
        }
    }
}

/// Names the calling thread (at most 15 bytes: Linux truncates), so that `top -H`, `perf` and
/// `/proc/PID/task/*/comm` tell the tenant, work and retention threads apart; actix names them
/// all `actix-rt|system:…`, which the kernel cuts to one name.
pub fn name_thread(name: &std::ffi::CStr) {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::thread::set_name(name) {
        tracing::debug!(error = %e, "cannot name the thread");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = name;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::engine::{ArbiterHandle, Engine, EngineConfig};
    use pigeon_storage::Store;
    use rustix::process::getpriority_process;

    /// What `f` answers on the thread behind `h`.
    fn on<T: Send + 'static>(h: &ArbiterHandle, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        h.spawn_fn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(5)).expect("the arbiter answers")
    }

    /// The niceness and the id of the thread behind `h`.
    fn thread_of(h: &ArbiterHandle) -> (i32, i32) {
        on(h, || {
            let me = rustix::thread::gettid();
            (getpriority_process(Some(me)).expect("getpriority"), me.as_raw_nonzero().get())
        })
    }

    fn nice_of(h: &ArbiterHandle) -> i32 {
        thread_of(h).0
    }

    #[actix_rt::test]
    async fn work_threads_are_nicer_than_the_tenant_threads() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let config = EngineConfig { arbiters: 2, ..EngineConfig::default() };
        let engine = Engine::start(store, config).unwrap();
        let base = getpriority_process(None).unwrap();
        let work: Vec<i32> = engine.inner.shared.arbiters.0.iter().map(nice_of).collect();
        let front: Vec<i32> = engine.inner.front.0.iter().map(nice_of).collect();
        assert_eq!(work, vec![(base + WORK_NICE).min(19); 2]);
        assert_eq!(front, vec![base; 2]);
        // The sweeper is as nice as the work threads, on a thread no phone or webhook shares.
        let (nice, sweeper) = thread_of(&engine.inner.sweeper);
        assert_eq!(nice, (base + WORK_NICE).min(19));
        let others: Vec<i32> = engine
            .inner
            .shared
            .arbiters
            .0
            .iter()
            .chain(engine.inner.front.0.iter())
            .map(|h| thread_of(h).1)
            .collect();
        assert!(!others.contains(&sweeper), "{sweeper} in {others:?}");
        engine.shutdown().await.unwrap();
    }

    /// The name the kernel shows for the thread behind `h`.
    fn name_of(h: &ArbiterHandle) -> String {
        on(h, || rustix::thread::name().expect("prctl").into_string().unwrap())
    }

    #[actix_rt::test]
    async fn each_kind_of_thread_has_its_own_name() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::start(
            Store::open(dir.path()).unwrap(),
            EngineConfig { arbiters: 2, ..EngineConfig::default() },
        )
        .unwrap();
        let names = |hs: &[ArbiterHandle]| hs.iter().map(name_of).collect::<Vec<_>>();
        assert_eq!(names(&engine.inner.front.0), ["pigeon-tenants"; 2]);
        assert_eq!(names(&engine.inner.shared.arbiters.0), ["pigeon-work"; 2]);
        assert_eq!(name_of(&engine.inner.sweeper), "pigeon-sweeper");
        engine.shutdown().await.unwrap();
    }
}
