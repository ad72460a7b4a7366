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

/// Reading a thread's slice back, for the tests of the threads that ask for one.
#[cfg(all(test, target_os = "linux"))]
pub(crate) mod testing {
    use super::short_slice;

    /// The slice the kernel keeps for task `task` of this process, in ns; `None` where the kernel
    /// does not say (no EEVDF, or no scheduler debug fields).
    pub(crate) fn slice_of(task: &str) -> Option<u64> {
        let sched = std::fs::read_to_string(format!("/proc/self/task/{task}/sched")).ok()?;
        let line = sched.lines().find(|l| l.trim_start().starts_with("se.slice"))?;
        line.split(':').nth(1)?.trim().parse().ok()
    }

    /// The calling thread's id, as `/proc/self/task` names it.
    pub(crate) fn me() -> String {
        rustix::thread::gettid().as_raw_nonzero().to_string()
    }

    /// Whether this kernel grants custom slices (6.12 and later): asked on a thread of its own.
    pub(crate) fn custom_slices() -> bool {
        std::thread::spawn(|| {
            short_slice(std::time::Duration::from_micros(300));
            slice_of(&me()) == Some(300_000)
        })
        .join()
        .unwrap()
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::testing::*;
    use super::*;
    use rustix::process::{getpriority_process, setpriority_process};

    #[test]
    fn a_thread_gets_the_slice_it_asks_for_and_keeps_its_niceness() {
        if !custom_slices() {
            eprintln!("skipped: this kernel keeps no custom slice (Linux < 6.12)");
            return;
        }
        std::thread::spawn(|| {
            let me_id = Some(rustix::thread::gettid());
            let nicer = (getpriority_process(me_id).unwrap() + 3).min(19);
            setpriority_process(me_id, nicer).unwrap();
            let before = slice_of(&me());
            short_slice(std::time::Duration::from_micros(150));
            assert_ne!(before, Some(150_000));
            assert_eq!(slice_of(&me()), Some(150_000));
            assert_eq!(getpriority_process(me_id).unwrap(), nicer, "the niceness was reset");
        })
        .join()
        .unwrap();
    }
}
