//! The audit page (`referee audit GAME --html FILE`) opened in headless Chromium (Debian's
//! package; `.ci/run` installs it): for a finished game of each of the five games, the
//! page's own script says the commitment and every roll are verified; a roll altered in the
//! page's data is not; a game still running shows only what is public, with nothing to check.

mod common;

use common::browser::{dom_after_checks, receipt_checks, roll_checks, tag_of};
use common::referee;
use std::path::{Path, PathBuf};

/// Plays `transcript` into `dir/game.db` and writes game 1's audit page; returns its path
/// and how many rolls the secret export holds.
fn audited(dir: &Path, transcript: &str) -> (PathBuf, usize) {
    let db = dir.join("game.db");
    let db = db.to_str().unwrap();
    let (ok, _, err) = referee(&["script", "--db", db], Some(transcript));
    assert!(ok, "{err}");
    let page = dir.join("audit.html");
    let (ok, said, err) = referee(
        &["audit", "1", "--db", db, "--html", page.to_str().unwrap()],
        None,
    );
    assert!(ok, "{said}{err}");
    let (ok, secret, err) = referee(&["export", "1", "--db", db, "--secret"], None);
    assert!(ok, "{err}");
    (page, secret.matches("\"text\":\"roll d").count())
}

fn every_roll_verified(transcript: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (page, rolls) = audited(dir.path(), transcript);
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing is fetched.
    for fetch in ["src=", "href=", "<link", "@import"] {
        assert!(!html.contains(fetch), "the page fetches something: {fetch}");
    }
    // Emoji come as pictures inside the page itself.
    assert_eq!(
        html.matches("url(").count(),
        html.matches("url(data:image/png;base64,").count(),
        "the page fetches something: url("
    );
    let Some(dom) = dom_after_checks(&page) else {
        return;
    };
    assert!(
        tag_of(&dom, "commitment-check").contains("data-verified=\"yes\""),
        "{}",
        tag_of(&dom, "commitment-check")
    );
    let checks = roll_checks(&dom);
    assert_eq!(checks.len(), rolls, "every roll of the game is on the page");
    assert!(
        checks.iter().all(|(_, verified)| verified == "yes"),
        "{checks:?}"
    );
    let numbers: Vec<u64> = checks.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        numbers,
        (1..=rolls as u64).collect::<Vec<_>>(),
        "draw numbers"
    );
    assert!(dom.contains(&format!(
        "{rolls} of {rolls} rolls verified against the seed."
    )));
    assert!(tag_of(&dom, "rolls-check").contains("data-verified=\"yes\""));
    // Every secret order's receipt, checked against the order and the seed.
    let receipts = receipt_checks(&dom);
    if !receipts.is_empty() {
        assert!(
            receipts.iter().all(|verified| verified == "yes"),
            "{receipts:?}"
        );
        assert!(tag_of(&dom, "receipts-check").contains("data-verified=\"yes\""));
    }
}

#[test]
fn tag_every_roll_verified() {
    every_roll_verified(include_str!("transcripts/tag_3p_seed7.txt"));
}

#[test]
fn circuit_every_roll_verified() {
    every_roll_verified(include_str!("transcripts/circuit_3p_seed11.txt"));
}

#[test]
fn parcheesi_every_roll_verified() {
    every_roll_verified(include_str!("transcripts/parcheesi_2p_seed7.txt"));
}

#[test]
fn short_circuit_every_roll_verified() {
    every_roll_verified(include_str!("transcripts/short_circuit_2p_seed9.txt"));
}

#[test]
fn carcassonne_every_roll_verified() {
    every_roll_verified(include_str!("transcripts/carcassonne_2p_seed3.txt"));
}

#[test]
fn a_roll_altered_in_the_page_is_not_verified() {
    let dir = tempfile::tempdir().unwrap();
    let (page, rolls) = audited(
        dir.path(),
        include_str!("transcripts/parcheesi_2p_seed7.txt"),
    );
    assert!(rolls > 10);
    let html = std::fs::read_to_string(&page).unwrap();
    // Draw 7 is a d6: its logged result is changed to another face in the page's data.
    let marker = "{\"n\":7,\"result\":";
    let at = html.find(marker).expect("draw 7 in the data");
    let rest = &html[at + marker.len()..];
    let result: u32 = rest[..rest.find(',').unwrap()].parse().unwrap();
    assert!(
        rest[rest.find(',').unwrap()..].starts_with(",\"sides\":6}"),
        "{}",
        &rest[..40]
    );
    let altered = result % 6 + 1;
    let tampered = format!(
        "{}{marker}{altered}{}",
        &html[..at],
        &rest[rest.find(',').unwrap()..]
    );
    std::fs::write(&page, tampered).unwrap();
    let Some(dom) = dom_after_checks(&page) else {
        return;
    };
    let checks = roll_checks(&dom);
    assert_eq!(checks.len(), rolls);
    for (number, verified) in &checks {
        let expected = if *number == 7 { "no" } else { "yes" };
        assert_eq!(verified, expected, "draw {number}");
    }
    assert!(
        dom.contains(&format!("NOT verified: the seed gives {result}")),
        "the row says what the seed gives"
    );
    assert!(tag_of(&dom, "rolls-check").contains("data-verified=\"no\""));
    assert!(tag_of(&dom, "commitment-check").contains("data-verified=\"yes\""));
}

#[test]
fn a_roll_missing_from_the_page_data_is_not_verified() {
    let dir = tempfile::tempdir().unwrap();
    let (page, rolls) = audited(
        dir.path(),
        include_str!("transcripts/parcheesi_2p_seed7.txt"),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    // The last draw's data is taken out of the page: its row stays, unchecked.
    let marker = format!(",{{\"n\":{rolls},\"result\":");
    let at = html.find(&marker).expect("the last draw in the data");
    let end = at + html[at..].find('}').unwrap() + 1;
    std::fs::write(&page, format!("{}{}", &html[..at], &html[end..])).unwrap();
    let Some(dom) = dom_after_checks(&page) else {
        return;
    };
    let checks = roll_checks(&dom);
    assert_eq!(checks.len(), rolls);
    for (number, verified) in &checks {
        let expected = if *number == rolls as u64 { "no" } else { "yes" };
        assert_eq!(verified, expected, "draw {number}");
    }
    assert!(dom.contains("NOT verified: missing from the page's data"));
    assert!(tag_of(&dom, "rolls-check").contains("data-verified=\"no\""));
    assert!(dom.contains(&format!(
        "NOT verified: {} of {rolls} rolls verified against the seed; 1 wrong or missing",
        rolls - 1
    )));
}

#[test]
fn every_receipt_of_a_tag_game_is_verified_and_an_altered_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let (page, _) = audited(dir.path(), include_str!("transcripts/tag_3p_seed7.txt"));
    let html = std::fs::read_to_string(&page).unwrap();
    let Some(dom) = dom_after_checks(&page) else {
        return;
    };
    let receipts = receipt_checks(&dom);
    assert!(receipts.len() > 30, "{}", receipts.len());
    assert!(
        receipts.iter().all(|verified| verified == "yes"),
        "{receipts:?}"
    );
    assert!(dom.contains(&format!(
        "{n} of {n} receipts verified against the orders and the seed.",
        n = receipts.len()
    )));
    // The third receipt's code, changed in the page's data, is not verified.
    let marker = "\"i\":3,\"order\":";
    let at = html.find(marker).expect("receipt 3 in the data");
    let code_at = at + html[at..].find("\"receipt\":\"").unwrap() + "\"receipt\":\"".len();
    let first = &html[code_at..code_at + 1];
    let other = if first == "0" { "1" } else { "0" };
    std::fs::write(
        &page,
        format!("{}{other}{}", &html[..code_at], &html[code_at + 1..]),
    )
    .unwrap();
    let Some(dom) = dom_after_checks(&page) else {
        return;
    };
    let receipts = receipt_checks(&dom);
    for (index, verified) in receipts.iter().enumerate() {
        let expected = if index == 2 { "no" } else { "yes" };
        assert_eq!(verified, expected, "receipt {}", index + 1);
    }
    assert!(tag_of(&dom, "receipts-check").contains("data-verified=\"no\""));
}

#[test]
fn a_running_game_shows_what_is_public_and_no_seed() {
    let dir = tempfile::tempdir().unwrap();
    let opening: String = include_str!("transcripts/carcassonne_2p_seed3.txt")
        .lines()
        .take(20)
        .map(|line| format!("{line}\n"))
        .collect();
    let (page, _) = audited(dir.path(), &opening);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Still running"), "the page says so");
    assert!(!html.contains("id=\"seed\""), "no seed while the game runs");
    assert!(!html.contains("0300000000000000000000000000000000000000000000000000000000000000"));
    // The deck's order is drawn sealed: not on the page while the game runs.
    assert!(!html.contains("tile order"), "sealed draws stay hidden");
    let Some(dom) = dom_after_checks(&page) else {
        return;
    };
    assert!(tag_of(&dom, "commitment-check").contains("data-verified=\"pending\""));
    assert!(roll_checks(&dom)
        .iter()
        .all(|(_, verified)| verified == "pending"));
}
