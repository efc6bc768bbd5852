//! The table end to end: transcripts through the parser, the table, the store and the
//! outbox, with the test-only game "dicey" (tests/common). Every transcript plays on SQLite
//! and again on PostgreSQL when a test server is set, and must say the same on both.

mod common;

use common::play_on_both as play;
use common::{
    assert_says, count, dicey_waiting_for_guesses, on_file_and_postgres, play_on, service,
    start_time, DICEY_SIGNUP,
};
use referee::table::audit::replay;

fn transcript(rest: &str) -> String {
    format!("{DICEY_SIGNUP}{rest}")
}

#[tokio::test]
async fn sign_up_start_and_seed_commitment() {
    let out = play(DICEY_SIGNUP).await;
    assert_says(
        &out,
        &[
            "#dice <- Game #1: dicey is open for sign-ups. GM: alice.",
            "#dice <- carol joins game #1. 2 players signed up.",
            "Game #1 (dicey) starts with bob, carol, alice.",
        ],
    );
    // The commitment is SHA-256 of the seed bytes: 7 as 8 little-endian bytes, then zeros.
    assert!(out.contains(
        "Seed commitment: `f5411ec7e51e46159c654bdbdf3cc20785a217b87384810ed2e541dc0016943a`, the SHA-256 of the seed's 32 bytes (not of their hex text)."
    ));
    assert!(out.contains(
        "Waiting for guesses for round 1 by direct message from bob, carol and alice. \
         Deadline: in 2 days (2026-01-03 00:00 UTC)."
    ));
    assert!(
        out.contains("#dice <- [picture: "),
        "the board picture is attached"
    );
}

#[tokio::test]
async fn secret_orders_are_receipted_replaceable_and_private_until_the_deadline() {
    let out = play(&transcript(
        "bob dm: guess 9\nbob dm: guess 3\nbob dm: guess 2\nbob dm: status\ncarol dm: guess 4\nclock +48h\n",
    ))
    .await;
    assert_says(
        &out,
        &[
            "dm bob <- a guess is a number from 1 to 6; got '9'",
            "dm bob <- Game #1: order received for guesses for round 1: `guess 3`.",
            "dm bob <- Game #1: order replaced for guesses for round 1: `guess 2`.",
            "dm bob <- Your order: `guess 2`",
        ],
    );
    // Nothing of the orders reaches the channel before the deadline...
    let before: String = out.split("Orders for guesses").next().unwrap().to_string();
    assert!(!before
        .lines()
        .any(|l| l.starts_with("#dice") && l.contains("guess 2")));
    // ...and at the deadline every order is revealed, the missing one defaulted.
    assert_says(
        &out,
        &[
            "#dice <- Orders for guesses for round 1 (the deadline passed):",
            "#dice <- - bob: `guess 2` (receipt `",
            "#dice <- - carol: `guess 4` (receipt `",
            "#dice <- - alice: no order (the game's default)",
            "#dice <- The die shows 2.",
            "#dice <- bob guessed right: 1 points.",
            "#dice <- It is bob's turn.",
        ],
    );
}

#[tokio::test]
async fn a_reminder_goes_by_dm_to_silent_players_12h_before_the_deadline() {
    let out = play(&transcript("bob dm: guess 3\nclock +35h\nclock +1h\n")).await;
    let reminders: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("Reminder for game #1"))
        .collect();
    assert_eq!(
        reminders.len(),
        2,
        "carol and alice, not bob: {reminders:?}"
    );
    assert!(reminders[0].starts_with("dm carol <- "));
    assert!(reminders[1].starts_with("dm alice <- "));
    assert!(
        !out.contains("Orders for guesses"),
        "36h is before the 48h deadline"
    );
}

#[tokio::test]
async fn every_order_in_resolves_early() {
    let out = play(&transcript(
        "bob dm: guess 1\ncarol dm: guess 2\nalice dm: guess 3\n",
    ))
    .await;
    assert!(out.contains("#dice <- Orders for guesses for round 1 (every order is in):"));
    let late = play(
        "alice #dice: !new dicey seed=7 early=off\nbob #dice: !join\ncarol #dice: !join\nalice #dice: !start\nbob dm: guess 1\ncarol dm: guess 2\n",
    )
    .await;
    assert!(
        !late.contains("Orders for guesses"),
        "early=off waits for the deadline"
    );
}

#[tokio::test]
async fn the_gm_forces_resolution_and_others_are_refused() {
    let out = play(&transcript(
        "bob dm: guess 3\ncarol #dice: !resolve\nalice #dice: !resolve\n",
    ))
    .await;
    assert!(
        out.contains("#dice <- carol: Only the GM (alice) or a server admin can use `resolve`.")
    );
    assert!(out.contains("#dice <- Orders for guesses for round 1 (forced by the GM):"));
    assert_eq!(count(&out, "Orders for guesses for round 1"), 1);
}

#[tokio::test]
async fn a_server_admin_has_gm_powers() {
    let service = service("sqlite::memory:").await;
    let out = play_on(
        &service,
        &transcript("root #dice: !resolve\n"),
        start_time(),
        &["root"],
    )
    .await;
    assert!(out.contains("#dice <- Orders for guesses for round 1 (forced by the GM):"));
}

#[tokio::test]
async fn orders_from_outsiders_and_at_the_wrong_time_are_refused() {
    let out = play(&transcript(
        "dave dm: guess 2\nalice #dice: !resolve\nbob dm: guess 4\nbob #dice: !roll now\ncarol #dice: !roll\nbob #dice: !dance\n",
    ))
    .await;
    assert!(out.contains(
        "dm dave <- You are not playing in any game, so 'guess 2' was not taken as an order."
    ));
    assert!(
        out.contains("dm bob <- No order is awaited from you in game #1 now. It is bob's turn.")
    );
    assert_says(
        &out,
        &[
            "#dice <- bob: on your turn, type `!roll`",
            "#dice <- carol: It is bob's turn, not yours.",
        ],
    );
    assert!(
        out.contains("#dice <- bob: There is no command `!dance` in dicey. `!help` lists them.")
    );
}

#[tokio::test]
async fn a_message_delivered_twice_is_applied_once() {
    let out = play(&transcript(
        "[msg 42] carol dm: guess 4\n[msg 42] carol dm: guess 5\n[msg 43] alice #dice: !resolve\n[msg 43] alice #dice: !resolve\n",
    ))
    .await;
    assert_eq!(count(&out, "order received"), 1);
    assert!(out.contains("#dice <- - carol: `guess 4`"));
    assert_eq!(count(&out, "Orders for guesses"), 1);
}

#[tokio::test]
async fn bad_commands_get_specific_answers_and_change_nothing() {
    let out = play(&transcript(
        "alice #dice: !deadline tomorow\nalice #dice: !new dicey\nbob #dice: !kick\nalice #dice: !log soon\nbob dm: #x guess 1\nalice #dice: !start\n",
    ))
    .await;
    assert_says(
        &out,
        &[
            "#dice <- alice: `!deadline` takes a duration like 36h or a UTC time like 2026-12-01 18:00 UTC; got 'tomorow'",
            "#dice <- alice: There is already a game in this channel (#1, dicey).",
            "#dice <- bob: `!kick` takes one player, like `!kick @bob`",
            "`!log` takes a round number like 3",
            "dm bob <- a game number goes after #, like `#3 bid 5`; got '#x'",
            "#dice <- alice: Game #1 has already started.",
        ],
    );
    let other = play("bob #x: !new chess\nbob #x: !join\n").await;
    assert!(other.contains(&format!(
        "#x <- bob: There is no game called 'chess'. Games: {}.",
        common::game_names()
    )));
    assert!(other.contains("#x <- bob: There is no game in this channel. `!new <game>` opens one"));
}

#[tokio::test]
async fn deadline_pause_resume_kick_replace_and_end() {
    let out = play(&transcript(
        "alice #dice: !deadline 2h\nalice #dice: !pause\nbob dm: guess 2\nclock +3h\nalice #dice: !resume\nalice #dice: !kick @carol\nalice #dice: !replace @bob @erin\nerin dm: guess 4\nalice #dice: !status\nclock +2h\nalice #dice: !end\n",
    ))
    .await;
    assert_says(
        &out,
        &[
            "#dice <- The GM set the deadline: in 2 hours (2026-01-01 02:00 UTC).",
            "#dice <- The GM paused game #1 with 2 hours left on the clock.",
        ],
    );
    // A pause stops the clock, not the players: bob's guess is taken meanwhile.
    assert!(out.contains("dm bob <- Game #1: order received for guesses for round 1: `guess 2`."));
    // Paused for 3h: nothing resolved; on resume the 2h left run from then (03:00 -> 05:00).
    assert_says(
        &out,
        &[
            "#dice <- Game #1 resumes. Waiting for guesses for round 1",
            "Deadline: in 2 hours (2026-01-01 05:00 UTC).",
            "#dice <- carol was removed by the GM.",
            "#dice <- erin takes over bob's seat in game #1.",
        ],
    );
    // The new player is told by DM what they now hold and what is awaited from them.
    assert_says(
        &out,
        &[
            "dm erin <- The GM gave you bob's seat (seat 1) in game #1 (dicey) in #dice. Waiting for guesses for round 1 by direct message from erin and alice.",
            "Your order for guesses for round 1 is awaited: send it to me here.",
            "dm erin <- Game #1: order received for guesses for round 1: `guess 4`.",
            "Players: erin, alice.",
            "#dice <- - erin: `guess 4`",
            "#dice <- The GM ended game #1. Seed: `0700000000000000000000000000000000000000000000000000000000000000`",
        ],
    );
    // The reveal says what the commitment hashes and gives a check anyone can run.
    assert!(out.contains(
        "The commitment posted at the start is the SHA-256 of these 32 bytes (not of the hex text): \
         `printf 0700000000000000000000000000000000000000000000000000000000000000 | xxd -r -p | sha256sum` \
         prints `f5411ec7e51e46159c654bdbdf3cc20785a217b87384810ed2e541dc0016943a`."
    ), "{out}");
}

#[tokio::test]
async fn the_log_shows_every_roll_and_resolution_of_a_round() {
    let out = play(&transcript(
        "alice #dice: !resolve\nbob #dice: !roll\nalice #dice: !log 1\n",
    ))
    .await;
    assert_says(
        &out,
        &[
            "#dice <- Game #1, round 1:",
            "#dice <- - roll d6 for the target: 2",
            "#dice <- - resolution: guesses for round 1 (forced by the GM); bob: no order",
        ],
    );
    let log2 = play(&transcript(
        "alice #dice: !resolve\nbob #dice: !roll\nalice #dice: !log 2\n",
    ))
    .await;
    assert!(log2.contains("#dice <- - roll d6 for bob's roll: 4"));
}

#[tokio::test]
async fn a_restart_resolves_an_overdue_deadline_exactly_once_and_replay_matches() {
    on_file_and_postgres(|url| async move { restart_resolves_once(&url).await }).await;
}

async fn restart_resolves_once(url: &str) {
    let first = service(url).await;
    let out = play_on(&first, &transcript("bob dm: guess 3\n"), start_time(), &[]).await;
    assert!(out.contains("order received"));
    first.store().close().await;
    // The bot comes back three days later: the 48h deadline is overdue.
    let later = start_time() + chrono::Duration::days(3);
    let second = service(url).await.running_since(later);
    let out = play_on(&second, "", later, &[]).await;
    assert_eq!(count(&out, "Orders for guesses for round 1"), 1);
    assert!(out.contains(
        "the deadline, 2026-01-03 00:00 UTC, passed while the bot was not running; resolved on its return"
    ), "{out}");
    second.store().close().await;
    let third = service(url).await;
    let out = play_on(&third, "", later + chrono::Duration::minutes(1), &[]).await;
    assert_eq!(
        count(&out, "Orders for guesses for round 1"),
        0,
        "resolved once only"
    );
    let report = replay(&third, 1).await.unwrap();
    assert!(report.matches(), "{:?}", report.differences);
    assert!(report.inputs >= 7 && report.events > 10);
    third.store().close().await;
}

#[tokio::test]
async fn replay_reproduces_a_whole_game_and_notices_a_tampered_log() {
    on_file_and_postgres(|url| async move { replay_notices_tampering(&url).await }).await;
}

async fn replay_notices_tampering(url: &str) {
    let service = service(url).await;
    let out = play_on(
        &service,
        &transcript(
            "bob dm: guess 2\ncarol dm: guess 2\nalice dm: guess 2\nbob #dice: !roll\nclock +48h\nclock +24h\nclock +48h\nclock +24h\nclock +48h\nclock +24h\nclock +48h\n",
        ),
        start_time(),
        &[],
    )
    .await;
    assert_says(&out, &["Final ranking:", "Seed: `07000000"]);
    let report = replay(&service, 1).await.unwrap();
    assert!(report.matches(), "{:?}", report.differences);
    common::execute(&service, "UPDATE events SET body = '{\"Game\":\"The die shows 6.\"}' WHERE seq = (SELECT MIN(seq) FROM events WHERE body LIKE '%The die shows%')").await;
    let report = replay(&service, 1).await.unwrap();
    assert!(!report.matches());
    assert!(
        report.differences[0].contains("the log says 'The die shows 6.'"),
        "{:?}",
        report.differences
    );
    service.store().close().await;
}

#[tokio::test]
async fn replay_names_where_a_changed_time_a_status_or_an_undo_mark_parts() {
    on_file_and_postgres(|url| async move { replay_names_where_they_part(&url).await }).await;
}

async fn replay_names_where_they_part(url: &str) {
    let service = service(url).await;
    play_on(
        &service,
        &transcript(
            "bob dm: guess 2\ncarol dm: guess 2\nalice dm: guess 2\nclock +1h\nalice #dice: !undo\n",
        ),
        start_time(),
        &[],
    )
    .await;
    let report = replay(&service, 1).await.unwrap();
    assert!(report.matches(), "{:?}", report.differences);
    let undo: i64 = common::number(&service, "SELECT MAX(seq) FROM inputs").await;
    // The undo's time, an hour later: the deadline it set differs, and it is named.
    common::execute(
        &service,
        "UPDATE inputs SET at = at + 3600000 WHERE seq = (SELECT MAX(seq) FROM inputs)",
    )
    .await;
    let report = replay(&service, 1).await.unwrap();
    assert!(
        report.differences.iter().any(|d| d
            .starts_with("the final state differs in `deadline`: stored ")
            && d.ends_with(&format!("; the replay last changed it at input {undo}"))),
        "{:?}",
        report.differences
    );
    // A status column that disagrees with the record.
    common::execute(&service, "UPDATE games SET status = 'over'").await;
    let report = replay(&service, 1).await.unwrap();
    assert!(
        report.differences.contains(
            &"the games row says the game is 'over', its record says 'running'".to_string()
        ),
        "{:?}",
        report.differences
    );
    // Undo marks taken off.
    let marked: i64 = common::number(
        &service,
        "SELECT MIN(seq) FROM inputs WHERE undone_by IS NOT NULL",
    )
    .await;
    common::execute(&service, "UPDATE inputs SET undone_by = NULL").await;
    let report = replay(&service, 1).await.unwrap();
    assert!(
        report.differences.contains(&format!(
            "input {marked} is marked not undone, but the log's undos make it undone by input {undo}"
        )),
        "{:?}",
        report.differences
    );
    service.store().close().await;
}

#[tokio::test]
async fn help_lists_the_table_and_game_commands_and_explains_one() {
    let out = play(&format!(
        "bob #dice: !help\n{DICEY_SIGNUP}bob #dice: !help\nbob #dice: !help deadline\nbob #dice: !help fly\nbob dm: help\nbob #dice: !games\n"
    ))
    .await;
    assert_says(
        &out,
        &[
            "#dice <- `!deadline <duration|time>`: GM: sets the current deadline, like 48h or 2026-12-01 18:00 UTC",
            "#dice <- dicey commands:",
            "#dice <- `!roll`: rolls the die on your turn",
            "#dice <- There is no command or game `fly`. `!help` lists the commands, `!games` the games.",
            "dm bob <- `guess <1-6>`: your secret guess",
            "#dice <- `dicey`: a test game: guess the die by DM, then roll in public. Options: `turn`, `to`.",
        ],
    );
}

#[tokio::test]
async fn the_gm_secret_setup_by_dm_is_hidden_until_the_start() {
    let out = play(
        "alice #dice: !new dicey seed=7\nbob #dice: !join\ncarol #dice: !join\nbob dm: setup turn=1h\nalice dm: setup colour=red\nalice dm: setup turn=1h\nalice #dice: !start\nalice #dice: !resolve\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "dm bob <- You are not the GM of any game in sign-up.",
            "dm alice <- dicey has no option 'colour'",
            "dm alice <- Secret setup for game #1 stored: turn=1h. Nobody else sees it until `!start`.",
        ],
    );
    let before_start = out.split("starts with").next().unwrap();
    assert!(!before_start
        .lines()
        .any(|l| l.starts_with("#dice") && l.contains("turn=1h")));
    assert!(out.contains("#dice <- The GM's secret setup: turn=1h."));
    // The secret option took effect: bob's public turn lasts one hour.
    assert!(out.contains("It is bob's turn. Deadline: in 1 hour (2026-01-01 01:00 UTC)."));
}

#[tokio::test]
async fn a_secret_order_posted_in_the_channel_is_not_taken_and_the_channel_is_warned() {
    let out = play(&transcript(
        "bob #dice: guess 4\ncarol #dice: !guess 2\ncarol #dice: guess what, I am winning\nbob dm: status\n",
    ))
    .await;
    let warning = "secret orders go to me by direct message, never in the channel. I could not \
                   delete your message, so that order is now public, and it was not taken. Send \
                   your order to me by direct message.";
    assert!(out.contains(&format!("#dice <- bob: {warning}")), "{out}");
    assert!(out.contains(&format!("#dice <- carol: {warning}")), "{out}");
    assert_eq!(
        count(&out, "secret orders go to me"),
        2,
        "chatter is left alone"
    );
    assert!(
        out.contains("dm bob <- You have not sent an order yet."),
        "{out}"
    );
}

/// Handles `text` from `user` by DM as a platform would deliver it: sent at `sent`, applied
/// at `now`; returns what the user was told.
async fn said_at(
    service: &referee::table::Service,
    id: &str,
    inbound: referee::table::Inbound,
    sent: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
) -> String {
    common::handle_sent_at(service, id, &inbound, sent, now)
        .await
        .join("\n")
}

fn dm(user: &str, text: &str) -> referee::table::Inbound {
    referee::table::Inbound::Direct {
        user: referee::table::User::named(user),
        text: text.to_string(),
    }
}

#[tokio::test]
async fn orders_are_judged_by_when_they_were_sent_however_late_they_arrive() {
    let service = dicey_waiting_for_guesses("sqlite::memory:").await;
    let hour = chrono::Duration::hours(1);
    let start = start_time();
    // Sent an hour into the round, read back two days later (the deadline, 48 h, not fired
    // yet): on time, taken.
    let told = said_at(
        &service,
        "m1",
        dm("bob", "guess 3"),
        start + hour,
        start + hour * 50,
    )
    .await;
    assert!(
        told.starts_with("Game #1: order received for guesses for round 1: `guess 3`."),
        "{told}"
    );
    // Sent after the deadline, which had not fired yet: the deadline fires first (the round
    // resolves without carol's guess), and her guess finds bob's turn.
    let told = said_at(
        &service,
        "m2",
        dm("carol", "guess 4"),
        start + hour * 49,
        start + hour * 50,
    )
    .await;
    assert_says(
        &told,
        &[
            "Orders for guesses for round 1 (the deadline passed; resolved late: the deadline was 2026-01-03 00:00 UTC, resolved 2 hours after it):",
            "- carol: no order (the game's default)",
            "No order is awaited from you in game #1 now. It is bob's turn.",
        ],
    );
    // bob's turn began when the deadline was due, not when it fired: a roll he sent before
    // then was meant for the guesses, and is refused with the turn's true start...
    let roll = || referee::table::Inbound::Channel {
        channel: "dice".to_string(),
        user: referee::table::User::named("bob"),
        admin: false,
        text: "!roll".to_string(),
    };
    let told = said_at(&service, "m3", roll(), start + hour * 47, start + hour * 50).await;
    assert!(
        told.starts_with("bob: Game #1: your `!roll` was sent at 2026-01-02 23:00:00.000 UTC, before the current phase (bob's turn, round 2) began at 2026-01-03 00:00:00.000 UTC, so it was not taken. It is bob's turn."),
        "{told}"
    );
    // ...and one he sent a minute after it, read an hour later, is taken.
    let told = said_at(
        &service,
        "m4",
        roll(),
        start + hour * 48 + chrono::Duration::minutes(1),
        start + hour * 50,
    )
    .await;
    assert!(told.starts_with("bob rolls 4."), "{told}");
    let report = replay(&service, 1).await.unwrap();
    assert!(report.matches(), "{:?}", report.differences);
    // The log keeps when each input was sent: the deadline at its own time.
    let inputs = service.store().inputs(1).await.unwrap();
    let sent: Vec<_> = inputs.iter().filter_map(|input| input.sent).collect();
    assert_eq!(
        sent,
        vec![
            start + hour,
            start + hour * 48,
            start + hour * 48 + chrono::Duration::minutes(1)
        ]
    );
}

#[tokio::test]
async fn delivered_posts_lose_their_pictures_after_the_retention_period() {
    let service = dicey_waiting_for_guesses("sqlite::memory:").await;
    let store = service.store();
    let last = store.last_outbox_id().await.unwrap();
    let mut pictured = Vec::new();
    for id in 1..=last {
        let row = store.outbox_row(id).await.unwrap().unwrap();
        if row.svg.is_some() {
            pictured.push((id, row.body));
        }
    }
    assert!(!pictured.is_empty(), "the start posts a board picture");
    // Six days later (the default keeps pictures 7 days) they are still there...
    play_on(&service, "clock +6d\n", start_time(), &[]).await;
    let (id, body) = &pictured[0];
    assert!(store.outbox_row(*id).await.unwrap().unwrap().svg.is_some());
    // ...and once the week has passed, the text stays and the picture is gone.
    play_on(&service, "clock +8d\n", start_time(), &[]).await;
    for (id, body_then) in &pictured {
        let row = store.outbox_row(*id).await.unwrap().unwrap();
        assert_eq!(row.svg, None, "row {id}");
        assert_eq!(&row.body, body_then);
    }
    assert!(!body.is_empty());
}

#[tokio::test]
async fn the_audit_page_is_posted_once_the_game_is_over() {
    let out = play(&transcript(
        "bob #dice: !audit\nalice #dice: !end\nbob #dice: !audit\n",
    ))
    .await;
    assert_says(
        &out,
        &[
            "#dice <- bob: game #1 is still running; its audit page is posted once it is over. `!log` shows what is public now.",
            "#dice <- Game #1: the audit page. Open it in a browser:",
        ],
    );
    let file = out
        .lines()
        .find_map(|line| line.strip_prefix("#dice <- [file: "))
        .and_then(|rest| rest.strip_suffix(']'))
        .expect("the page is attached");
    assert!(file.ends_with("game-1-audit.html"), "{file}");
    let page = std::fs::read_to_string(file).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains(
        "<code id=\"seed\">0700000000000000000000000000000000000000000000000000000000000000</code>"
    ));
}

#[tokio::test]
async fn orders_in_private_threads_go_there_both_ways() {
    // With orders=thread every player gets a private thread of the game's channel (on the
    // console, a channel named after the game's and the player's): orders typed there are
    // theirs, receipts and reminders come there, and nobody else may order there.
    let out = play(
        "alice #tag: !new tag seed=7 orders=thread deadline=2h reminder=1h\nalice #tag: !join\n\
         bob #tag: !join\ncarol #tag: !join\nalice #tag: !start\n\
         alice #tag-alice: bid 5\nbob #tag-alice: bid 9\nbob #tag-bob: !status\n\
         clock +1h30m\ncarol #tag-carol: bid 3\nbob #tag-bob: bid 4\n",
    )
    .await;
    assert!(
        out.contains("#tag <- alice: what game #1 says to you alone, and your secret orders, go in your private thread #tag-alice."),
        "{out}"
    );
    assert!(
        out.contains("#tag-bob <- bob, this thread is yours in game #1: only you and I read it")
    );
    assert_says(
        &out,
        &[
            "#tag-alice <- Game #1: order received for bids: `bid 5`.",
            "#tag-alice <- bob: this is alice's private thread for game #1: only they send orders here.",
        ],
    );
    assert!(
        out.contains("#tag-bob <- Game #1 (tag)."),
        "bob's status in his thread: {out}"
    );
    // The reminder goes to the threads of those who have not bid.
    assert_says(
        &out,
        &[
            "#tag-bob <- Reminder for game #1",
            "#tag-carol <- Reminder for game #1",
        ],
    );
    assert!(!out.contains("#tag-alice <- Reminder"), "{out}");
    assert!(out.contains("#tag <- - bob: `bid 4`"), "{out}");
    // Nothing went by direct message but what concerns no game.
    assert!(!out.contains("dm alice <- Game #1"), "{out}");
}

#[tokio::test]
async fn a_game_brought_home_elsewhere_opens_its_private_threads_there() {
    // The threads of the old channel stay behind: each player gets one beside the new home,
    // and orders typed there are theirs.
    let out = play(
        "alice #tag: !new tag seed=7 orders=thread deadline=2h\nalice #tag: !join\n\
         bob #tag: !join\ncarol #tag: !join\nalice #tag: !start\n\
         alice #table: !home 1\nbob #table-bob: bid 4\nbob #tag-bob: bid 6\n",
    )
    .await;
    assert_says(
        &out,
        &[
            "#table <- bob: what game #1 says to you alone, and your secret orders, go in your private thread #table-bob.",
            "#table-bob <- Game #1: order received for bids: `bid 4`.",
        ],
    );
    assert!(
        !out.contains("`bid 6`"),
        "the old thread is no longer bob's way in: {out}"
    );
}
