//! How texts write a deadline: as Discord timestamps, which every reader sees in local time
//! (the console writes them out).

use chrono::{DateTime, Utc};

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
