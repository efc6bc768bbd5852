//! Durations and instants in the words players use: `36h`, `2d`, `1d12h`, `90m`, `45s`,
//! `2026-12-01 18:00 UTC`. Neutral ground: the games read their time options with it, the
//! table and the chat their deadlines, the settings their waits.

use chrono::{DateTime, Duration, NaiveDateTime, Utc};

/// Reads a duration like `48h`, `2d`, `1d12h`, `90m`, `30s` or `36 hours`: a sum of
/// number+unit parts, the unit a letter (`w d h m s`) or its word (`days`, `min`, ...).
/// Every game's time options read through this, so players learn one way to write time.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim().to_ascii_lowercase();
    let mut rest = text.as_str();
    let mut total = Duration::zero();
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let amount: i64 = rest[..digits].parse().ok()?;
        rest = rest[digits..].trim_start();
        let letters = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let part = match &rest[..letters] {
            "w" | "week" | "weeks" => Duration::try_weeks(amount)?,
            "d" | "day" | "days" => Duration::try_days(amount)?,
            "h" | "hour" | "hours" => Duration::try_hours(amount)?,
            "m" | "min" | "mins" | "minute" | "minutes" => Duration::try_minutes(amount)?,
            "s" | "sec" | "secs" | "second" | "seconds" => Duration::try_seconds(amount)?,
            _ => return None,
        };
        total = total.checked_add(&part)?;
        rest = rest[letters..].trim_start();
    }
    (total > Duration::zero()).then_some(total)
}

/// The longest time an option, a deadline or a clock move may name: a year (a game's rules
/// may set less, like TAG's 30 days). Longer values are mistakes (`10000w`), and past some
/// point they overflow the calendar.
pub fn a_year() -> Duration {
    Duration::days(365)
}

/// Why a time option was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeError {
    /// Not a duration in players' words.
    Unreadable,
    /// Longer than allowed: the longest is given.
    TooLong(Duration),
}

impl TimeError {
    /// The refusal of `value` given for option `key`, in one sentence.
    pub fn sentence(&self, key: &str, value: &str) -> String {
        let value: String = value.chars().filter(|c| !c.is_control()).take(60).collect();
        match self {
            TimeError::Unreadable => {
                format!("`{key}` takes a duration like 36h, 2d or 90m; got '{value}'")
            }
            TimeError::TooLong(longest) => format!(
                "`{key}` is at most {}; got '{value}'",
                format_duration(*longest)
            ),
        }
    }
}

/// Reads a duration like [`parse_duration`], refusing one longer than `longest`.
pub fn parse_duration_within(text: &str, longest: Duration) -> Result<Duration, TimeError> {
    match parse_duration(text) {
        None if looks_like_a_duration(text) => Err(TimeError::TooLong(longest)),
        None => Err(TimeError::Unreadable),
        Some(duration) if duration > longest => Err(TimeError::TooLong(longest)),
        Some(duration) => Ok(duration),
    }
}

/// Whether `text` is written as a duration whose number is too large to hold (`99999999999w`).
fn looks_like_a_duration(text: &str) -> bool {
    let text = text.trim();
    text.starts_with(|c: char| c.is_ascii_digit())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ')
        && text.ends_with(|c: char| c.is_ascii_alphabetic())
        && text.chars().filter(char::is_ascii_digit).count() > 12
}

/// Reads a UTC instant: `2026-12-01 18:00 UTC`, `2026-12-01 18:00`, `2026-12-01T18:00:00Z`.
pub fn parse_instant(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(instant) = DateTime::parse_from_rfc3339(text) {
        return Some(instant.with_timezone(&Utc));
    }
    let bare = text
        .strip_suffix("UTC")
        .or_else(|| text.strip_suffix("utc"))
        .or_else(|| text.strip_suffix('Z'))
        .unwrap_or(text)
        .trim();
    for format in ["%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(bare, format) {
            return Some(naive.and_utc());
        }
    }
    None
}

/// The units durations are written in, largest first.
const UNITS: [(&str, i64); 4] = [
    ("day", 86_400),
    ("hour", 3_600),
    ("minute", 60),
    ("second", 1),
];

/// Writes a duration for reading, the one way every text writes one: `2 days 4 hours`,
/// `36 minutes`, `1 day 30 seconds`, `0 seconds`.
pub fn format_duration(duration: Duration) -> String {
    let mut seconds = duration.num_seconds().max(0);
    let mut parts = Vec::new();
    for (unit, size) in UNITS {
        if seconds >= size {
            let n = seconds / size;
            parts.push(format!("{n} {unit}{}", if n == 1 { "" } else { "s" }));
            seconds %= size;
        }
    }
    if parts.is_empty() {
        "0 seconds".to_string()
    } else {
        parts.join(" ")
    }
}

/// A duration rounded to its largest unit and the next ("47 h 59 min 30 s" is two days),
/// for a time told in round figures: how long until a deadline, how late something was.
pub fn rounded(duration: Duration) -> Duration {
    let seconds = duration.num_seconds().abs();
    let Some(index) = UNITS.iter().position(|(_, size)| seconds >= *size) else {
        return Duration::zero();
    };
    let small = UNITS.get(index + 1).map_or(1, |(_, size)| *size);
    Duration::seconds((seconds + small / 2) / small * small)
}

/// Writes a duration the way it is typed in a command or an option (`2d4h`, `36h`, `90m`),
/// for a text that shows what to type: `vacation 5d`, `deadline=2d`.
pub fn duration_as_typed(duration: Duration) -> String {
    let mut seconds = duration.num_seconds().max(0);
    let mut typed = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
        if seconds >= size {
            typed.push_str(&format!("{}{unit}", seconds / size));
            seconds %= size;
        }
    }
    if typed.is_empty() {
        "0s".to_string()
    } else {
        typed
    }
}

/// Serde for chrono durations as whole seconds.
pub mod duration_serde {
    use chrono::Duration;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the duration as seconds.
    pub fn serialize<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(duration.num_seconds())
    }

    /// Reads seconds back into a duration.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        let seconds = i64::deserialize(deserializer)?;
        Duration::try_seconds(seconds)
            .ok_or_else(|| serde::de::Error::custom("duration out of range"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_player_words() {
        for (typed, read) in [
            ("48h", Duration::hours(48)),
            ("1d12h", Duration::hours(36)),
            (" 90M ", Duration::minutes(90)),
            ("36 hours", Duration::hours(36)),
            ("1 day 12h", Duration::hours(36)),
            ("5 minutes", Duration::minutes(5)),
        ] {
            assert_eq!(parse_duration(typed), Some(read), "{typed:?}");
        }
        let refused = [
            "tomorow",
            "12",
            "0h",
            "99999999999999999999d",
            "2026-12-01 18:00",
            "h",
            "",
        ];
        for typed in refused {
            assert_eq!(parse_duration(typed), None, "{typed:?}");
        }
        assert_eq!(format_duration(Duration::hours(52)), "2 days 4 hours");
        assert_eq!(format_duration(Duration::seconds(86_401)), "1 day 1 second");
        assert_eq!(format_duration(Duration::zero()), "0 seconds");
        assert_eq!(duration_as_typed(Duration::hours(52)), "2d4h");
        assert_eq!(parse_duration("2d4h"), Some(Duration::hours(52)));
        // 47 h 59 min 30 s: two days in round figures; 1 h 29 min 40 s: 1 h 30 min.
        assert_eq!(rounded(Duration::seconds(172_770)), Duration::days(2));
        assert_eq!(rounded(Duration::seconds(5_380)), Duration::minutes(90));
    }

    #[test]
    fn durations_past_a_limit_are_refused_as_too_long() {
        let week = Duration::weeks(1);
        assert_eq!(parse_duration_within("3d", week), Ok(Duration::days(3)));
        assert_eq!(
            parse_duration_within("8d", week),
            Err(TimeError::TooLong(week))
        );
        assert_eq!(
            parse_duration_within("100000000w", a_year()),
            Err(TimeError::TooLong(a_year()))
        );
        assert_eq!(
            parse_duration_within("99999999999999999999d", a_year()),
            Err(TimeError::TooLong(a_year()))
        );
        assert_eq!(
            parse_duration_within("soon", week),
            Err(TimeError::Unreadable)
        );
    }

    #[test]
    fn instants_in_utc() {
        let at = parse_instant("2026-12-01 18:00 UTC").unwrap();
        assert_eq!(at.to_rfc3339(), "2026-12-01T18:00:00+00:00");
        assert_eq!(parse_instant("2026-12-01T18:00:00Z"), Some(at));
        assert_eq!(parse_instant("next tuesday"), None);
    }
}
