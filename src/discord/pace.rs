//! The bot's pace towards Discord across every channel. Discord counts a bot's requests
//! against one global limit (50 a second unless Discord raised it for the bot) besides each
//! channel's own; a bot that keeps going over it collects refusals, and too many refusals get
//! its address banned for a while. So the deliverers, which post to many channels side by
//! side, each take a turn here before a request: at most the configured number a second, in
//! bursts of at most a second's worth. Direct messages (receipts, prompts, reminders) are
//! urgent: while one waits, no channel post takes a turn, so a player's answer never queues
//! behind the boards of a busy server.

use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// A token bucket: `rate` turns a second, holding at most `rate` turns.
pub(super) struct Pace {
    rate: f64,
    state: Mutex<State>,
}

struct State {
    /// Turns available now (a fraction accrues between turns).
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Instant,
    /// Urgent requests waiting for a turn: channel posts wait while there are any.
    urgent_waiting: usize,
    /// No turn before this instant (Discord said the bot is over its global limit).
    paused_until: Option<Instant>,
}

/// The shortest wait of a request that found no turn free.
const POLL: Duration = Duration::from_millis(5);

impl Pace {
    /// A pace of `per_second` requests a second (at least one).
    pub(super) fn new(per_second: u32) -> Pace {
        let rate = f64::from(per_second.max(1));
        Pace {
            rate,
            state: Mutex::new(State {
                tokens: rate,
                at: Instant::now(),
                urgent_waiting: 0,
                paused_until: None,
            }),
        }
    }

    /// Waits for a turn to make one request; an `urgent` one goes before every waiting
    /// request that is not.
    pub(super) async fn turn(&self, urgent: bool) {
        let _waiting = urgent.then(|| Urgent::count(self));
        loop {
            let wait = match self.try_take(urgent) {
                None => return,
                Some(wait) => wait,
            };
            tokio::time::sleep(wait).await;
        }
    }

    /// Takes a turn if one is free (`None`), else says how long to wait before asking again.
    fn try_take(&self, urgent: bool) -> Option<Duration> {
        let mut state = self.lock();
        let now = Instant::now();
        if let Some(until) = state.paused_until {
            if until > now {
                return Some(until - now);
            }
            state.paused_until = None;
        }
        let elapsed = now.saturating_duration_since(state.at).as_secs_f64();
        state.tokens = (state.tokens + elapsed * self.rate).min(self.rate);
        state.at = now;
        // An urgent request counts itself among the waiting ones.
        let others_first = !urgent && state.urgent_waiting > 0;
        if state.tokens >= 1.0 && !others_first {
            state.tokens -= 1.0;
            return None;
        }
        let missing = (1.0 - state.tokens).max(0.0);
        Some(Duration::from_secs_f64(missing / self.rate).max(POLL))
    }

    /// Discord refused a request as over the bot's global limit: no turn for `wait`.
    pub(super) fn pause(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut state = self.lock();
        state.paused_until = Some(state.paused_until.map_or(until, |now| now.max(until)));
        state.tokens = 0.0;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Counts an urgent request as waiting while it lives.
struct Urgent<'a>(&'a Pace);

impl<'a> Urgent<'a> {
    fn count(pace: &'a Pace) -> Urgent<'a> {
        pace.lock().urgent_waiting += 1;
        Urgent(pace)
    }
}

impl Drop for Urgent<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.urgent_waiting = state.urgent_waiting.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holds_at_most_its_rate_of_turns() {
        let pace = Pace::new(10);
        for _ in 0..10 {
            assert_eq!(pace.try_take(false), None, "a second's worth at once");
        }
        // The eleventh waits for the next tenth of a second.
        let wait = pace.try_take(false).expect("the burst is spent");
        assert!(wait > Duration::from_millis(50), "{wait:?}");
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
    }

    #[test]
    fn a_waiting_direct_message_goes_before_channel_posts() {
        let pace = Pace::new(1);
        assert_eq!(pace.try_take(false), None);
        let urgent = Urgent::count(&pace);
        pace.lock().tokens = 1.0;
        assert!(pace.try_take(false).is_some(), "the channel post waits");
        assert_eq!(pace.try_take(true), None, "the direct message goes");
        drop(urgent);
        pace.lock().tokens = 1.0;
        assert_eq!(pace.try_take(false), None);
    }

    #[test]
    fn a_global_refusal_pauses_every_request() {
        let pace = Pace::new(100);
        pace.pause(Duration::from_secs(2));
        let wait = pace.try_take(true).expect("paused");
        assert!(wait > Duration::from_millis(1900), "{wait:?}");
    }
}
