//! What the sled tests share.
// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

/// Runs `scenario` (given its try's number) up to three times and returns its first `Ok`; panics
/// with `what` and every try's miss otherwise. For a bound that depends on the pace of sled's
/// epoch or of the disk, which a loaded machine can hold up for one try, not for three.
pub fn within_three_tries<T, E: std::fmt::Debug>(
    what: &str,
    mut scenario: impl FnMut(usize) -> Result<T, E>,
) -> T {
    let mut misses = Vec::new();
    for attempt in 0..3 {
        match scenario(attempt) {
            Ok(done) => return done,
            Err(miss) => {
                eprintln!("try {attempt} missed: {miss:?}");
                misses.push(miss);
            }
        }
    }
    panic!("{what}, each try: {misses:?}");
}

/// Opens the store `config` names, waiting for its file lock: after a `drop`, sled's IO threads
/// can hold the closed store's file (and its lock) a moment longer, so a reopen at once may find
/// it taken.
pub fn open_when_unlocked(config: &sled::Config) -> sled::Db {
    for _ in 0..500 {
        match config.open() {
            Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock") => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            opened => return opened.unwrap(),
        }
    }
    panic!("the store stayed locked for 5 s after it was closed")
}
