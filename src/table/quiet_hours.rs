//! Quiet hours (`quiet=23:00-08:00 tz=Europe/Rome` at `!new`): no deadline falls in them and
//! no reminder goes out in them. A deadline that would fall in them moves to their end; a
//! reminder that would, moves before their start (or, when that has passed, to their end if
//! the deadline is still ahead). Times are read in the game's time zone, so the quiet hours
//! keep their local clock times across a daylight-saving change.

use crate::games::Refusal;
use crate::records::QuietHours;
use chrono::{DateTime, Days, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

/// Reads `quiet=HH:MM-HH:MM` with the time zone `tz` (an IANA name such as `Europe/Rome`).
pub fn parse(window: &str, tz: &str) -> Result<QuietHours, Refusal> {
    let zone = zone(tz)?;
    let refuse = || {
        Refusal::new(format!(
            "`quiet` takes two clock times, like quiet=23:00-08:00; got '{}'",
            crate::chat::parse::quote(window)
        ))
    };
    let (from, to) = window.split_once('-').ok_or_else(refuse)?;
    let minutes = |text: &str| -> Option<u32> {
        let time = NaiveTime::parse_from_str(text.trim(), "%H:%M").ok()?;
        Some(time.signed_duration_since(NaiveTime::MIN).num_minutes() as u32)
    };
    let (from, to) = (
        minutes(from).ok_or_else(refuse)?,
        minutes(to).ok_or_else(refuse)?,
    );
    if from == to {
        return Err(Refusal::new(
            "`quiet` hours must begin and end at different times, like quiet=23:00-08:00",
        ));
    }
    Ok(QuietHours {
        from,
        to,
        tz: zone.name().to_string(),
    })
}

/// Reads a time zone name, or says which names are meant.
pub fn zone(tz: &str) -> Result<Tz, Refusal> {
    tz.parse::<Tz>().map_err(|_| {
        Refusal::new(format!(
            "`tz` takes a time zone name like Europe/Rome, America/New_York or UTC; got '{}'",
            crate::chat::parse::quote(tz)
        ))
    })
}

/// The quiet hours in words: "23:00-08:00 Europe/Rome".
pub fn describe(quiet: &QuietHours) -> String {
    let clock = |minutes: u32| format!("{:02}:{:02}", minutes / 60, minutes % 60);
    format!("{}-{} {}", clock(quiet.from), clock(quiet.to), quiet.tz)
}

/// Where `at` falls: inside the quiet hours (with when they began and when they end), or not.
fn window_around(quiet: &QuietHours, at: DateTime<Utc>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let zone = zone(&quiet.tz).ok()?;
    let local = at.with_timezone(&zone).naive_local();
    let date = local.date();
    let minute = local
        .time()
        .signed_duration_since(NaiveTime::MIN)
        .num_minutes() as u32;
    let day = |offset: i64, minutes: u32| -> Option<DateTime<Utc>> {
        let date = if offset < 0 {
            date.checked_sub_days(Days::new(offset.unsigned_abs()))?
        } else {
            date.checked_add_days(Days::new(offset as u64))?
        };
        instant(&zone, date, minutes)
    };
    let (from, to) = (quiet.from, quiet.to);
    if from < to {
        // Within one day, like 01:00-07:00.
        (from..to)
            .contains(&minute)
            .then(|| Some((day(0, from)?, day(0, to)?)))
            .flatten()
    } else if minute >= from {
        // Over midnight, like 23:00-08:00, in the evening part.
        Some((day(0, from)?, day(1, to)?))
    } else if minute < to {
        // ...or in the morning part.
        Some((day(-1, from)?, day(0, to)?))
    } else {
        None
    }
}

/// The instant of a local clock time in `zone`: where the clock skips it (the hour lost when
/// summer time begins) the first instant after the gap; where it passes twice, the first.
fn instant(zone: &Tz, date: NaiveDate, minutes: u32) -> Option<DateTime<Utc>> {
    let time = NaiveTime::MIN + chrono::Duration::minutes(i64::from(minutes));
    let local = NaiveDateTime::new(date, time);
    for shift in 0..=3 {
        let tried = local + chrono::Duration::minutes(30 * shift);
        match zone.from_local_datetime(&tried) {
            LocalResult::Single(at) => return Some(at.with_timezone(&Utc)),
            LocalResult::Ambiguous(first, _) => return Some(first.with_timezone(&Utc)),
            LocalResult::None => {}
        }
    }
    None
}

/// The deadline `at`, moved to the end of the quiet hours if it falls in them.
pub fn deadline(quiet: Option<&QuietHours>, at: DateTime<Utc>) -> DateTime<Utc> {
    match quiet.and_then(|quiet| window_around(quiet, at)) {
        Some((_, end)) => end,
        None => at,
    }
}

/// The reminder time `at` for a deadline at `deadline`, moved out of the quiet hours: before
/// they begin if that is still after `now`, else to their end if the deadline is later; `None`
/// when neither is possible.
pub fn reminder(
    quiet: Option<&QuietHours>,
    at: DateTime<Utc>,
    deadline: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let Some((start, end)) = quiet.and_then(|quiet| window_around(quiet, at)) else {
        return Some(at);
    };
    let before = start - chrono::Duration::minutes(1);
    if before > now {
        Some(before)
    } else if end < deadline {
        Some(end)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn a_night_deadline_moves_to_the_morning_in_local_time_across_summer_time() {
        let quiet = parse("23:00-08:00", "Europe/Rome").unwrap();
        // Saturday 28 March 2026, 23:30 in Rome (CET, UTC+1): the night summer time begins.
        let night = utc("2026-03-28T22:30:00Z");
        // 08:00 on Sunday is already summer time (CEST, UTC+2): 06:00 UTC.
        assert_eq!(deadline(Some(&quiet), night), utc("2026-03-29T06:00:00Z"));
        // The night before, 08:00 is 07:00 UTC.
        assert_eq!(
            deadline(Some(&quiet), utc("2026-03-27T23:30:00Z")),
            utc("2026-03-28T07:00:00Z")
        );
        // Midday is not quiet.
        let noon = utc("2026-03-29T10:00:00Z");
        assert_eq!(deadline(Some(&quiet), noon), noon);
        assert_eq!(deadline(None, night), night);
    }

    #[test]
    fn a_reminder_in_the_quiet_hours_goes_before_them_or_after_them() {
        let quiet = parse("23:00-08:00", "UTC").unwrap();
        let at = utc("2026-01-05T02:00:00Z");
        let deadline = utc("2026-01-05T12:00:00Z");
        assert_eq!(
            reminder(Some(&quiet), at, deadline, utc("2026-01-04T10:00:00Z")),
            Some(utc("2026-01-04T22:59:00Z"))
        );
        assert_eq!(
            reminder(Some(&quiet), at, deadline, utc("2026-01-04T23:30:00Z")),
            Some(utc("2026-01-05T08:00:00Z"))
        );
        assert_eq!(
            reminder(
                Some(&quiet),
                at,
                utc("2026-01-05T08:00:00Z"),
                utc("2026-01-04T23:30:00Z")
            ),
            None
        );
    }

    #[test]
    fn bad_windows_and_zones_are_refused_in_words() {
        assert!(parse("23-08", "UTC")
            .unwrap_err()
            .0
            .contains("quiet=23:00-08:00"));
        assert!(parse("08:00-08:00", "UTC").is_err());
        assert!(parse("23:00-08:00", "Mars/Olympus")
            .unwrap_err()
            .0
            .contains("Europe/Rome"));
        assert_eq!(
            describe(&parse("23:00-08:00", "Europe/Rome").unwrap()),
            "23:00-08:00 Europe/Rome"
        );
    }
}
