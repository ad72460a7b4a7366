//! A shorter scheduler slice for the threads every send waits on (issue 26).
//!
//! Linux's EEVDF scheduler (6.12 and later) lets a thread ask for a slice shorter than the default
//! (`sched_attr.sched_runtime`, 0.1–100 ms, no privilege needed); a woken thread with a shorter
//! slice than the one running preempts it instead of waiting for the running slice to end. The
//! committer sleeps on the disk several times a flush and every 202 waits for it to be woken.

/// Asks the kernel for a slice of `slice` for the calling thread, keeping its policy and its
/// niceness. On a kernel without custom slices the request is ignored and nothing changes.
pub(crate) fn short_slice(slice: std::time::Duration) {
    #[cfg(target_os = "linux")]
    {
        /// `struct sched_attr` (`include/uapi/linux/sched/types.h`, version 1: 56 bytes).
        #[repr(C)]
        #[derive(Default)]
        struct SchedAttr {
            size: u32,
            policy: u32,
            flags: u64,
            nice: i32,
            priority: u32,
            runtime: u64,
            deadline: u64,
            period: u64,
            util_min: u32,
            util_max: u32,
        }
        let me = rustix::thread::gettid();
        let nice = rustix::process::getpriority_process(Some(me)).unwrap_or(0);
        /// Keep the thread's policy (an operator's `chrt --batch`, say); only the slice changes.
        const SCHED_FLAG_KEEP_POLICY: u64 = 0x08;
        let attr = SchedAttr {
            size: std::mem::size_of::<SchedAttr>() as u32,
            flags: SCHED_FLAG_KEEP_POLICY,
            nice,
            runtime: slice.as_nanos().min(u128::from(u64::MAX)) as u64,
            ..SchedAttr::default()
        };
        // SAFETY: `attr` is a valid, fully initialised `sched_attr` of the size it states, and
        // lives across the call; pid 0 is the calling thread.
        #[allow(unsafe_code)]
        let r = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0) };
        if r != 0 {
            tracing::debug!(error = %std::io::Error::last_os_error(), "no shorter slice");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slice;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The slice the kernel keeps for task `task` of this process, in ns; `None` where the kernel
    /// does not say (no EEVDF, or no scheduler debug fields).
    fn slice_of(task: &str) -> Option<u64> {
        let sched = std::fs::read_to_string(format!("/proc/self/task/{task}/sched")).ok()?;
        let line = sched.lines().find(|l| l.trim_start().starts_with("se.slice"))?;
        line.split(':').nth(1)?.trim().parse().ok()
    }

    /// Whether this kernel grants custom slices (6.12 and later): asked on a thread of its own.
    fn custom_slices() -> bool {
        std::thread::spawn(|| {
            short_slice(std::time::Duration::from_micros(300));
            slice_of(&rustix::thread::gettid().as_raw_nonzero().to_string()) == Some(300_000)
        })
        .join()
        .unwrap()
    }

    #[test]
    fn the_committer_asks_for_the_short_slice_and_keeps_its_niceness() {
        if !custom_slices() {
            eprintln!("skipped: this kernel keeps no custom slice (Linux < 6.12)");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let store = crate::Store::open(dir.path()).unwrap();
        let committers: Vec<String> = std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|t| {
                std::fs::read_to_string(format!("/proc/self/task/{t}/comm"))
                    .is_ok_and(|c| c.trim() == "pigeon-commit")
            })
            .collect();
        assert!(!committers.is_empty(), "no pigeon-commit thread found");
        let want = crate::commit::COMMIT_SLICE.as_nanos() as u64;
        // Other tests' committers come and go, and a new one asks as its first step: wait a little
        // for each, and pass over those that end meanwhile.
        for t in &committers {
            let asked = (0..200).any(|_| {
                let gone = !std::path::Path::new(&format!("/proc/self/task/{t}")).exists();
                gone || slice_of(t) == Some(want) || {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    false
                }
            });
            assert!(asked, "committer {t} kept the slice {:?}", slice_of(t));
            if let Ok(nice) =
                rustix::process::getpriority_process(rustix::process::Pid::from_raw(t.parse().unwrap()))
            {
                assert_eq!(nice, rustix::process::getpriority_process(None).unwrap(), "committer {t}");
            }
        }
        drop(store);
    }
}
