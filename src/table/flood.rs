//! How fast one account may command the bot: a token bucket per account, of `burst` commands
//! refilled at `burst` per `window`. Judged by when each message was sent (the platform's
//! time), not when the bot read it, so a catch-up after downtime decides as the live bot
//! would have, and a player whose messages were merely held up is never slowed for it. An
//! account over its limit gets one answer saying so, and at most one more per window however
//! long it keeps on; its commands are set aside (claimed but not applied) until its bucket has
//! room again.

use chrono::{DateTime, Duration, Utc};
use std::collections::HashMap;

/// What becomes of one command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Within the limit: applied.
    Taken,
    /// The first over the limit: set aside, and its sender told to slow down.
    Warned,
    /// Over the limit again within a window of the last warning: set aside without a word.
    Quiet,
}

/// One account's bucket.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: DateTime<Utc>,
    warned_at: Option<DateTime<Utc>>,
}

/// The buckets of every account that sent a command lately.
#[derive(Debug)]
pub struct Floodgate {
    burst: f64,
    window: Duration,
    buckets: HashMap<String, Bucket>,
}

impl Floodgate {
    /// At most `burst` commands at once per account, refilled at `burst` per `window`.
    pub fn new(burst: u32, window: Duration) -> Floodgate {
        Floodgate {
            burst: f64::from(burst.max(1)),
            window: window.max(Duration::milliseconds(1)),
            buckets: HashMap::new(),
        }
    }

    /// Decides a command `user` sent at `sent`.
    pub fn admit(&mut self, user: &str, sent: DateTime<Utc>) -> Admission {
        let burst = self.burst;
        let per_ms = burst / self.window.num_milliseconds() as f64;
        if self.buckets.len() > 10_000 {
            // Forget the accounts whose buckets are full again: they are as new.
            let window = self.window;
            self.buckets.retain(|_, bucket| sent - bucket.at < window);
        }
        let bucket = self.buckets.entry(user.to_string()).or_insert(Bucket {
            tokens: burst,
            at: sent,
            warned_at: None,
        });
        // Messages read out of order (a catch-up) refill nothing for going back in time.
        let elapsed = (sent - bucket.at).num_milliseconds().max(0) as f64;
        bucket.tokens = (bucket.tokens + elapsed * per_ms).min(burst);
        bucket.at = bucket.at.max(sent);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Admission::Taken
        } else if bucket
            .warned_at
            .is_some_and(|warned| sent - warned < self.window)
        {
            Admission::Quiet
        } else {
            bucket.warned_at = Some(sent);
            Admission::Warned
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + Duration::milliseconds(1_800_000_000_000 + ms)
    }

    #[test]
    fn a_burst_is_taken_then_one_warning_then_silence_until_it_refills() {
        let mut gate = Floodgate::new(10, Duration::seconds(20));
        let said: Vec<Admission> = (0..14).map(|n| gate.admit("ann", at(n * 10))).collect();
        assert!(
            said[..10].iter().all(|a| *a == Admission::Taken),
            "{said:?}"
        );
        assert_eq!(said[10], Admission::Warned);
        assert!(
            said[11..].iter().all(|a| *a == Admission::Quiet),
            "{said:?}"
        );
        // Another account has its own bucket.
        assert_eq!(gate.admit("bob", at(200)), Admission::Taken);
        // Two seconds refill one command; the next is set aside without a second warning.
        assert_eq!(gate.admit("ann", at(2_200)), Admission::Taken);
        assert_eq!(gate.admit("ann", at(2_210)), Admission::Quiet);
        // A window after the warning, one still flooding is told again, once.
        for n in 0..10 {
            gate.admit("ann", at(4_000 + n * 2_000));
        }
        let said: Vec<Admission> = (0..3).map(|n| gate.admit("ann", at(24_000 + n))).collect();
        assert_eq!(
            said.iter().filter(|a| **a == Admission::Warned).count(),
            1,
            "{said:?}"
        );
    }

    #[test]
    fn a_message_read_late_is_judged_when_it_was_sent() {
        let mut gate = Floodgate::new(2, Duration::seconds(20));
        // Sent a minute apart, read back together after downtime: all within the limit.
        let said: Vec<Admission> = (0..5).map(|n| gate.admit("ann", at(n * 60_000))).collect();
        assert!(said.iter().all(|a| *a == Admission::Taken), "{said:?}");
    }
}
