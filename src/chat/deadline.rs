//! How texts write a deadline: as Discord timestamps, which every reader sees in local time,
//! and in UTC for readers without them.

use chrono::{DateTime, Utc};

/// A deadline as Discord timestamps (every reader sees local time) plus UTC for the console.
pub fn format_deadline(at: DateTime<Utc>) -> String {
    let unix = at.timestamp();
    format!(
        "<t:{unix}:R> (<t:{unix}:f>, {})",
        at.format("%Y-%m-%d %H:%M UTC")
    )
}
