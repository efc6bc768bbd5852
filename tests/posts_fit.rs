//! Every post a player can meet fits Discord and reads as plain words: each of the five games
//! played to its end by a person (whose silent turns the computer plays, `nmr=bot`) and
//! computer seats, on the console's manual clock, and every post it left in the outbox swept
//! for length, internal words and slips. Every game played here replays from its log.

mod common;

use common::{play_on, replay_every_game, service, start_time, texts};
use regex::Regex;

/// The most characters of a Discord message's content.
const DISCORD_LIMIT: usize = 2000;
/// The most characters of a post made during a game (turns, rounds, receipts, reminders):
/// what a player reads at a glance.
const TURN_LIMIT: usize = 1000;

/// The most characters of `!rules <game>` and `!rules options`: one screen, not a wall.
const RULES_LIMIT: usize = 1500;

/// A game of `game` opened with `options`: ann (a person) and `computers` computer seats,
/// then the clock moved on a day at a time, enough for every game to end.
fn whole_game(game: &str, options: &str, computers: usize) -> String {
    let mut transcript = format!(
        "ann #{game}: !new {game} seed=5 nmr=bot deadline=1d {options}\nann #{game}: !join\n"
    );
    for _ in 0..computers {
        transcript.push_str(&format!("ann #{game}: !join bot\n"));
    }
    transcript.push_str(&format!("ann #{game}: !start\n"));
    for _ in 0..400 {
        transcript.push_str("clock +1d\n");
    }
    transcript.push_str(&format!(
        "ann #{game}: !status\nann #{game}: !board\nann #{game}: !who\n"
    ));
    transcript
}

/// Plays `transcript` on a fresh database, replays its games, and returns every post it
/// left: (audience, text, picture).
async fn posts_of(transcript: &str) -> (String, Vec<(String, String, String)>) {
    let service = service("sqlite::memory:").await;
    let out = play_on(&service, transcript, start_time(), &[]).await;
    replay_every_game(&service).await;
    let audiences = texts(&service, "SELECT audience FROM outbox ORDER BY id").await;
    let bodies = common::outbox_texts(&service).await;
    let pictures = texts(
        &service,
        "SELECT COALESCE(f.svg, '') FROM outbox o LEFT JOIN outbox_files f ON f.id = o.id ORDER BY o.id",
    )
    .await;
    let posts = audiences
        .into_iter()
        .zip(bodies)
        .zip(pictures)
        .map(|((audience, body), svg)| (audience, body, svg))
        .collect();
    (out, posts)
}

/// The words on a picture (its SVG `<text>` elements).
fn labels(svg: &str) -> Vec<String> {
    let text = Regex::new(r"<text[^>]*>([^<]*)</text>").unwrap();
    text.captures_iter(svg).map(|c| c[1].to_string()).collect()
}

/// What reads wrong to a player in `text`, if anything.
fn slips(text: &str) -> Vec<String> {
    let patterns = [
        (r"\ba [aeiou][a-z]*", "\"a\" before a vowel"),
        (r"\(s\)", "a plural in brackets"),
        (
            r"\b1 (moves|games|players|points|turns|tiles|rounds|days|hours|minutes|seconds|pieces|pawns|tokens|meeples)\b",
            "one with a plural",
        ),
        (r"\([^()]*\([^()]*\)[^()]*\)", "brackets inside brackets"),
        (r"\bseat [0-9]", "a seat number"),
        (r"\b(BT|AC)[0-9]", "a tile's internal name"),
        (r"sigma", "a statistics word"),
        (r"[Ii]tness", "an internal word"),
    ];
    // Not slips: "a one", "a user", "a unique"; "Computer 1 moves first" (a name).
    let fine = |what: &str, hit: &str, before: &str| match what {
        "\"a\" before a vowel" => hit.starts_with("a u") || hit.starts_with("a one"),
        "one with a plural" => before.ends_with("Computer "),
        _ => false,
    };
    let mut found = Vec::new();
    for (pattern, what) in patterns {
        let regex = Regex::new(pattern).unwrap();
        for hit in regex.find_iter(text) {
            if !fine(what, hit.as_str(), &text[..hit.start()]) {
                found.push(format!("{what}: '{}'", hit.as_str()));
            }
        }
    }
    // A command written with a space inside its backticks, at either edge (code blocks, in
    // three backticks, are boards).
    let blocks = Regex::new(r"(?s)```.*?```").unwrap();
    let inline = blocks.replace_all(text, "");
    for (index, code) in inline.split('`').enumerate() {
        if index % 2 == 1 && (code.starts_with(' ') || code.ends_with(' ')) {
            found.push(format!("a space at the edge of a command: '`{code}`'"));
        }
    }
    found
}

/// Asserts every post of a whole game fits and reads right; `game` names it in failures,
/// which list every post at fault.
fn assert_fit(game: &str, out: &str, posts: &[(String, String, String)]) {
    assert!(
        out.contains("Final ranking"),
        "{game} did not end:\n{}",
        &out[out.len().saturating_sub(3000)..]
    );
    let mut faults = Vec::new();
    for (audience, body, svg) in posts {
        let length = body.chars().count();
        let game_over = body.contains("Final ranking") || body.contains("Final scoring");
        let asked = body.starts_with("Game #") && body.contains("), GM ");
        let limit = match game_over || asked {
            true => DISCORD_LIMIT,
            false => TURN_LIMIT,
        };
        if length > limit {
            faults.push(format!("{length} characters to {audience}:\n{body}"));
        }
        let mut words = labels(svg);
        words.push(body.clone());
        for text in words {
            let slips = slips(&text);
            if !slips.is_empty() {
                faults.push(format!("{slips:?} to {audience}:\n{text}"));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "{game}: {} posts at fault:\n\n{}",
        faults.len(),
        faults.join("\n\n")
    );
}

#[tokio::test]
async fn tag_to_its_end_fits_and_reads_right() {
    let (out, posts) = posts_of(&whole_game("tag", "", 3)).await;
    assert_fit("tag", &out, &posts);
    // ann never answers: each order the computer sends for her is receipted as such, never
    // as one she may still replace.
    let receipts: Vec<&String> = posts
        .iter()
        .filter(|(to, body, _)| to.contains("Direct") && body.contains("order received for"))
        .map(|(_, body, _)| body)
        .collect();
    assert!(!receipts.is_empty(), "{out}");
    for receipt in receipts {
        assert!(
            receipt.contains(
                "You sent no order by the deadline, so the computer sent this one for you."
            ),
            "{receipt}"
        );
    }
}

#[tokio::test]
async fn circuit_to_its_end_fits_and_reads_right() {
    let (out, posts) = posts_of(&whole_game("circuit", "", 3)).await;
    assert_fit("circuit", &out, &posts);
}

#[tokio::test]
async fn parcheesi_to_its_end_fits_and_reads_right() {
    let (out, posts) = posts_of(&whole_game("parcheesi", "", 1)).await;
    assert_fit("parcheesi", &out, &posts);
}

#[tokio::test]
async fn short_circuit_to_its_end_fits_and_reads_right() {
    let (out, posts) = posts_of(&whole_game("shortcircuit", "", 1)).await;
    assert_fit("shortcircuit", &out, &posts);
}

#[tokio::test]
async fn carcassonne_with_the_big_top_to_its_end_fits_and_reads_right() {
    let (out, posts) = posts_of(&whole_game("carcassonne", "bigtop=on", 3)).await;
    assert_fit("carcassonne", &out, &posts);
}

#[tokio::test]
async fn rules_help_and_options_each_fit_one_post() {
    let mut transcript = String::from(
        "ann #lobby: !help\nann #lobby: !help gm\nann #lobby: !rules options\nann dm: help\n",
    );
    for game in ["tag", "circuit", "parcheesi", "shortcircuit", "carcassonne"] {
        transcript.push_str(&format!(
            "ann #lobby: !rules {game}\nann #lobby: !help {game}\n"
        ));
    }
    let (_, posts) = posts_of(&transcript).await;
    assert_eq!(posts.len(), 14);
    let mut faults = Vec::new();
    for (_, body, _) in &posts {
        let length = body.chars().count();
        let rules = body.starts_with("**Options for every game**")
            || (body.starts_with("**") && body.contains("`!rules options`"));
        if rules && length >= RULES_LIMIT {
            faults.push(format!("rules of {length} characters:\n{body}"));
        }
        if length > DISCORD_LIMIT {
            faults.push(format!("{length} characters:\n{body}"));
        }
        if !slips(body).is_empty() {
            faults.push(format!("{:?}:\n{body}", slips(body)));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n\n"));
    // The rules of a game point at the options every game takes.
    assert!(posts.iter().any(
        |(_, body, _)| body.starts_with("**Options for every game**")
            && body.contains("- `nmr=`: default or bot")
    ));
    assert!(posts.iter().any(|(_, body, _)| body.starts_with("**tag**")
        && body.contains("`!rules options`: the options every game takes.")
        && !body.contains("`nmr=`")));
}
