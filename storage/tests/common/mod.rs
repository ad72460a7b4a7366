//! What the sled tests share.

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
