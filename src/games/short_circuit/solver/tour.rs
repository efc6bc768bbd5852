//! The least closed tour through classes of the joining-cost question (see
//! [`super::layout`]): the loop passes each strand or partial path once, entering at one of
//! its two ends and leaving at the other, and each stop once; between classes it pays at least
//! the distance between the end it leaves and the end it enters. Over every order and
//! direction, the cheapest such tour is a lower bound on the loop's cost, and a much tighter
//! one than a spanning tree when the classes lie far apart. Exact dynamic programming over
//! subsets, so only for a few classes.

/// The most classes [`least_tour`] is asked about (its work grows as 2^classes).
pub(super) const MOST_CLASSES: usize = 9;

/// A cost larger than any tour, standing for "no path".
const NONE: u32 = u32::MAX / 4;

/// The classes `taken` (see [`least_tour`]) and as many of the `stops` as make
/// [`MOST_CLASSES`], those lying farthest from the classes already taken first; `None` when
/// `taken` alone are too many. A tour leaving a stop out is no dearer (a path through the stop
/// is also a path between its neighbours), so the least tour of the sample is still a lower
/// bound; a strand or partial path cannot be left out, as its ends are not joined by open
/// squares.
pub(super) fn sample(
    mut taken: Vec<[usize; 2]>,
    mut stops: Vec<usize>,
    cost: impl Fn(usize, usize) -> u32,
) -> Option<Vec<[usize; 2]>> {
    if taken.len() > MOST_CLASSES {
        return None;
    }
    let gap = |stop: usize, taken: &[[usize; 2]]| {
        taken
            .iter()
            .flatten()
            .map(|end| cost(*end, stop).min(cost(stop, *end)))
            .min()
            .unwrap_or(u32::MAX)
    };
    while taken.len() < MOST_CLASSES && !stops.is_empty() {
        let farthest = (0..stops.len())
            .max_by_key(|at| gap(stops[*at], &taken))
            .unwrap_or(0);
        let stop = stops.swap_remove(farthest);
        taken.push([stop, stop]);
    }
    Some(taken)
}

/// The least cost of a closed tour through every class, `ports[c]` being the two ends of
/// class `c` (the same twice for a stop), and `cost(a, b)` the cost of joining end `a` to end
/// `b` (`u32::MAX` when no path joins them). `None` if no tour exists.
pub(super) fn least_tour(ports: &[[usize; 2]], cost: impl Fn(usize, usize) -> u32) -> Option<u32> {
    let cost = |from: usize, to: usize| cost(from, to).min(NONE);
    let Some((start, others)) = ports.split_first() else {
        return Some(0);
    };
    if others.is_empty() {
        let closing = cost(start[1], start[0]);
        return (closing < NONE).then_some(closing);
    }
    // best[mask * width + last * 2 + out]: the cheapest path leaving `start` by its end 1,
    // passing the classes of `mask` and leaving class `last` by its end `out`;
    // join[(last * 2 + out) * width + next * 2 + enter]: the cost from that end of `last` to
    // end `enter` of `next` (read once here, as the loop below reads it 2^n times).
    let n = others.len();
    let width = 2 * n;
    let full = 1usize << n;
    let mut join = Vec::with_capacity(width * width);
    for from in others.iter().flatten() {
        for to in others.iter().flatten() {
            join.push(cost(*from, *to));
        }
    }
    let mut best = vec![NONE; full * width];
    for (next, ends) in others.iter().enumerate() {
        for enter in 0..2 {
            let slot = &mut best[(1 << next) * width + next * 2 + (1 - enter)];
            *slot = (*slot).min(cost(start[1], ends[enter]));
        }
    }
    for mask in 1..full {
        for from in 0..width {
            // Entries for classes outside `mask` were never reached and stay at NONE.
            let so_far = best[mask * width + from];
            if so_far >= NONE {
                continue;
            }
            let row = &join[from * width..(from + 1) * width];
            let mut free = (full - 1) & !mask;
            while free != 0 {
                let next = free.trailing_zeros() as usize;
                free &= free - 1;
                // Entering `next` by one end leaves it by the other.
                let target = (mask | 1 << next) * width + next * 2;
                best[target + 1] = best[target + 1].min(so_far + row[next * 2]);
                best[target] = best[target].min(so_far + row[next * 2 + 1]);
            }
        }
    }
    let mut least = NONE;
    for last in 0..n {
        for out in 0..2 {
            let so_far = best[(full - 1) * width + last * 2 + out];
            least = least.min(so_far + cost(others[last][out], start[0]));
        }
    }
    (least < NONE).then_some(least)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ends on a line at these positions; the cost of a join is the gap, both ends counted.
    fn line(at: &[u32]) -> impl Fn(usize, usize) -> u32 + '_ {
        |from, to| at[from].abs_diff(at[to]) + 1
    }

    #[test]
    fn a_tour_enters_each_class_at_one_end_and_leaves_at_the_other() {
        // Two strands with ends at 0, 1 and 10, 11: out from 1 to 10, back from 11 to 0.
        let at = [0, 1, 10, 11];
        assert_eq!(least_tour(&[[0, 1], [2, 3]], line(&at)), Some(10 + 12));
        // A stop at 5 between them costs nothing extra on the way out.
        let at = [0, 1, 10, 11, 5];
        assert_eq!(
            least_tour(&[[0, 1], [2, 3], [4, 4]], line(&at)),
            Some(5 + 6 + 12)
        );
    }

    #[test]
    fn a_tour_without_a_path_is_none() {
        let cost = |from: usize, to: usize| if from + to == 1 { 3 } else { u32::MAX };
        assert_eq!(least_tour(&[[0, 0], [1, 1]], cost), Some(6));
        assert_eq!(least_tour(&[[0, 0], [1, 1], [2, 2]], cost), None);
    }

    #[test]
    fn the_sample_keeps_every_strand_and_the_farthest_stops() {
        let at = [0, 1, 2, 3, 50, 4, 40, 6, 7, 8];
        let taken = sample(vec![[0, 1]], (2..10).collect(), line(&at)).unwrap();
        assert_eq!(taken.len(), MOST_CLASSES);
        assert_eq!(taken[..3], [[0, 1], [4, 4], [6, 6]]);
        assert!(sample(vec![[0, 1]; MOST_CLASSES + 1], vec![], line(&at)).is_none());
    }
}
