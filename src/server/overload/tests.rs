//! The gate's tests: bursts, fairness between tenants, the queue target, slowloris bodies.
use super::*;

const MS: u64 = 1000;

/// Tenant `n`'s buckets, apart from every other test tenant's in both rows.
fn b(n: usize) -> Bucket {
    Bucket([n, BUCKETS + n])
}

/// A send's time in the path long enough that the bound while shedding stays the operator's.
const SLOW: u64 = 1000 * MS;

fn take(gate: &Gate, bucket: usize, n: usize, now: u64) {
    for _ in 0..n {
        assert!(gate.judge(b(bucket), now), "let in");
        gate.take(b(bucket));
    }
}

#[test]
fn a_burst_past_the_bound_is_taken_and_a_window_of_arrivals_to_a_full_bound_sheds() {
    let gate = Gate::new(4);
    take(&gate, 0, 16, 1);
    assert!(!gate.judge(b(0), 2), "four times the bound is the most a burst gets");
    (0..16).for_each(|_| gate.give_back(b(0), SLOW));
    // Most arrivals of that window found the bound full: the next window sheds, though the
    // burst has drained, so the bound itself applies.
    take(&gate, 0, 4, 100 * MS);
    assert!(gate.shedding_at(100 * MS));
    assert!(!gate.judge(b(0), 101 * MS), "shedding: the bound itself applies");
    // A window whose arrivals mostly found room ends it: another burst is taken whole.
    (0..4).for_each(|_| gate.give_back(b(0), SLOW));
    take(&gate, 0, 16, 200 * MS);
    assert!(!gate.shedding_at(200 * MS));
    (0..8).for_each(|_| assert!(!gate.judge(b(0), 250 * MS)));
    // A group commit answers everything at once; shedding goes on for the window all the same.
    (0..16).for_each(|_| gate.give_back(b(0), SLOW));
    take(&gate, 0, 4, 300 * MS);
    assert!(gate.shedding_at(300 * MS));
    assert!(!gate.judge(b(0), 320 * MS));
    // A silence ends it too: neither the gauge nor the gate keeps an old window's state.
    assert!(!gate.shedding_at(600 * MS));
    (0..4).for_each(|_| gate.give_back(b(0), SLOW));
    take(&gate, 0, 16, 600 * MS);
}

#[test]
fn past_the_bound_a_tenant_below_its_share_still_gets_in_but_the_flooder_does_not() {
    let gate = Gate::new(4);
    take(&gate, 7, 16, 1);
    (0..40).for_each(|_| assert!(!gate.judge(b(7), 50 * MS)));
    // Tenant 9 sent nearly as often in that window: the rate rule lets it in no more than the
    // flooder, so what follows is the holding rule's.
    (0..40).for_each(|_| {
        gate.judge(b(9), 50 * MS);
    });
    let shedding = 100 * MS;
    (0..12).for_each(|_| gate.give_back(b(7), SLOW));
    assert!(!gate.judge(b(7), shedding), "the flooder holds the whole bound");
    assert!(gate.shedding_at(shedding));
    assert!(gate.judge(b(9), shedding), "a quiet tenant gets in past it");
    for _ in 0..4 {
        assert!(gate.judge(b(9), shedding), "below the average holding");
        gate.take(b(9));
    }
    assert!(!gate.judge(b(9), shedding), "it holds as many as the flooder, the average");
    assert!(!gate.judge(b(7), shedding), "so does the flooder");
    assert!(gate.judge(b(11), shedding), "a third tenant holds none");
    // Sends let in at once, before any of them took its place, overshoot the bound.
    (0..14).for_each(|_| gate.take(b(7)));
    assert!(!gate.judge(b(11), shedding), "nothing gets past five times the bound");
    assert!(gate.refuses_unknown(shedding), "a key of no tenant has no share");
    assert_eq!(gate.active.load(Ordering::Relaxed), 2);
    (0..4).for_each(|_| gate.give_back(b(9), SLOW));
    assert_eq!(gate.active.load(Ordering::Relaxed), 1);
    (0..15).for_each(|_| gate.give_back(b(7), SLOW));
    assert!(gate.judge(b(7), shedding + 1), "room again once places are given back");
}

#[test]
fn a_quiet_tenant_sharing_one_of_the_flooders_buckets_still_gets_in() {
    let gate = shedding_gate(&[7]);
    let now = 100 * MS;
    take(&gate, 7, 8, now);
    assert!(!gate.judge(b(7), now), "the flooder holds the bound");
    let (first_row, second_row) = (Bucket([7, BUCKETS + 9]), Bucket([9, BUCKETS + 7]));
    assert_eq!(gate.holding(first_row), 0);
    assert!(gate.judge(first_row, now), "its other bucket holds nothing");
    assert!(gate.judge(second_row, now), "nor here");
    gate.take(first_row);
    gate.take(second_row);
    assert_eq!((gate.holding(first_row), gate.holding(second_row)), (1, 1));
    // Given back, the shared buckets count the flooder's places again, and nothing else.
    gate.give_back(first_row, SLOW);
    gate.give_back(second_row, SLOW);
    assert_eq!(gate.holding(b(7)), 8);
    assert_eq!(gate.active.load(Ordering::Relaxed), 1, "tenants counted in the first row");
}

/// A gate of 8 places that sheds from 100 ms on, at the operator's bound, with nothing held:
/// `flooders` sent 72 sends between them in the window before.
fn shedding_gate(flooders: &[usize]) -> Arc<Gate> {
    let gate = Gate::new(8);
    // A flood fills the burst allowance and most of the window's arrivals find it full: the
    // next window sheds, at the operator's bound (the sends answered were slow).
    for i in 0..32 {
        take(&gate, flooders[i % flooders.len()], 1, 1);
    }
    (0..40).for_each(|i| assert!(!gate.judge(b(flooders[i % flooders.len()]), 50 * MS)));
    (0..32).for_each(|i| gate.give_back(b(flooders[i % flooders.len()]), SLOW));
    gate
}

/// `n` sends of `bucket` let in at `now` and answered at once.
fn let_through(gate: &Gate, bucket: usize, n: usize, now: u64) {
    for _ in 0..n {
        assert!(gate.judge(b(bucket), now), "room");
        gate.take(b(bucket));
        gate.give_back(b(bucket), SLOW);
    }
}

#[test]
fn past_the_bound_a_tenant_sending_far_less_often_gets_in_though_it_holds_more() {
    let gate = shedding_gate(&[7]);
    let now = 100 * MS;
    let_through(&gate, 7, 30, now);
    assert!(gate.shedding_at(now));
    // The quiet tenant's sends are slow for a moment: it holds 5 places, the flooder 3.
    take(&gate, 9, 5, now);
    take(&gate, 7, 3, now);
    assert!(gate.holding(b(9)) * 2 >= gate.pending(), "above the average");
    assert!(gate.judge(b(9), now), "6 sends against the flooder's 33: it gets in");
    gate.take(b(9));
    assert!(gate.judge(b(9), now), "and again");
    // Sending as often as the flooder and holding more, it is refused.
    for _ in 0..80 {
        gate.arrive(now);
        gate.count_arrival(b(9));
    }
    assert!(!gate.judge(b(9), now));
}

#[test]
fn early_in_a_window_a_quiet_tenants_burst_is_judged_against_the_flood_of_the_window_before() {
    let gate = shedding_gate(&[7]);
    let now = 100 * MS;
    // The flooder's clients wait for their refusals: this window it has sent 4 so far, and
    // a quiet tenant's burst of 4 (its sends slow for a moment) holds half the bound.
    take(&gate, 7, 4, now);
    take(&gate, 9, 4, now);
    assert!(gate.judge(b(9), now), "5 against the flood's 76 over two windows");
    assert!(!gate.judge(b(7), now), "the flooder is refused");
}

#[test]
fn a_flood_of_bad_keys_does_not_let_a_heavy_sender_past_the_bound() {
    let gate = shedding_gate(&[7]);
    let now = 100 * MS;
    let_through(&gate, 7, 30, now);
    (0..200).for_each(|_| {
        gate.refuses_unknown(now);
    });
    take(&gate, 7, 8, now);
    assert!(gate.refuses_unknown(now), "the bound is full");
    assert!(!gate.judge(b(7), now), "the only real sender is the average one");
    assert!(gate.judge(b(9), now), "a tenant sending less often still gets in");
}

#[test]
fn tenants_that_flood_alike_get_nothing_past_the_bound_by_how_often_they_send() {
    let gate = shedding_gate(&[7, 11]);
    let now = 100 * MS;
    let_through(&gate, 7, 15, now);
    let_through(&gate, 11, 15, now);
    take(&gate, 7, 4, now);
    take(&gate, 11, 4, now);
    assert!(gate.shedding_at(now));
    assert!(!gate.judge(b(7), now) && !gate.judge(b(11), now));
    assert!(gate.judge(b(13), now), "a tenant holding none still gets in");
}

#[test]
fn while_shedding_the_bound_is_what_the_node_answers_in_the_target_time() {
    let gate = Gate::new(128);
    let answered = |n: u32, quickest: u64| {
        gate.done.store(n, Ordering::Relaxed);
        gate.quickest.store(quickest, Ordering::Relaxed);
    };
    // A flood: most arrivals of a window find the 128 places taken.
    take(&gate, 0, 128, 1);
    (0..300).for_each(|_| _ = gate.judge(b(0), 50 * MS));
    // Meanwhile 300 sends were answered, the quickest in 2 ms: 3,000 a second, so 15 ms past
    // the quickest is (15 + 2) ms × 3,000/s = 51 places.
    answered(300, 2 * MS);
    assert!(gate.judge(b(1), 100 * MS), "a quiet tenant still gets in");
    assert!(gate.shedding_at(100 * MS));
    assert_eq!(gate.bound(), 51);
    assert!(!gate.judge(b(0), 150 * MS), "the flooder holds more than 51");
    // A slow disk: the quickest send took 80 ms. Fewer places would not make it quicker, so
    // the bound keeps the sends the node answers in 95 ms.
    answered(100, 80 * MS);
    assert!(!gate.judge(b(0), 200 * MS));
    assert_eq!(gate.bound(), 95);
    // A window in which nothing was answered (a stall) keeps the bound.
    assert!(!gate.judge(b(0), 300 * MS));
    assert_eq!(gate.bound(), 95);
    // A very slow node gets an eighth of the operator's bound, never less.
    answered(10, 0);
    assert!(!gate.judge(b(0), 400 * MS));
    assert_eq!(gate.bound(), 16);
    // Once the sends are answered and a window finds room, the operator's bound is back.
    (0..128).for_each(|_| gate.give_back(b(0), SLOW));
    assert!(gate.judge(b(0), 500 * MS));
    assert!(gate.judge(b(0), 600 * MS));
    assert!(!gate.shedding_at(600 * MS));
    assert_eq!(gate.bound(), 128);
}

#[actix_web::test]
async fn a_refusal_waits_for_the_tasks_ready_before_it_and_no_longer() {
    let order = Rc::new(RefCell::new(Vec::new()));
    let (a, b) = (order.clone(), order.clone());
    let started = Instant::now();
    let refusal = actix_web::rt::spawn(async move {
        behind_the_others().await;
        a.borrow_mut().push("refusal");
    });
    let other = actix_web::rt::spawn(async move {
        for i in 0..3 {
            b.borrow_mut().push(["other 1", "other 2", "other 3"][i]);
            tokio::task::yield_now().await;
        }
    });
    refusal.await.unwrap();
    other.await.unwrap();
    // Ready at once beside it, the other task had its turn first; a worker with nothing else
    // to do let the refusal go at once, not after `LAST_AT_MOST`.
    assert_eq!(order.borrow()[0], "other 1");
    assert!(order.borrow().contains(&"refusal"));
    assert!(started.elapsed() < LAST_AT_MOST / 4, "{:?}", started.elapsed());
    // The releaser sleeps with nobody waiting and wakes for the next refusal.
    assert!(LINE.with_borrow(|line| matches!(line.releaser, ReleaserState::Parked(_))));
    let started = Instant::now();
    behind_the_others().await;
    assert!(started.elapsed() < LAST_AT_MOST / 4);
}
