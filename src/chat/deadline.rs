//! How texts write a deadline: as Discord timestamps, which every reader sees in local time
//! (the console writes them out).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// A deadline as Discord timestamps: how far off, and the date and time, each in the
/// reader's own time zone (the console writes them out in words and UTC).
pub fn format_deadline(at: DateTime<Utc>) -> String {
    let unix = at.timestamp();
    format!("<t:{unix}:R> (<t:{unix}:f>)")
}

/// An instant that is not a deadline ("until ..."): the date and time first, then how far
/// off, each in the reader's own time zone (the console writes them out).
pub fn format_instant(at: DateTime<Utc>) -> String {
    let unix = at.timestamp();
    format!("<t:{unix}:f> (<t:{unix}:R>)")
}

/// A clock time written out where no platform markup can show it (a picture, a refusal):
/// in the game's time zone `tz` when it has one ("2026-01-03 01:00 CET"), else in UTC.
pub fn clock_time(at: DateTime<Utc>, tz: Option<&str>) -> String {
    match tz.and_then(|name| name.parse::<Tz>().ok()) {
        Some(zone) => at
            .with_timezone(&zone)
            .format("%Y-%m-%d %H:%M %Z")
            .to_string(),
        None => at.format("%Y-%m-%d %H:%M UTC").to_string(),
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
