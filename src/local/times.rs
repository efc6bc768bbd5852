//! Discord's timestamp markup (`<t:1767571200:R>`) as the console shows it: a relative time
//! ("in 2 days") or a UTC date, since a terminal renders no markup.

use crate::duration::{format_duration, rounded};
use chrono::{DateTime, Utc};

/// `text` with every `<t:UNIX>` or `<t:UNIX:STYLE>` written out for a reader at `now`: style
/// `R` as a relative time, every other style as `2026-01-05 00:00 UTC`.
pub fn readable(text: &str, now: DateTime<Utc>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<t:") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 3..];
        match timestamp(after) {
            Some((at, style, used)) => {
                if style == "R" {
                    out.push_str(&relative(at, now));
                } else {
                    out.push_str(&at.format("%Y-%m-%d %H:%M UTC").to_string());
                }
                rest = &after[used..];
            }
            None => {
                out.push_str("<t:");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Reads `UNIX[:STYLE]>` at the start of `text`: the time, the style and the bytes used.
fn timestamp(text: &str) -> Option<(DateTime<Utc>, &str, usize)> {
    let end = text.find('>')?;
    let inner = &text[..end];
    let (unix, style) = inner.split_once(':').unwrap_or((inner, "f"));
    let valid_style = style.len() == 1 && "tTdDfFR".contains(style);
    let at = DateTime::from_timestamp(unix.parse().ok()?, 0)?;
    valid_style.then_some((at, style, end + 1))
}

/// "in 2 days 3 hours", "5 minutes ago", "now": the largest unit and the next, the next
/// rounded to the nearest, so a deadline 47 h 59 min away reads "in 2 days".
fn relative(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let left = rounded(at - now);
    match (left.is_zero(), at > now) {
        (true, _) => "now".to_string(),
        (false, true) => format!("in {}", format_duration(left)),
        (false, false) => format!("{} ago", format_duration(left)),
    }
}

#[cfg(test)]
mod tests {
    use super::readable;
    use chrono::{DateTime, Utc};

    fn at(unix: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(unix, 0).unwrap_or_default()
    }

    #[test]
    fn timestamps_become_dates_and_relative_times() {
        let now = at(1_767_225_600); // 2026-01-01 00:00 UTC
        assert_eq!(
            readable("Deadline: <t:1767398400:R> (<t:1767398400:f>).", now),
            "Deadline: in 2 days (2026-01-03 00:00 UTC)."
        );
        assert_eq!(readable("<t:1767319200:R>", now), "in 1 day 2 hours");
        assert_eq!(readable("<t:1767225540:R>", now), "1 minute ago");
        assert_eq!(readable("<t:1767225600:R>", now), "now");
        // 47 h 59 min 30 s away: the hours are rounded, so it reads as two days.
        assert_eq!(readable("<t:1767398370:R>", now), "in 2 days");
        assert_eq!(
            readable("<t:1767229170:R>", now),
            "in 59 minutes 30 seconds"
        );
    }

    #[test]
    fn anything_else_is_left_as_it_is() {
        let now = at(0);
        for text in [
            "<t:abc:R>",
            "<t:12:Q>",
            "<t:12",
            "a <b> c",
            "<t:",
            "<t:99999999999999999999:R>",
        ] {
            assert_eq!(readable(text, now), text);
        }
    }
}
