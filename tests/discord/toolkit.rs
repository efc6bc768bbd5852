//! The GM's toolkit through the real binary on the fake Discord: a round resolved, then
//! taken back by the GM's typed `!undo` and resolved again; a player's vacation by slash
//! command; `!who`; a unanimous `!draw`; quiet hours holding a deadline and a reminder on the
//! real clock. Every game replays from its log afterwards.

use crate::bot::{connected, started};
use crate::commands::{open_tag, start_tag_for_three};
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL, DAVE, ERIN};
use chrono::{DateTime, Duration, DurationRound, Utc};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_vacation_who_and_draw_typed_on_discord() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    for (player, bid) in [(ALICE, "bid 5"), (BOB, "bid 5"), (CAROL, "bid 3")] {
        fake.say(player, None, bid);
    }
    fake.wait_post_in(CHANNEL, "Orders for bids (every order is in)")
        .await;

    // The GM takes the bids back: the board of the bid round comes back with the post.
    let undo = fake.say(ALICE, Some(CHANNEL), "!undo");
    db.settled(&fake, undo).await;
    let undone = fake
        .wait_post("the undo", |p| p.text().contains("The GM took back"))
        .await;
    assert!(
        undone.text().contains(
            "The GM took back the resolution of bids: game #1 is back where it was before."
        ),
        "{undone:?}"
    );
    assert!(!undone.embeds.is_empty(), "the board comes with it");
    // The bids are back in force: the GM resolves them again.
    let again = fake.say(ALICE, Some(CHANNEL), "!resolve");
    db.settled(&fake, again).await;
    let resolved = fake
        .wait_post("the bids resolved again", |p| {
            p.text().contains("Orders for bids (forced by the GM)")
        })
        .await;
    assert!(resolved.text().contains("carol: `bid 3`"), "{resolved:?}");

    // bob goes on vacation with the slash command; only he sees the answer, and the channel
    // is told.
    let away = fake.slash(BOB, CHANNEL, "vacation", &[("length", "3d")]);
    let answer = fake.wait_callback(away).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(
        answer
            .content
            .starts_with("Game #1: you are on vacation until "),
        "{answer:?}"
    );
    fake.wait_post("the vacation told in the channel", |p| {
        in_channel(p)
            && p.content
                .starts_with("bob is on vacation for 3 days, until ")
    })
    .await;

    let who = fake.say(CAROL, Some(CHANNEL), "!who");
    db.settled(&fake, who).await;
    let table = fake
        .wait_post("the who table", |p| {
            p.content.contains("orders and turns on time")
        })
        .await;
    assert!(
        table
            .content
            .contains("- alice: 1 on time, 0 late, 0 missed; last action "),
        "{table:?}"
    );
    assert!(table.content.contains("; on vacation until "), "{table:?}");

    for player in [ALICE, BOB, CAROL] {
        fake.say(player, Some(CHANNEL), "!draw");
    }
    let over = fake
        .wait_post("the draw", |p| p.content.contains("Game #1 ends in a draw"))
        .await;
    assert!(
        over.content
            .contains("Game #1 ends in a draw: alice, bob and carol agree, and share first place."),
        "{over:?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// The second game's channel in the quiet-hours test.
const QUIET_CHANNEL: u64 = 702;

/// India's clock (UTC+5:30 all year): a half-hour offset shows the quiet hours are read in the
/// game's time zone, not in UTC.
const INDIA: i64 = 5 * 60 + 30;

/// `at` on India's clock, as `!new` takes it: `HH:MM`.
fn india_clock(at: DateTime<Utc>) -> String {
    (at + Duration::minutes(INDIA)).format("%H:%M").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quiet_hours_hold_a_deadline_and_a_reminder_until_they_end_on_the_real_clock() {
    let (fake, _dir, mut db, bot) = connected().await;
    // Quiet hours that began a minute ago and end at a minute boundary at least 30 seconds
    // away (so the test waits 30 to 90 seconds for them).
    let now = Utc::now();
    let minute = now.duration_trunc(Duration::minutes(1)).unwrap();
    let mut end = minute + Duration::minutes(1);
    if end - now < Duration::seconds(30) {
        end += Duration::minutes(1);
    }
    let quiet = format!(
        "quiet={}-{} tz=Asia/Kolkata",
        india_clock(minute - Duration::minutes(1)),
        india_clock(end)
    );

    // Game #1's bids are due in 3 seconds, in the quiet hours: the deadline moves to their end.
    open_tag(
        &fake,
        CHANNEL,
        [ALICE, BOB, CAROL],
        &format!("seed=7 deadline=3s {quiet}"),
    );
    // Game #2's bids are due 15 seconds after the quiet hours, and its reminder, 30 seconds
    // before that, would go out in them: it moves to their end.
    let due = (end - Utc::now()).num_seconds() + 15;
    let options = format!("seed=8 deadline={due}s reminder=30s {quiet}");
    let opened = open_tag(&fake, QUIET_CHANNEL, [DAVE, ERIN, BOB], &options);
    db.settled(&fake, *opened.last().unwrap()).await;
    let waiting = fake.wait_post_in(CHANNEL, "Waiting for bids").await;
    // A game with a time zone writes the clock time in it.
    let moved = format!(
        "Deadline: <t:{}:R> ({} IST).",
        end.timestamp(),
        end.with_timezone(&chrono_tz::Asia::Kolkata)
            .format("%Y-%m-%d %H:%M")
    );
    assert!(waiting.text().contains(&moved), "{moved} in {waiting:?}");

    // Two seconds before the quiet hours end, neither the deadline nor the reminder came.
    let before_end = (end - Duration::seconds(2) - Utc::now())
        .to_std()
        .expect("the games started before the quiet hours end");
    tokio::time::sleep(before_end).await;
    let passed = |channel: u64| {
        move |p: &crate::fake::Posted| {
            p.channel == channel && p.text().contains("Orders for bids (the deadline passed)")
        }
    };
    let reminded = |p: &crate::fake::Posted| p.content.starts_with("Reminder for game #2 in ");
    assert_eq!(
        count(&fake, passed(CHANNEL)),
        0,
        "game #1 resolved in the quiet hours"
    );
    assert_eq!(
        count(&fake, reminded),
        0,
        "a reminder went out in the quiet hours"
    );

    // Once they end, game #1 resolves and game #2's three players are reminded...
    let resolved = fake
        .wait_post(
            "game #1's deadline at the end of the quiet hours",
            passed(CHANNEL),
        )
        .await;
    assert!(resolved.text().contains("bob: no order"), "{resolved:?}");
    fake.wait("game #2's reminders", || count(&fake, reminded) == 3)
        .await;
    for player in [DAVE, ERIN, BOB] {
        assert_eq!(count(&fake, |p| dm_to(player)(p) && reminded(p)), 1);
    }
    // ...and game #2's deadline, outside them, falls when it was set to, after the reminders.
    fake.wait_for(
        "game #2's deadline",
        std::time::Duration::from_secs(40),
        || count(&fake, passed(QUIET_CHANNEL)) == 1,
    )
    .await;
    let posts = fake.posts();
    let last_reminder = posts.iter().rposition(reminded).unwrap();
    let deadline = posts.iter().position(passed(QUIET_CHANNEL)).unwrap();
    assert!(
        last_reminder < deadline,
        "game #2 resolved before its reminders"
    );
    assert_eq!(db.stop_and_replay(bot).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nudge_writes_to_the_players_awaited_once_a_phase() {
    let (fake, _dir, mut db, bot) = started().await;
    start_tag_for_three(&fake).await;
    assert!(fake.commands().contains(&"nudge".to_string()));
    // Only the GM nudges.
    let by_bob = fake.say(BOB, Some(CHANNEL), "!nudge");
    db.settled(&fake, by_bob).await;
    fake.wait_post("bob refused", |p| {
        in_channel(p) && p.content == "bob: Only the GM (alice) or a server admin can use `nudge`."
    })
    .await;
    // carol's bid is in: the GM's nudge writes to alice and bob only.
    let bid = fake.say(CAROL, None, "bid 3");
    db.settled(&fake, bid).await;
    let nudge = fake.say(ALICE, Some(CHANNEL), "!nudge");
    db.settled(&fake, nudge).await;
    fake.wait_post("the nudge told", |p| {
        in_channel(p) && p.content == "Nudged by DM: alice and bob."
    })
    .await;
    let nudged = |user| {
        let to = dm_to(user);
        move |p: &crate::fake::Posted| {
            to(p) && p.content.starts_with("The GM of game #1 in <#700> nudges you: your order for bids is awaited. Deadline: ")
        }
    };
    assert_eq!(count(&fake, nudged(ALICE)), 1);
    assert_eq!(count(&fake, nudged(BOB)), 1);
    assert_eq!(count(&fake, nudged(CAROL)), 0);
    // Once a phase: a second nudge is refused and writes to nobody.
    let again = fake.slash(ALICE, CHANNEL, "nudge", &[]);
    let answer = fake.wait_callback(again).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "alice: `!nudge` was already used in this phase; it can be used once a phase."
    );
    assert_eq!(count(&fake, nudged(BOB)), 1);
    // The bids resolve: in the next phase the GM may nudge again; a player on vacation is
    // left alone, and the channel is told.
    for (player, bid) in [(ALICE, "bid 5"), (BOB, "bid 5")] {
        let sent = fake.say(player, None, bid);
        db.settled(&fake, sent).await;
    }
    fake.wait_post_in(CHANNEL, "Orders for bids (every order is in)")
        .await;
    let away = fake.say(CAROL, None, "vacation 3d");
    db.settled(&fake, away).await;
    let nudge = fake.say(ALICE, Some(CHANNEL), "!nudge");
    db.settled(&fake, nudge).await;
    fake.wait_post("the second nudge told", |p| {
        in_channel(p) && p.content == "Nudged by DM: alice and bob. Not nudged, on vacation: carol."
    })
    .await;
    let moves = |user| {
        let to = dm_to(user);
        move |p: &crate::fake::Posted| {
            to(p)
                && p.content
                    .contains("nudges you: your order for moves for round 1 is awaited")
        }
    };
    assert_eq!(count(&fake, moves(BOB)), 1);
    assert_eq!(count(&fake, moves(CAROL)), 0);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
