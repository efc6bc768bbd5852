//! The `hard` computer player's search, one for every game that searches (50-Tile Circuit's
//! plays its tiles instead: `circuit/traps.rs`): Monte Carlo rollouts from what the
//! seat may see. The game names a few candidates (the moves its `normal` player rates best)
//! and a rollout: the candidate played on a copy of the game as the seat may imagine it (what
//! it cannot see drawn anew from the search's own randomness: the face-down tiles' order, the
//! dice to come, the others' orders), then the game played on by `normal` players to its end
//! or to a horizon, scored for the seat between 0 (lost) and 1 (won alone). The candidates are
//! played in rounds on the same imagined games until the budget of time or rollouts is spent;
//! the candidate that scored best on average is sent (the first among equals: the game lists
//! its candidates best first, as its `normal` player rates them).
//!
//! How long it may think is said by whoever asks ([`TimeUp`]): the search reads no clock, as
//! no game does.

use super::Seat;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::fmt;
use std::sync::Arc;

/// How long a `hard` player may think about one decision: it stops when its time is up or its
/// rollouts are spent, whichever comes first.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The most rollouts it may play (a test or a benchmark sets it, so the same randomness
    /// gives the same decision on any machine; the table's `computer_rollouts`).
    pub rollouts: u32,
    /// Whether its time is up (the table's `computer_think`, 2 s by default).
    pub time_up: TimeUp,
}

impl Budget {
    /// A budget of rollouts alone.
    pub const fn of_rollouts(rollouts: u32) -> Budget {
        Budget {
            rollouts,
            time_up: TimeUp::never(),
        }
    }
}

/// Whether the time a decision may take is up, as whoever asked for the decision tells it (the
/// table, from its own clock), so a game reads no clock.
#[derive(Clone)]
pub struct TimeUp(Option<Arc<dyn Fn() -> bool + Send + Sync>>);

impl TimeUp {
    /// Time is never up: the rollouts alone bound the search.
    pub const fn never() -> TimeUp {
        TimeUp(None)
    }

    /// Time is up when `asked` says so.
    pub fn when(asked: impl Fn() -> bool + Send + Sync + 'static) -> TimeUp {
        TimeUp(Some(Arc::new(asked)))
    }

    /// Whether it is up now.
    pub fn is_up(&self) -> bool {
        self.0.as_ref().is_some_and(|asked| asked())
    }
}

impl fmt::Debug for TimeUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(_) => f.write_str("TimeUp(asked)"),
            None => f.write_str("TimeUp(never)"),
        }
    }
}

/// The candidate among `candidates` (none: `None`; one: it, at once) whose rollouts scored best
/// on average within `budget`. `rollout(candidate, rng)` plays one and scores it between 0 and
/// 1, drawing everything it imagines from `rng`. The candidates are played in rounds, every
/// candidate of a round on the same imagined game (the same deck order, the same dice to
/// come, as far as their games go alike): a difference between two candidates is then theirs,
/// not luck's, and far fewer rollouts tell them apart.
pub fn best_of<T: Clone>(
    candidates: &[T],
    budget: Budget,
    rng: &mut dyn RngCore,
    mut rollout: impl FnMut(&T, &mut dyn RngCore) -> f64,
) -> Option<T> {
    if candidates.len() < 2 {
        return candidates.first().cloned();
    }
    let mut tried = vec![0u32; candidates.len()];
    let mut scored = vec![0.0f64; candidates.len()];
    let mut total = 0u32;
    'rounds: loop {
        let mut world = [0u8; 32];
        rng.fill_bytes(&mut world);
        for (i, candidate) in candidates.iter().enumerate() {
            if total >= budget.rollouts || budget.time_up.is_up() {
                break 'rounds;
            }
            let mut imagined = ChaCha8Rng::from_seed(world);
            scored[i] += rollout(candidate, &mut imagined).clamp(0.0, 1.0);
            tried[i] += 1;
            total += 1;
        }
    }
    let mean = |i: usize| scored[i] / f64::from(tried[i].max(1));
    let chosen = (0..candidates.len())
        .filter(|i| tried[*i] > 0)
        .max_by(|a, b| mean(*a).total_cmp(&mean(*b)).then(b.cmp(a)))
        .unwrap_or_default();
    candidates.get(chosen).cloned()
}

/// `seat`'s share of the win in a game over with `ranking` (places best first, seats sharing a
/// place in one group): 1 alone first, 1/n among n sharing first place, else 0.
pub fn win_share(ranking: &[Vec<Seat>], seat: Seat) -> f64 {
    match ranking.first() {
        Some(first) if first.contains(&seat) => 1.0 / first.len() as f64,
        _ => 0.0,
    }
}

/// How `seat` stands at a rollout's horizon, between 0 and 1, from every seat's `standing`
/// (higher is better; `None`: out of the game): the share of the others in the game it is
/// ahead of, a tie counting half.
pub fn standing_share(standing: &[Option<f64>], seat: Seat) -> f64 {
    let Some(Some(mine)) = standing.get(seat).copied() else {
        return 0.0;
    };
    let others: Vec<f64> = standing
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != seat)
        .filter_map(|(_, theirs)| *theirs)
        .collect();
    if others.is_empty() {
        return 1.0;
    }
    let ahead: f64 = others
        .iter()
        .map(|theirs| match mine.total_cmp(theirs) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    ahead / others.len() as f64
}

/// A rollout's score for a seat `by` ahead of the others by its game's own measure (behind:
/// below zero), where `scale` ahead scores about three quarters: from 0 (far behind) through
/// one half (even) to 1 (far ahead).
pub fn ahead(by: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-by / scale).exp())
}

/// A random stream of the search's own, seeded from `rng`: what one rollout imagines (dice
/// for the game's engine among them).
pub fn dice_from(rng: &mut dyn RngCore) -> crate::dice::Dice {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    crate::dice::Dice::new(crate::dice::Seed(seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn the_search_sends_the_candidate_that_wins_most_often() {
        // Three coins, biased 30%, 50% and 70%: 600 rollouts find the 70% one.
        let odds = [0.3, 0.5, 0.7];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let chosen = best_of(
            &[0usize, 1, 2],
            Budget::of_rollouts(2_000),
            &mut rng,
            |i, rng| {
                let draw = f64::from(rng.next_u32()) / f64::from(u32::MAX);
                f64::from(u8::from(draw < odds[*i]))
            },
        );
        assert_eq!(chosen, Some(2));
    }

    #[test]
    fn the_search_stops_when_its_time_is_up() {
        // Time is up at the eleventh time it is asked: ten rollouts are played, of a thousand
        // allowed.
        let asked = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let counted = asked.clone();
        let budget = Budget {
            rollouts: 1_000,
            time_up: TimeUp::when(move || {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= 10
            }),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut played = 0;
        best_of(&[0, 1], budget, &mut rng, |_, _| {
            played += 1;
            0.5
        });
        assert_eq!(played, 10);
    }

    #[test]
    fn every_candidate_of_a_round_plays_the_same_imagined_game() {
        // A candidate's rollout reads its imagined game from the stream it is given: within a
        // round, every candidate reads the same.
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut seen: Vec<(usize, u32)> = Vec::new();
        best_of(
            &[0usize, 1, 2],
            Budget::of_rollouts(6),
            &mut rng,
            |i, imagined| {
                seen.push((*i, imagined.next_u32()));
                0.5
            },
        );
        assert_eq!(seen.len(), 6);
        assert!(
            seen[..3].iter().all(|(_, drawn)| *drawn == seen[0].1),
            "{seen:?}"
        );
        assert!(
            seen[3..].iter().all(|(_, drawn)| *drawn == seen[3].1),
            "{seen:?}"
        );
        assert_ne!(seen[0].1, seen[3].1);
    }

    #[test]
    fn among_equals_the_first_candidate_is_sent() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let chosen = best_of(
            &["first", "second"],
            Budget::of_rollouts(10),
            &mut rng,
            |_, _| 0.5,
        );
        assert_eq!(chosen, Some("first"));
    }

    #[test]
    fn a_lone_candidate_is_sent_without_a_rollout() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let chosen = best_of(&["bid 3"], Budget::of_rollouts(100), &mut rng, |_, _| {
            unreachable!("a lone candidate needs no rollout")
        });
        assert_eq!(chosen, Some("bid 3"));
    }

    #[test]
    fn shares_count_the_others_a_seat_is_ahead_of() {
        assert_eq!(win_share(&[vec![1], vec![0, 2]], 1), 1.0);
        assert_eq!(win_share(&[vec![0, 2], vec![1]], 2), 0.5);
        assert_eq!(win_share(&[vec![0, 2], vec![1]], 1), 0.0);
        let standing = [Some(10.0), Some(4.0), None, Some(10.0)];
        assert_eq!(standing_share(&standing, 0), 0.75);
        assert_eq!(standing_share(&standing, 1), 0.0);
        assert_eq!(standing_share(&standing, 2), 0.0);
        assert_eq!(ahead(0.0, 10.0), 0.5);
        assert!((ahead(10.0, 10.0) - 0.731).abs() < 0.001);
        assert!(ahead(-100.0, 10.0) < 0.001);
    }
}
