//! What players are told to type works as printed, through the real binary: Carcassonne's
//! prompts print `!place` and `!pass`, a move typed without the prefix by the player whose
//! turn it is gets the line to type (and is not played; a line too long to be one a player
//! meant is not shown back), and a game that ended by a draw shows its final board and still
//! answers `!who`, `!deadline` and `!undo`; a game with a time zone writes its deadlines in
//! it, on the posts and on the cards. Every game replays from its log.

use crate::bot::{connected, connected_with, Settings};
use crate::{count, in_channel, ALICE, BOB, CHANNEL};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn carcassonne_types_as_printed_and_a_drawn_game_still_answers() {
    let (fake, _dir, mut db, bot) = connected().await;
    for id in crate::open_game(&fake, ALICE, CHANNEL, "carcassonne seed=3") {
        db.settled(&fake, id).await;
    }
    for (who, line) in [(ALICE, "!join"), (BOB, "!join blue"), (ALICE, "!start")] {
        let id = fake.say(who, Some(CHANNEL), line);
        db.settled(&fake, id).await;
    }
    let prompt = fake.wait_post_in(CHANNEL, "alice's turn: tile").await;
    assert!(
        prompt
            .text()
            .contains("Answer `!place <x> <y> <rotation>`, then `!meeple <feature>`"),
        "{prompt:?}"
    );

    // Typed without the prefix: alice, whose turn it is, is shown the line; bob is not.
    let bare = fake.say(ALICE, Some(CHANNEL), "place -1 0 0");
    let not_his = fake.say(BOB, Some(CHANNEL), "place -1 0 0");
    db.settled(&fake, bare).await;
    db.settled(&fake, not_his).await;
    let hint = fake
        .wait_post("the hint", |p| {
            in_channel(p) && p.content.contains("did you mean")
        })
        .await;
    assert_eq!(
        hint.content,
        "alice: did you mean `!place -1 0 0`? Actions start with `!`; that line was not played."
    );
    assert_eq!(count(&fake, |p| p.text().contains("alice places tile")), 0);
    let placed = fake.say(ALICE, Some(CHANNEL), "!place -1 0 0");
    db.settled(&fake, placed).await;
    let passed = fake.say(ALICE, Some(CHANNEL), "!pass");
    db.settled(&fake, passed).await;
    assert_eq!(count(&fake, |p| p.text().contains("alice places tile")), 1);
    assert_eq!(count(&fake, |p| p.content.contains("did you mean")), 1);

    // A draw: the final board, picture and all, and the questions still answered.
    for who in [ALICE, BOB] {
        let id = fake.say(who, Some(CHANNEL), "!draw");
        db.settled(&fake, id).await;
    }
    let before = fake.post_count();
    for line in ["!who", "!deadline 2d", "!undo"] {
        let id = fake.say(ALICE, Some(CHANNEL), line);
        db.settled(&fake, id).await;
    }
    let ended = fake
        .posts()
        .into_iter()
        .position(|p| p.text().contains("ends in a draw"))
        .expect("the draw");
    assert!(
        fake.posts()[ended + 1..]
            .iter()
            .any(|p| in_channel(p) && !p.files.is_empty()),
        "the final board's picture"
    );
    let answers: Vec<String> = fake.posts_after(before).iter().map(|p| p.text()).collect();
    assert!(
        answers
            .iter()
            .any(|a| a.contains("alice: Game #1 (carcassonne) is over: `!audit` posts its page")),
        "{answers:?}"
    );
    assert!(
        answers
            .iter()
            .any(|a| a.contains("so nothing can be taken back")),
        "{answers:?}"
    );
    assert!(
        !answers.iter().any(|a| a.contains("There is no game")),
        "{answers:?}"
    );
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// In a thread, the GM playing her own Short Circuit match types `concede` without the prefix,
/// once with 70 letters after it (a legal line, since `concede` takes any words) and once
/// alone: only the short line is shown back as the line to type, and neither concedes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_line_that_would_be_a_move_is_not_shown_back_in_a_thread() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = fake.open_thread(ALICE, CHANNEL, "duel");
    for id in crate::open_game(&fake, ALICE, thread, "shortcircuit") {
        db.settled(&fake, id).await;
    }
    for (who, channel, line) in [
        (ALICE, None, "setup first=alice"),
        (ALICE, Some(thread), "!join"),
        (BOB, Some(thread), "!join"),
        (ALICE, Some(thread), "!start"),
    ] {
        let id = fake.say(who, channel, line);
        db.settled(&fake, id).await;
    }
    fake.wait_post_in(thread, "It is alice's turn").await;
    let long = fake.say(ALICE, Some(thread), &format!("concede {}", "z".repeat(70)));
    db.settled(&fake, long).await;
    let short = fake.say(ALICE, Some(thread), "concede");
    db.settled(&fake, short).await;
    let hint = fake.wait_post_in(thread, "did you mean").await;
    assert_eq!(
        hint.content,
        "alice: did you mean `!concede`? Actions start with `!`; that line was not played."
    );
    assert_eq!(count(&fake, |p| p.content.contains("did you mean")), 1);
    assert_eq!(count(&fake, |p| p.text().contains("zzzzzzzzzz")), 0);
    assert_eq!(count(&fake, |p| p.text().contains("concedes")), 0);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_typed_without_the_prefix_in_a_flood_get_no_more_answers_than_commands() {
    // The bot's own limit: 30 commands at once, 30 more every 20 seconds.
    let limited = Settings {
        flood: None,
        ..Settings::default()
    };
    let (fake, _dir, mut db, bot) = connected_with(limited).await;
    for id in crate::open_game(&fake, ALICE, CHANNEL, "carcassonne seed=3") {
        db.settled(&fake, id).await;
    }
    for (who, line) in [(ALICE, "!join"), (BOB, "!join blue"), (ALICE, "!start")] {
        let id = fake.say(who, Some(CHANNEL), line);
        db.settled(&fake, id).await;
    }
    // alice, whose turn it is, types her legal move without the prefix 60 times in 3 s: each
    // would be answered with the line to type, so each counts like a command.
    let mut ids = Vec::new();
    for _ in 0..60 {
        ids.push(fake.say(ALICE, Some(CHANNEL), "place -1 0 0"));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for id in &ids {
        db.settled(&fake, *id).await;
    }
    let hints = count(&fake, |p| p.content.contains("did you mean"));
    assert!((20..=32).contains(&hints), "{hints} answered");
    assert_eq!(count(&fake, |p| p.content.contains("slow down")), 1);
    // Chatter that is no action stays free.
    let chat = fake.say(BOB, Some(CHANNEL), "nice opening");
    db.settled(&fake, chat).await;
    assert_eq!(count(&fake, |p| p.content.contains("slow down")), 1);
    assert_eq!(count(&fake, |p| p.text().contains("alice places tile")), 0);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// Whether `text` holds a deadline as a game with a time zone writes it on Discord: how far
/// off as a timestamp each reader sees in words, then the clock time in the game's zone.
fn deadline_in_zone(text: &str, zone: &str) -> bool {
    text.split("<t:").skip(1).any(|after| {
        let Some((unix, rest)) = after.split_once(":R> (") else {
            return false;
        };
        let Some((clock, _)) = rest.split_once(')') else {
            return false;
        };
        let Ok(unix) = unix.parse::<i64>() else {
            return false;
        };
        let written = chrono::DateTime::from_timestamp(unix, 0)
            .map(|at| {
                at.with_timezone(&chrono_tz::Europe::Rome)
                    .format("%Y-%m-%d %H:%M %Z")
                    .to_string()
            })
            .unwrap_or_default();
        clock == written && clock.ends_with(zone)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_a_time_zone_writes_its_deadlines_in_it() {
    let (fake, _dir, mut db, bot) = connected().await;
    for id in crate::open_game(&fake, ALICE, CHANNEL, "parcheesi seed=7 tz=Europe/Rome") {
        db.settled(&fake, id).await;
    }
    for (who, line) in [
        (ALICE, "!join"),
        (BOB, "!join"),
        (ALICE, "!start"),
        (ALICE, "!deadline 2d"),
    ] {
        let id = fake.say(who, Some(CHANNEL), line);
        db.settled(&fake, id).await;
    }
    // Rome keeps CET from late October to late March and CEST the rest of the year.
    let zone = match chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Rome)
        .format("%Z")
        .to_string()
    {
        zone if zone == "CEST" => "CEST",
        _ => "CET",
    };
    let turn = fake
        .wait_post("the first turn's deadline", |p| {
            in_channel(p) && p.text().contains("It is ") && p.text().contains("Deadline:")
        })
        .await;
    assert!(deadline_in_zone(&turn.text(), zone), "{turn:?}");
    let set = fake
        .wait_post("the GM's deadline", |p| {
            in_channel(p) && p.content.contains("The GM set the deadline")
        })
        .await;
    assert!(deadline_in_zone(&set.content, zone), "{set:?}");
    assert!(!set.content.contains(":f>"), "{set:?}");
    // The board's card says it the same way.
    let card = fake
        .posts()
        .into_iter()
        .filter(in_channel)
        .flat_map(|p| p.embeds.clone())
        .flat_map(|embed| embed["fields"].as_array().cloned().unwrap_or_default())
        .filter(|field| field["name"] == "Deadline")
        .filter_map(|field| field["value"].as_str().map(str::to_string))
        .next_back()
        .expect("a card with a deadline");
    assert!(deadline_in_zone(&card, zone), "{card}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
