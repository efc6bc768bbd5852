//! How texts write a deadline: as Discord timestamps, which every reader sees in local time
//! (the console writes them out), or, in a game with its own time zone, how far off as a
//! timestamp and the clock time in the game's zone, so the table reads one clock; and when
//! `!deadline` says one falls.

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;

/// When a deadline falls, as `!deadline` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlineSpec {
    /// This long from now.
    In(Duration),
    /// At this instant.
    At(DateTime<Utc>),
}

/// A deadline: how far off, then the date and time, in the game's zone `tz` when it has one,
/// else as Discord timestamps in each reader's own zone (the console writes them in UTC).
pub fn format_deadline(at: DateTime<Utc>, tz: Option<&str>) -> String {
    let unix = at.timestamp();
    match tz {
        Some(_) => format!("<t:{unix}:R> ({})", clock_time(at, tz)),
        None => format!("<t:{unix}:R> (<t:{unix}:f>)"),
    }
}

/// An instant that is not a deadline ("until ..."): the date and time first, then how far
/// off; the date in the game's zone `tz` when it has one, as [`format_deadline`].
pub fn format_instant(at: DateTime<Utc>, tz: Option<&str>) -> String {
    let unix = at.timestamp();
    match tz {
        Some(_) => format!("{} (<t:{unix}:R>)", clock_time(at, tz)),
        None => format!("<t:{unix}:f> (<t:{unix}:R>)"),
    }
}

/// A clock time written out where no platform markup can show it (a picture, a refusal):
/// in the game's time zone `tz` when it has one ("2026-01-03 01:00 CET"), else in UTC.
pub fn clock_time(at: DateTime<Utc>, tz: Option<&str>) -> String {
    in_zone(at, tz, "%Y-%m-%d %H:%M")
}

/// A sent time to the millisecond, for a refusal that judges an order by when it was sent:
/// in the game's zone `tz` when it has one ("2026-01-03 01:00:00.250 CET"), else in UTC.
pub fn precise_time(at: DateTime<Utc>, tz: Option<&str>) -> String {
    in_zone(at, tz, "%Y-%m-%d %H:%M:%S%.3f")
}

/// `at` written with `format`, then the zone's abbreviation: in `tz` when it names a zone,
/// else in UTC.
fn in_zone(at: DateTime<Utc>, tz: Option<&str>, format: &str) -> String {
    match tz.and_then(|name| name.parse::<Tz>().ok()) {
        Some(zone) => at
            .with_timezone(&zone)
            .format(&format!("{format} %Z"))
            .to_string(),
        None => format!("{} UTC", at.format(format)),
    }
}

#[cfg(test)]
mod tests {
    use super::clock_time;
    use chrono::DateTime;

    #[test]
    fn clock_times_are_written_in_the_games_zone() {
        // 2026-01-03 00:00 UTC, and 2026-07-03 00:00 UTC.
        let at = DateTime::from_timestamp(1_767_398_400, 0).unwrap_or_default();
        assert_eq!(clock_time(at, None), "2026-01-03 00:00 UTC");
        assert_eq!(clock_time(at, Some("Europe/Rome")), "2026-01-03 01:00 CET");
        let summer = DateTime::from_timestamp(1_783_036_800, 0).unwrap_or_default();
        assert_eq!(
            clock_time(summer, Some("Europe/Rome")),
            "2026-07-03 02:00 CEST"
        );
    }
}
