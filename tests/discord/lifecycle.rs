//! The bot's life: starting (or not) with its token, stopping on SIGTERM, a gateway that
//! reconnects, a crash and a restart with messages sent meanwhile, a post that reached
//! Discord just before the crash, a session lost while deadlines went on.

use crate::bot::{connected, connected_with, fresh_database, started, Bot, Db, Settings};
use crate::fake::{FakeDiscord, TOKEN};
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL};
use std::process::Command;
use std::time::Duration;

/// Runs `referee run` as `set_up` makes it, which must fail; what it wrote to stderr.
fn failed_run(set_up: impl FnOnce(&mut Command) -> &mut Command) -> String {
    let mut run = Command::new(env!("CARGO_BIN_EXE_referee"));
    let output = set_up(run.arg("run")).output().unwrap();
    assert!(!output.status.success());
    String::from_utf8(output.stderr).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_ends_with_one_sentence() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let stderr = failed_run(|run| {
        run.arg("--db")
            .arg(dir.path().join("referee.db"))
            .env("DISCORD_TOKEN", "wrong")
            .env("REFEREE_DISCORD_API_URL", &fake.url)
    });
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("rejected the bot token"), "{stderr}");
    assert_ne!(TOKEN, "wrong");
}

#[test]
fn run_without_a_token_ends_with_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = failed_run(|run| {
        run.arg("--db")
            .arg(dir.path().join("referee.db"))
            .env_remove("DISCORD_TOKEN")
    });
    assert_eq!(
        stderr.trim(),
        "referee: DISCORD_TOKEN is not set; put the bot token from the Discord Developer Portal in it (see README.md)"
    );
}

#[test]
fn a_token_with_a_line_break_inside_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = failed_run(|run| {
        run.arg("--db")
            .arg(dir.path().join("referee.db"))
            .env("DISCORD_TOKEN", "MTIz.first-half\nsecond-half")
    });
    assert_eq!(
        stderr.trim(),
        "referee: DISCORD_TOKEN has a space or line break inside it; copy the token again from the Discord Developer Portal (Bot > Reset Token), on one line"
    );
    // Nothing was created: the token is checked first.
    assert!(!dir.path().join("referee.db").exists());
}

#[test]
fn run_with_an_unreachable_database_server_ends_with_one_sentence() {
    // Port 9 (discard), where nothing listens.
    let stderr = failed_run(|run| {
        run.env("DISCORD_TOKEN", TOKEN).env(
            "REFEREE_DATABASE_URL",
            "postgres://referee:secret@127.0.0.1:9/games",
        )
    });
    assert_eq!(
        stderr.trim(),
        "referee: cannot reach the PostgreSQL server at 127.0.0.1:9/games: connection refused"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_flushes_the_outbox_and_exits_cleanly() {
    // A refused post would wait an hour for its retry: only the shutdown flush can send it.
    let (fake, _dir, _db, bot) = connected_with(Settings {
        retry: "1h",
        attempts: 8,
        ..Settings::default()
    })
    .await;
    fake.fail_next_posts(1, 502);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.wait("the refused post", || fake.refused() == 1).await;
    assert!(fake.posts().is_empty());
    bot.stop();
    let posts = fake.posts();
    assert_eq!(posts.len(), 1, "{posts:#?}");
    assert!(posts[0].content.starts_with("Games"), "{posts:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_reconnect_mid_game_loses_and_repeats_nothing() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    let welcomes = count(&fake, dm_to(ALICE));
    let bid = fake.message(fake.id(), ALICE, None, "bid 5");
    fake.send_message(bid.clone());
    fake.wait("alice's receipt", || count(&fake, dm_to(ALICE)) > welcomes)
        .await;
    let receipts = count(&fake, dm_to(ALICE));

    fake.ask_reconnect();
    fake.wait("a new gateway session", || {
        let (identifies, resumes) = fake.sessions();
        identifies + resumes >= 2
    })
    .await;
    fake.wait_ready().await;
    assert_eq!(fake.sessions(), (1, 1), "one IDENTIFY, then a RESUME");
    // Discord replays the bid after the reconnect: it is not applied again.
    fake.dispatch("MESSAGE_CREATE", bid);
    let bob_before = count(&fake, dm_to(BOB));
    fake.say(BOB, None, "bid 3");
    fake.wait("bob's receipt", || count(&fake, dm_to(BOB)) > bob_before)
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(&fake, dm_to(ALICE)), receipts, "{:#?}", fake.posts());
    // The game goes on: the last bid resolves the round in the channel.
    let before = count(&fake, in_channel);
    fake.say(CAROL, None, "bid 4");
    fake.wait("the bid round's result", || {
        count(&fake, in_channel) > before
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_sent_while_the_bot_is_down_are_applied_once_in_order_after_a_restart() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    let bid = fake.say(ALICE, None, "bid 5");
    db.settled(&fake, bid).await;
    let alice_before = count(&fake, dm_to(ALICE));

    bot.kill();
    fake.wait_disconnected().await;
    // While the bot is down: a long chat in the channel (more than one page of history),
    // bob's secret bid by DM, then carol asks for the status.
    for n in 1..=130 {
        fake.say(ALICE, Some(CHANNEL), &format!("chatter {n}"));
    }
    fake.say(BOB, None, "bid 3");
    let status = fake.say(CAROL, Some(CHANNEL), "!status");
    tokio::time::sleep(Duration::from_millis(200)).await;

    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    db.settled(&fake, status).await;
    // Bob's bid was applied and receipted; then the status (answered after it) counts it.
    let receipt = fake.wait_dm(BOB, "order received for bids: `bid 3`").await;
    assert!(receipt.content.starts_with("Game #1:"), "{receipt:?}");
    let answer = fake
        .wait_post("the status", |p| {
            in_channel(p) && p.content.starts_with("Game #1 (tag)")
        })
        .await;
    // Only the player still awaited is named.
    assert!(
        answer
            .content
            .contains("Waiting for bids by direct message from carol."),
        "{answer:?}"
    );
    // Nothing was applied twice: alice got no second receipt.
    assert_eq!(count(&fake, dm_to(ALICE)), alice_before);
    // The round still resolves as usual with carol's bid.
    let last = fake.say(CAROL, None, "bid 4");
    db.settled(&fake, last).await;
    let resolved = fake.wait_post_in(CHANNEL, "Orders for bids").await;
    assert!(resolved.text().contains("bob: `bid 3`"), "{resolved:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// Commands typed while the bot is down in a channel it has never read (no game there, and
/// no message it ever saw) are answered after the restart, in order; chatter typed then in a
/// third channel gets no answer; messages from before the bot last saw the server are not
/// read again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_typed_in_a_fresh_channel_while_the_bot_is_down_is_answered_after_restart() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let (fresh, lounge) = (CHANNEL + 7, CHANNEL + 8);
    // A command in the lounge before the bot ever ran: older than anything it saw.
    fake.say(CAROL, Some(lounge), "!games");
    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    let hello = fake.say(
        ALICE,
        Some(CHANNEL),
        "hello, is anyone up for a game later?",
    );
    db.settled(&fake, hello).await;
    bot.kill();
    fake.wait_disconnected().await;

    let new = fake.say(BOB, Some(fresh), "!new tag");
    let join = fake.say(CAROL, Some(fresh), "!join");
    let chatter = fake.say(ALICE, Some(lounge), "back in five minutes");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = fake.post_count();

    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    db.settled(&fake, join).await;
    assert!(db.applied(new).await && db.applied(chatter).await);
    let said: Vec<String> = fake
        .posts_after(before)
        .iter()
        .filter(|post| post.channel == fresh)
        .map(|post| post.content.clone())
        .collect();
    assert!(
        said.first()
            .is_some_and(|first| first.starts_with("Game #1: tag is open for sign-ups. GM: bob.")),
        "{said:#?}"
    );
    assert!(
        said.iter()
            .any(|line| line.starts_with("carol joins game #1. 1 player signed up.")),
        "{said:#?}"
    );
    assert!(
        !fake
            .posts_after(before)
            .iter()
            .any(|post| post.channel == lounge),
        "nothing is said in the lounge"
    );
    // The game goes on live in its new channel.
    let live = fake.say(ALICE, Some(fresh), "!join");
    db.settled(&fake, live).await;
    fake.wait_post("alice's join", |post| {
        post.channel == fresh
            && post
                .content
                .starts_with("alice joins game #1. 2 players signed up.")
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// Opens a TAG game (alice GM; alice, bob and carol join) with `options`, without starting
/// it, and waits until the sign-ups are applied.
async fn tag_signed_up(fake: &FakeDiscord, db: &mut Db, options: &str) {
    fake.wait_ready().await;
    crate::open_game(fake, ALICE, CHANNEL, &format!("tag {options}"));
    let mut last = 0;
    for player in [ALICE, BOB, CAROL] {
        last = fake.say(player, Some(CHANNEL), "!join");
    }
    db.settled(fake, last).await;
}

/// Waits for bob's receipt for his bid of 3, and checks that nothing of his was refused.
async fn bobs_bid_is_taken(fake: &FakeDiscord) {
    let receipt = fake.wait_dm(BOB, "order received for bids: `bid 3`").await;
    assert!(receipt.content.starts_with("Game #1: "), "{receipt:?}");
    assert_eq!(
        count(fake, |p| dm_to(BOB)(p) && p.content.contains("not taken")),
        0,
        "{:#?}",
        fake.posts()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_typed_while_the_bot_is_down_and_a_bid_two_seconds_later_are_both_taken() {
    let (fake, _dir, mut db, bot) = started().await;
    tag_signed_up(&fake, &mut db, "seed=7").await;

    bot.kill();
    fake.wait_disconnected().await;
    // The GM starts the game while the bot is down, and bob bids two seconds later: the
    // bids began when the GM sent `!start`, so his bid is meant for them.
    fake.say(ALICE, Some(CHANNEL), "!start");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let bid = fake.say(BOB, None, "bid 3");

    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    db.settled(&fake, bid).await;
    bobs_bid_is_taken(&fake).await;
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_and_a_bid_sent_while_discord_refused_to_resume_the_session_are_both_taken() {
    let (fake, _dir, mut db, bot) = started().await;
    tag_signed_up(&fake, &mut db, "seed=7").await;

    // Discord ends the session (no RESUME) and keeps the bot waiting for a new one; the
    // bot keeps running.
    fake.hold_sessions(true);
    fake.invalidate_session();
    fake.wait_disconnected().await;
    fake.say(ALICE, Some(CHANNEL), "!start");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let bid = fake.say(BOB, None, "bid 3");
    fake.hold_sessions(false);
    fake.wait_ready().await;
    db.settled(&fake, bid).await;
    bobs_bid_is_taken(&fake).await;
    assert_eq!(fake.sessions().0, 2, "a second IDENTIFY, not a RESUME");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_for_the_round_after_a_deadline_missed_while_the_bot_was_down_is_taken() {
    let (fake, _dir, mut db, bot) = started().await;
    tag_signed_up(&fake, &mut db, "seed=7 deadline=5s").await;
    let start = fake.say(ALICE, Some(CHANNEL), "!start");
    db.settled(&fake, start).await;
    for (player, bid) in [(ALICE, "bid 5"), (BOB, "bid 5"), (CAROL, "bid 3")] {
        fake.say(player, None, bid);
    }
    fake.wait_post_in(CHANNEL, "Waiting for moves for round 1")
        .await;

    // The bot goes down; the moves' deadline passes meanwhile, and carol sends her move for
    // round 2 after it, before the bot is back.
    bot.kill();
    fake.wait_disconnected().await;
    tokio::time::sleep(Duration::from_secs(6)).await;
    let moved = fake.say(CAROL, None, "move nothing");

    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    db.settled(&fake, moved).await;
    let missed = fake
        .wait_post_in(CHANNEL, "Orders for moves for round 1")
        .await;
    assert!(
        missed
            .text()
            .contains("passed while the bot was not running"),
        "{missed:?}"
    );
    let receipt = fake.wait_dm(CAROL, "for moves for round 2").await;
    assert!(
        receipt
            .content
            .contains("order received for moves for round 2: `move nothing"),
        "{receipt:?}"
    );
    assert_eq!(
        count(&fake, |p| dm_to(CAROL)(p)
            && p.content.contains("not taken")),
        0,
        "{:#?}",
        fake.posts()
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_that_reached_discord_before_a_crash_is_not_posted_twice() {
    let (fake, _dir, mut db, bot) = connected().await;
    let opened = crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    db.settled(&fake, *opened.last().unwrap()).await;

    // Discord creates the post but its answer never reaches the bot, which dies waiting.
    fake.stall_next_post();
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.wait_post("the list of games", |p| p.content.starts_with("Games"))
        .await;
    bot.kill();
    fake.wait_disconnected().await;

    // After the restart the post is sent again with the same nonce: Discord hands back the
    // message it has, and the channel holds it once.
    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    fake.wait("the retried post", || fake.deduplicated() == 1)
        .await;
    let ping = fake.say(ALICE, Some(CHANNEL), "!status");
    db.settled(&fake, ping).await;
    assert_eq!(count(&fake, |p| p.content.starts_with("Games")), 1);
    let nonce = fake
        .posts()
        .into_iter()
        .find(|p| p.content.starts_with("Games"))
        .and_then(|p| p.nonce)
        .unwrap();
    assert!(nonce.len() <= 25, "{nonce}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_waits_for_a_lost_session_so_an_order_sent_meanwhile_is_taken() {
    let (fake, _dir, mut db, bot) = connected().await;
    // serenity takes 5 seconds to give up a session Discord ended, during which it still
    // reports it connected: the deadline comes after that.
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7 deadline=8s");
    for player in [ALICE, BOB, CAROL] {
        fake.say(player, Some(CHANNEL), "!join");
    }
    let start = fake.say(ALICE, Some(CHANNEL), "!start");
    db.settled(&fake, start).await;
    let started = std::time::Instant::now();

    // The session is lost and Discord keeps the bot waiting for a new one; meanwhile bob
    // bids, and the bids' deadline passes. The bot cannot see what was sent meanwhile, so
    // it does not resolve the bids without a session.
    fake.hold_sessions(true);
    fake.invalidate_session();
    fake.wait_disconnected().await;
    let bid = fake.say(BOB, None, "bid 3");
    tokio::time::sleep(Duration::from_secs(11).saturating_sub(started.elapsed())).await;
    let resolved = |p: &crate::fake::Posted| in_channel(p) && p.text().contains("Orders for bids");
    assert_eq!(count(&fake, resolved), 0, "{:#?}", fake.posts());

    // The new session reads bob's bid back: it was sent in time, so it is taken, and then
    // the late deadline resolves the bids with it.
    fake.hold_sessions(false);
    fake.wait_ready().await;
    let receipt = fake.wait_dm(BOB, "order received for bids: `bid 3`").await;
    assert!(receipt.content.starts_with("Game #1: "), "{receipt:?}");
    let resolved = fake.wait_post("the bids resolved", resolved).await;
    assert!(resolved.text().contains("bob: `bid 3`"), "{resolved:?}");
    assert!(db.applied(bid).await);
    assert_eq!(fake.sessions().0, 2, "a second IDENTIFY, not a RESUME");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_during_a_burst_loses_no_acknowledged_message_and_applies_each_once() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    let ready = fake.say(ALICE, Some(CHANNEL), "!status");
    db.settled(&fake, ready).await;

    // A burst of commands from three players: the bot applies them in shared commits, and
    // is killed while the burst is still being applied and answered.
    const BURST: usize = 90;
    let players = [ALICE, BOB, CAROL];
    let mut ids = Vec::new();
    for n in 1..=BURST {
        ids.push(fake.say(players[n % 3], Some(CHANNEL), &format!("!zz{n}")));
    }
    let answer = |n: usize| format!("There is no command `!zz{n}` in tag.");
    fake.wait("the first answers", || {
        count(&fake, |p| p.content.contains("There is no command `!zz")) >= 5
    })
    .await;
    bot.kill();
    fake.wait_disconnected().await;
    let acknowledged: Vec<usize> = (1..=BURST)
        .filter(|n| count(&fake, |p| p.content.contains(&answer(*n))) > 0)
        .collect();
    assert!(
        acknowledged.len() < BURST,
        "the kill came after the whole burst was answered"
    );
    // Every message answered before the kill is in the database.
    for n in &acknowledged {
        assert!(
            db.applied(ids[n - 1]).await,
            "answered message {n} was lost"
        );
    }

    // After the restart the rest is read back from the channel's history: every message is
    // answered exactly once, in the order it was sent.
    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    db.settled(&fake, ids[BURST - 1]).await;
    let answered: Vec<usize> = fake
        .posts()
        .iter()
        .filter(|p| in_channel(p))
        .filter_map(|p| {
            let rest = p.content.split("There is no command `!zz").nth(1)?;
            rest.split('`').next()?.parse().ok()
        })
        .collect();
    let expected: Vec<usize> = (1..=BURST).collect();
    assert_eq!(answered, expected, "each answered once, in order");
    for id in &ids {
        assert!(db.applied(*id).await);
    }
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
