//! The audit page as a reader's browser sees it: headless Chromium (Debian's package; `.ci/run`
//! installs it) runs the page's own script, and these read what it marked verified.

use std::path::Path;
use std::process::Command;

/// Debian's Chromium, or the browser named by `CHROMIUM`; `None` (the test says it skipped)
/// on a machine without one, unless `REQUIRE_TEST_TOOLS` is set, as `bash .ci/run` sets it
/// after installing them, so CI never skips.
pub fn chromium() -> Option<String> {
    let name = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let found = Command::new(&name).arg("--version").output();
    if found.is_ok_and(|o| o.status.success()) {
        return Some(name);
    }
    let why = "the audit page tests need Chromium: install Debian's `chromium` package (as `bash .ci/run` does) or name a browser in CHROMIUM";
    assert!(std::env::var_os("REQUIRE_TEST_TOOLS").is_none(), "{why}");
    eprintln!("skipped: {why}");
    None
}

/// The page's DOM once its script has run, as headless Chromium dumps it (`None`: no
/// browser on this machine).
pub fn dom_after_checks(page: &Path) -> Option<String> {
    let browser = chromium()?;
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--virtual-time-budget=20000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8(output.stdout).unwrap())
}

/// The opening tag of the element with `id` in `dom`.
pub fn tag_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let start = dom[..at].rfind('<').unwrap();
    let end = at + dom[at..].find('>').unwrap();
    &dom[start..=end]
}

/// The `data-verified` of every roll row, in draw order.
pub fn roll_checks(dom: &str) -> Vec<(u64, String)> {
    dom.match_indices("<tr class=\"roll\" id=\"draw-")
        .map(|(at, _)| {
            let tag = &dom[at..at + dom[at..].find('>').unwrap()];
            let number = tag
                .split("draw-")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap()
                .parse()
                .unwrap();
            let verified = tag
                .split("data-verified=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap()
                .to_string();
            (number, verified)
        })
        .collect()
}

/// The `data-verified` of every receipt row, in order.
pub fn receipt_checks(dom: &str) -> Vec<String> {
    dom.match_indices("<tr class=\"receipt\" id=\"receipt-")
        .map(|(at, _)| {
            let tag = &dom[at..at + dom[at..].find('>').unwrap()];
            tag.split("data-verified=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap()
                .to_string()
        })
        .collect()
}
