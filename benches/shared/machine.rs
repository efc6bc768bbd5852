//! What a benchmark reports about the machine it ran on, so a figure can be read beside the
//! load it was measured under.

/// The load average over 1, 5 and 15 minutes, as /proc/loadavg gives it ("unknown" where
/// there is none).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_string())
}
