//! Each of the five games played from `!new` to its final standings on Discord by typed
//! commands only (the transcripts in `tests/transcripts/`, typed by their players line by
//! line), Parcheesi once more typed at a player's pace without waiting for the bot, and
//! Parcheesi and Carcassonne once more mixing typed commands, `/play` and buttons. The standings posted must be those the console gives for the same transcript,
//! and every game must replay from its log.

use crate::bot::{connected, connected_with, typed_line, Db, Settings, Typed, Users};
use crate::fake::{FakeDiscord, Posted};
use crate::{for_discord, in_channel, CHANNEL};
use std::process::Command;
use std::time::Duration;

/// How a channel line reaches the bot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Way {
    /// Typed as written.
    Typed,
    /// As `/play <action>` (game actions) or the slash command of the same name.
    Slash,
    /// By pressing the button offering it, where a post offers one; else typed.
    Button,
}

/// The table's own words: everything else typed in the channel is a game action.
const TABLE_WORDS: &[&str] = &[
    "games", "help", "new", "join", "leave", "start", "board", "status", "log", "resolve",
    "deadline", "kick", "replace", "pause", "resume", "end",
];

/// What the console's `referee script` says for `transcript`: the final ranking, and how
/// many commands it did not know.
fn on_the_console(transcript: &str) -> (Vec<String>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("transcript.txt");
    std::fs::write(&file, transcript).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("script")
        .arg(&file)
        .arg("--pictures")
        .arg(dir.path().join("pictures"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<String> = out
        .lines()
        .map(|line| {
            line.split_once(" <- ")
                .map_or("", |(_, text)| text)
                .to_string()
        })
        .collect();
    let unknown = lines
        .iter()
        .filter(|l| l.contains("There is no command"))
        .count();
    (ranking_in(&lines.join("\n")), unknown)
}

/// The places listed after "Final ranking:" in `text`.
fn ranking_in(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|line| !line.starts_with("Final ranking:"))
        .skip(1)
        .take_while(|line| {
            line.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

/// The button labelled `label` on the newest post in the game channel, if that post is
/// newer than `after` (the last slash command, whose answer, with the buttons of the moment,
/// came back as the interaction's answer rather than as a post).
fn button_for(fake: &FakeDiscord, label: &str, after: u64) -> Option<(Posted, String)> {
    let post = fake
        .posts()
        .into_iter()
        .rev()
        .find(in_channel)
        .filter(|post| post.id > after)?;
    let id = post
        .buttons()
        .into_iter()
        .find(|(_, l)| l == label)
        .map(|(id, _)| id)?;
    Some((post, id))
}

/// Plays `transcript` on Discord, each channel line by the way `way` picks for it, waiting
/// for each line to be applied and answered. Returns the final ranking posted.
async fn play(
    fake: &FakeDiscord,
    db: &mut Db,
    transcript: &str,
    way: impl Fn(usize, &str) -> Way,
) -> Vec<String> {
    let mut users = Users::default();
    let mut last_slash = 0;
    for (number, line) in for_discord(transcript).lines().enumerate() {
        let id = match typed_line(line) {
            None => continue,
            Some(Typed::Direct(name, text)) => fake.say(users.get(name), None, text),
            Some(Typed::Channel(name, text)) => {
                let user = users.get(name);
                let words = text.trim_start_matches('!');
                let verb = words.split_whitespace().next().unwrap_or_default();
                let action = !TABLE_WORDS.contains(&verb);
                match way(number, verb) {
                    Way::Slash if words == "join" => {
                        last_slash = fake.slash(user, CHANNEL, "join", &[]);
                        last_slash
                    }
                    Way::Slash if action => {
                        last_slash = fake.slash(user, CHANNEL, "play", &[("action", words)]);
                        last_slash
                    }
                    Way::Button if words == "join" || action => {
                        let label = if action { words } else { "Join" };
                        match button_for(fake, label, last_slash) {
                            Some((post, button)) => fake.press(user, &post, &button),
                            None => fake.say(user, Some(CHANNEL), text),
                        }
                    }
                    _ => fake.say(user, Some(CHANNEL), text),
                }
            }
        };
        db.settled(fake, id).await;
    }
    // Every post of the channel goes out at Discord's pace (five in five seconds), so the
    // last may come well after the last line is applied. The final ranking is a post, or,
    // when the last move was a slash command or a button, the public answer to it.
    let ended = || {
        fake.posts()
            .into_iter()
            .filter(in_channel)
            .map(|p| p.text())
            .chain(fake.callbacks().into_iter().map(|c| c.content))
            .find(|text| text.contains("Final ranking:"))
    };
    fake.wait_for("the final ranking", Duration::from_secs(120), || {
        ended().is_some()
    })
    .await;
    ranking_in(&ended().unwrap_or_default())
}

/// Whether one of `posts` in the game's channel says `text`.
fn said_in_channel(posts: &[Posted], text: &str) -> bool {
    posts
        .iter()
        .any(|p| in_channel(p) && p.text().contains(text))
}

/// Plays a transcript on a fresh bot by `way`, checks the standings against the console's
/// and the replay, and returns the posts.
async fn game(transcript: &str, way: impl Fn(usize, &str) -> Way) -> Vec<Posted> {
    let (fake, _dir, mut db, bot) = connected().await;
    let ranking = play(&fake, &mut db, transcript, way).await;
    let (console, unknown) = on_the_console(transcript);
    assert!(ranking.len() >= 2, "{ranking:?}");
    assert_eq!(ranking, console);
    assert_eq!(db.stop_and_replay(bot).await, 1);
    // Every game word typed on Discord was understood as on the console (the Parcheesi
    // transcript tries one unknown word on purpose; by `/play` it is refused privately).
    let posts = fake.posts();
    let refusals: Vec<String> = posts
        .iter()
        .map(|p| p.content.clone())
        .chain(fake.callbacks().into_iter().map(|c| c.content))
        .filter(|text| text.contains("There is no command"))
        .collect();
    assert_eq!(refusals.len(), unknown, "{refusals:#?}");
    posts
}

fn typed(_: usize, _: &str) -> Way {
    Way::Typed
}

/// Types `transcript` on a fresh bot at a player's pace, one line every `pace`, without
/// waiting for the bot's answers; checks the standings against the console's, that no line
/// was refused for its timing, and the replay; returns the posts.
async fn typed_at_pace(transcript: &str, pace: std::time::Duration) -> Vec<Posted> {
    // People's pace, within the bot's own limit of commands.
    let own_limit = Settings {
        flood: None,
        ..Settings::default()
    };
    let (fake, _dir, mut db, bot) = connected_with(own_limit).await;
    let mut users = Users::default();
    let mut last = None;
    for line in for_discord(transcript).lines() {
        let id = match typed_line(line) {
            None => continue,
            Some(Typed::Direct(name, text)) => fake.say(users.get(name), None, text),
            Some(Typed::Channel(name, text)) => fake.say(users.get(name), Some(CHANNEL), text),
        };
        last = Some(id);
        tokio::time::sleep(pace).await;
    }
    db.settled(&fake, last.expect("a transcript with lines"))
        .await;
    let end = fake.wait_post_in(CHANNEL, "Final ranking:").await;
    let (console, _) = on_the_console(transcript);
    assert_eq!(ranking_in(&end.text()), console);
    let late: Vec<String> = fake
        .posts()
        .iter()
        .map(|p| p.content.clone())
        .filter(|text| text.contains("so it was not taken"))
        .collect();
    assert!(late.is_empty(), "{late:#?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
    fake.posts()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tag_typed_to_the_end_and_its_audit_page() {
    let transcript = format!(
        "{}alice #tag: !audit\n",
        include_str!("../transcripts/tag_3p_seed7.txt")
    );
    let posts = game(&transcript, typed).await;
    let last = posts
        .iter()
        .rfind(|p| in_channel(p) && p.text().contains("Final ranking"))
        .unwrap();
    assert!(
        last.text()
            .contains("**Game over.** Master-of-games points: bob (B) 3"),
        "{last:?}"
    );
    // The board of movement round 1 says "round 1" as the game's texts do, and names the
    // players whose orders are awaited.
    let round_one = posts
        .iter()
        .filter(|p| in_channel(p) && !p.embeds.is_empty())
        .find(|p| {
            p.embeds[0]["title"]
                .as_str()
                .unwrap_or_default()
                .contains("round 1")
        })
        .expect("the board of round 1");
    let embed = &round_one.embeds[0];
    assert_eq!(
        embed["title"], "Game #1: tag, round 1 (moves for round 1 awaited)",
        "{embed}"
    );
    assert!(
        round_one.text().contains("TAG, movement round 1"),
        "{round_one:?}"
    );
    assert_eq!(embed["fields"][0]["name"], "Waiting for");
    assert_eq!(embed["fields"][0]["value"], "alice, bob and carol");
    // `!audit` after the end: the page comes as an attachment.
    let audit = posts
        .iter()
        .find(|p| in_channel(p) && p.content.starts_with("Game #1: the audit page."))
        .expect("the audit post");
    assert_eq!(audit.files.len(), 1, "{audit:?}");
    assert_eq!(audit.files[0].0, "game-1-audit.html");
    let page = String::from_utf8(audit.files[0].1.clone()).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(
        page.contains("Over. Final ranking: 1. bob; 2. alice; 3. carol."),
        "{}",
        &page[..600]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn circuit_typed_to_the_end() {
    let posts = game(include_str!("../transcripts/circuit_3p_seed11.txt"), typed).await;
    assert!(said_in_channel(
        &posts,
        "Final ranking:\n1. ben\n2. ann\n3. cat"
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parcheesi_typed_to_the_end() {
    let posts = game(include_str!("../transcripts/parcheesi_2p_seed7.txt"), typed).await;
    assert!(posts.iter().any(|p| in_channel(p)
        && p.text()
            .contains("red (bob) has all four pawns HOME and wins!")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parcheesi_typed_at_a_players_pace_without_waiting_for_the_bot() {
    let posts = typed_at_pace(
        include_str!("../transcripts/parcheesi_2p_seed7.txt"),
        std::time::Duration::from_millis(600),
    )
    .await;
    assert!(posts.iter().any(|p| in_channel(p)
        && p.text()
            .contains("red (bob) has all four pawns HOME and wins!")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_circuit_typed_to_the_end() {
    let posts = game(
        include_str!("../transcripts/short_circuit_2p_seed9.txt"),
        typed,
    )
    .await;
    assert!(said_in_channel(&posts, "Final ranking:\n1. bob\n2. ann"));
}

/// A thunder piece placed between two turns on the top row can only be `─`; the impossible
/// call, judged by the solver, is answered with a witness that reads it so.
const SHORT_CIRCUIT_THUNDER_CALL: &str = "\
gm #duel: !new shortcircuit seed=4
gm dm: setup board=4x4 straight=2 turn=4 cross=0 thunder=2 first=ann impossible=solver
ann #duel: !join
bob #duel: !join
gm #duel: !start
ann #duel: !place a1 turn 90 b1 thunder c1 turn 180
bob #duel: !place a2 straight 0
ann #duel: !impossible
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_circuit_impossible_call_reads_a_board_thunder_piece() {
    let posts = game(SHORT_CIRCUIT_THUNDER_CALL, typed).await;
    let verdict = posts
        .iter()
        .find(|p| in_channel(p) && p.text().contains("the solver shows the circuit can still"))
        .expect("the solver answers the call");
    assert!(verdict.text().contains("bob wins"), "{}", verdict.text());
    assert!(
        verdict.text().contains("# thunder on b1 reads ─"),
        "{}",
        verdict.text()
    );
    assert!(said_in_channel(&posts, "Final ranking:\n1. bob\n2. ann"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn carcassonne_typed_to_the_end() {
    let posts = game(
        include_str!("../transcripts/carcassonne_2p_seed3.txt"),
        typed,
    )
    .await;
    assert!(said_in_channel(&posts, "Final ranking:\n1. bob\n2. ann"));
}

/// Lines in turn typed, by slash command and by button.
fn mixed(number: usize, _: &str) -> Way {
    [Way::Typed, Way::Slash, Way::Button][number % 3]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parcheesi_mixing_typed_commands_play_and_buttons() {
    let posts = game(include_str!("../transcripts/parcheesi_2p_seed7.txt"), mixed).await;
    assert!(said_in_channel(&posts, "Final ranking:\n1. bob\n2. alice"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn carcassonne_mixing_typed_commands_play_and_buttons() {
    // `game` finds the final ranking (a post, or the public answer to the last slash
    // command) and checks it is the console's: bob first, then ann.
    let posts = game(
        include_str!("../transcripts/carcassonne_2p_seed3.txt"),
        mixed,
    )
    .await;
    assert!(said_in_channel(&posts, "bob places"));
}
