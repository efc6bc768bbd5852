//! The fairness promise kept through the real binary, against a GM who plays, a stand-in and
//! an edit: a seed typed in a channel is refused and one the GM gives by DM makes a practice
//! game that says so; a Parcheesi turn that comes back to its player after the others' turns
//! played themselves has its own deadline; an order edited while the bot was away is not
//! taken; messages sent right after the bot connects (in a channel and by DM) are applied in
//! the order sent; and a
//! slash command's answer the database would not mark delivered keeps no one's posts back.
//! Every game replays from its log.

use crate::bot::{connected, fresh_database, started, Bot, Db};
use crate::fake::{FakeDiscord, Posted};
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL};
use referee::dice::Seed;
use std::path::Path;
use std::time::Duration;

/// What a practice game says wherever it is shown.
const PRACTICE: &str = "Practice game: its dice seed was chosen at the table, not drawn by me, so its dice can be known in advance; it is not rated.";

/// Waits for the channel to be told that game #1 is a practice game, in those words.
async fn told_it_is_practice(fake: &FakeDiscord) {
    let told = fake
        .wait_post("the practice notice", |p| {
            in_channel(p) && p.content.contains("the GM chose the dice seed privately")
        })
        .await;
    assert_eq!(
        told.content,
        format!("Game #1: the GM chose the dice seed privately. {PRACTICE}")
    );
}

/// The Unix time of the first deadline a post shows (`Deadline: <t:UNIX:R>`).
fn deadline_in(post: &Posted) -> i64 {
    post.text()
        .split("Deadline: <t:")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|unix| unix.parse().ok())
        .unwrap_or_else(|| panic!("no deadline in {post:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seed_typed_in_a_channel_is_refused_and_one_given_by_dm_makes_a_practice_game() {
    let (fake, _dir, mut db, bot) = connected().await;
    // A seed typed where the table reads it, with `!new` or `/new`, is refused with where to
    // give one; no game is opened.
    let typed = fake.say(ALICE, Some(CHANNEL), "!new tag seed=42");
    db.settled(&fake, typed).await;
    let refusal = "a seed typed here would let everyone at the table foresee every die, so I do not take one in a channel. Open the game without it (I draw a seed nobody knows), or, for a practice game that is not rated, send me `setup seed=<number>` by direct message before `!start`.";
    fake.wait_post("the refusal", |p| {
        in_channel(p) && p.content == format!("alice: {refusal}")
    })
    .await;
    let slash = fake.slash(
        BOB,
        CHANNEL,
        "new",
        &[("game", "tag"), ("options", "seed=42")],
    );
    let answer = fake.wait_callback(slash).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(answer.content.contains(refusal), "{answer:?}");
    assert_eq!(db.games().await, Vec::<i64>::new());
    // What `seed=` does is in the rules every GM reads.
    let rules = fake.say(ALICE, Some(CHANNEL), "!rules options");
    db.settled(&fake, rules).await;
    assert!(
        fake.posts().iter().any(|p| in_channel(p)
            && p.text()
                .contains("given only to me by DM before the start, `setup seed=7`")),
        "the rules say where a seed is given"
    );

    // Opened without a seed, the game is the bot's to draw; the GM then gives one by DM:
    // the channel is told it is a practice game, and it says so at the start and in `!status`.
    let mut ids = crate::open_game(&fake, ALICE, CHANNEL, "tag seed=42");
    for player in [ALICE, BOB, CAROL] {
        ids.push(fake.say(player, Some(CHANNEL), "!join"));
    }
    ids.push(fake.say(ALICE, Some(CHANNEL), "!start"));
    ids.push(fake.say(BOB, Some(CHANNEL), "!status"));
    db.settled(&fake, *ids.last().unwrap()).await;
    told_it_is_practice(&fake).await;
    assert!(
        fake.posts().iter().any(|p| dm_to(ALICE)(p)
            && p.content
                .contains("the dice seed you chose, which stays secret until the end")),
        "alice is told her seed is kept"
    );
    // The commitment hides the seed with a salt the bot drew: a guess of 42 cannot be checked
    // against it.
    let seed = Seed::parse("42").unwrap();
    let start = fake.wait_post_in(CHANNEL, "Seed commitment").await;
    let posted = start
        .text()
        .split("Seed commitment: `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap()
        .to_string();
    assert_ne!(posted, seed.commitment(), "{start:?}");
    assert!(
        start
            .text()
            .contains("followed by the 32 bytes of its salt"),
        "{start:?}"
    );
    assert!(start.text().contains(PRACTICE), "{start:?}");
    let status = fake.wait_post_in(CHANNEL, "Game #1 (tag), GM alice").await;
    assert!(status.text().contains(PRACTICE), "{status:?}");

    // A second game in another channel, opened the same way without a seed: the bot draws
    // another, so its commitment (and its dice) differ.
    const OTHER: u64 = 710;
    let mut ids = crate::open_game(&fake, BOB, OTHER, "tag");
    for player in [BOB, ALICE, CAROL] {
        ids.push(fake.say(player, Some(OTHER), "!join"));
    }
    ids.push(fake.say(BOB, Some(OTHER), "!start"));
    db.settled(&fake, *ids.last().unwrap()).await;
    let other = fake
        .wait_post("the second start", |p| {
            p.channel == OTHER && p.text().contains("Seed commitment")
        })
        .await;
    assert!(!other.text().contains(&posted), "{other:?}");
    assert!(!other.text().contains("Practice game"), "{other:?}");
    // At the end the seed (42's bytes) and the salt are revealed, and hash to what was posted.
    let ended = fake.say(ALICE, Some(CHANNEL), "!end");
    db.settled(&fake, ended).await;
    let reveal = fake.wait_post_in(CHANNEL, "and its salt `").await.text();
    assert!(
        reveal.contains(&format!("Seed: `{}`", seed.to_hex())),
        "{reveal}"
    );
    let salt = reveal
        .split("and its salt `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .map(|hex| Seed::parse(hex).unwrap())
        .unwrap();
    assert_eq!(seed.salted_commitment(&salt), posted);
    assert_eq!(count(&fake, |p| p.text().contains(PRACTICE)), 3);
    assert_eq!(db.stop_and_replay(bot).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parcheesi_turn_that_comes_back_to_its_player_has_a_deadline_of_its_own() {
    let (fake, _dir, mut db, bot) = connected().await;
    // Seed 59: alice enters a pawn; bob's and carol's turns then play themselves (no 5 to
    // bring a pawn out), and it is alice's turn again.
    let mut ids = crate::open_game(&fake, ALICE, CHANNEL, "parcheesi seed=59 turn=20s nmr=bot");
    for player in [ALICE, BOB, CAROL] {
        ids.push(fake.say(player, Some(CHANNEL), "!join"));
    }
    ids.push(fake.say(ALICE, Some(CHANNEL), "!start"));
    db.settled(&fake, *ids.last().unwrap()).await;
    let first = fake.wait_post_in(CHANNEL, "It is alice's turn.").await;
    let first_deadline = deadline_in(&first);
    tokio::time::sleep(Duration::from_secs(12)).await;
    let entered = fake.say(ALICE, Some(CHANNEL), "!enter 1");
    db.settled(&fake, entered).await;
    let again = fake
        .wait_post("alice's next turn", |p| {
            in_channel(p)
                && p.text().contains("green (alice) to play 1 6")
                && p.text().contains("It is alice's turn.")
        })
        .await;
    // A new turn: its own prompt and board, and a fresh 20 seconds from the move that began
    // it (not what was left of the first).
    assert!(
        !again.files.is_empty(),
        "the board comes with it: {again:?}"
    );
    let next_deadline = deadline_in(&again);
    assert!(
        next_deadline >= first_deadline + 10,
        "{first_deadline} then {next_deadline}"
    );
    // alice moves 15 seconds into it: taken.
    tokio::time::sleep(Duration::from_secs(15)).await;
    let moved = fake.say(ALICE, Some(CHANNEL), "!move 1 1");
    db.settled(&fake, moved).await;
    fake.wait_post_in(CHANNEL, "green (alice) moves pawn 1")
        .await;
    let refused =
        |p: &Posted| p.content.contains("not taken") || p.content.contains("deadline passed");
    assert_eq!(count(&fake, refused), 0, "{:#?}", fake.posts());
    assert_eq!(
        count(&fake, |p| p
            .content
            .contains("The deadline passed: the computer plays")),
        0,
        "{:#?}",
        fake.posts()
    );
    // She leaves her 6: that turn times out, and only then does the computer play it.
    fake.wait_post("the stand-in", |p| {
        in_channel(p)
            && p.content == "The deadline passed: the computer plays alice's turn (nmr=bot)."
    })
    .await;
    assert_eq!(
        count(&fake, |p| p
            .content
            .contains("The deadline passed: the computer plays")),
        1
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// Opens a TAG game for alice, bob and carol whose bids are due 8 seconds after the start,
/// takes alice's and carol's bids, and stops the bot: returns when the bids are due (Unix
/// seconds), for what bob sends while the bot is away.
async fn bids_in_and_the_bot_away(fake: &FakeDiscord, db: &mut Db, path: &Path) -> i64 {
    let bot = Bot::start(fake, path);
    fake.wait_ready().await;
    let opened =
        crate::commands::open_tag(fake, CHANNEL, [ALICE, BOB, CAROL], "seed=7 deadline=8s");
    db.settled(fake, *opened.last().unwrap()).await;
    let waiting = fake.wait_post_in(CHANNEL, "Waiting for bids").await;
    let due = deadline_in(&waiting);
    for (who, bid) in [(ALICE, "bid 4"), (CAROL, "bid 5")] {
        let sent = fake.say(who, None, bid);
        db.settled(fake, sent).await;
    }
    bot.stop();
    fake.wait_disconnected().await;
    due
}

/// Sleeps until a second after the Unix time `due`.
async fn sleep_past(due: i64) {
    let after_due = (due + 1) * 1000 - chrono::Utc::now().timestamp_millis();
    tokio::time::sleep(Duration::from_millis(u64::try_from(after_due).unwrap_or(0))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_edited_after_its_deadline_while_the_bot_was_away_is_not_taken() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let due = bids_in_and_the_bot_away(&fake, &mut db, &path).await;
    // While the bot is away bob bids 1 in time, and after the deadline edits it to 9.
    let bid = fake.say(BOB, None, "bid 1");
    sleep_past(due).await;
    fake.edit(bid, BOB, None, "bid 9");

    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    db.settled(&fake, bid).await;
    let told = fake.wait_dm(BOB, "was edited at").await;
    assert!(
        told.content.starts_with("Your message 'bid 9' was edited at ")
            && told.content.contains("before I could read it, and I take messages as they were sent, never their edits, so I did not apply it: nothing changed."),
        "{told:?}"
    );
    // Neither bid is taken: the deadline resolves bob's bid by the game's default.
    let reveal = fake.wait_post_in(CHANNEL, "Orders for bids").await;
    assert!(
        reveal
            .text()
            .contains("- bob: no order (the game's default)"),
        "{reveal:?}"
    );
    assert!(!reveal.text().contains("bid 9"), "{reveal:?}");
    assert_eq!(
        count(&fake, |p| p
            .content
            .contains("order received for bids: `bid 9`")
            || p.content.contains("order received for bids: `bid 1`")),
        0
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// Who signs up in a burst, in the order they type.
const SIGNING_UP: [(u64, &str); 8] = [
    ALICE,
    BOB,
    CAROL,
    (104, "dave"),
    (105, "erin"),
    (106, "finn"),
    (107, "gina"),
    (108, "hugo"),
];

/// `!new tag` and a `!join` of everyone in [`SIGNING_UP`] in `channel`, typed the instant the
/// bot's next session begins; returns the last one's id.
fn burst_on_connect(fake: &FakeDiscord, channel: u64) -> u64 {
    let mut lines = vec![(ALICE, "!new tag max=8")];
    lines.extend(SIGNING_UP.iter().map(|player| (*player, "!join")));
    let ids = fake.type_on_connect(channel, &lines);
    ids[ids.len() - 1]
}

/// Whether `channel` shows the sign-ups of a burst in the order sent: every join counted up
/// in turn, and no refusal.
fn signed_up_in_order(fake: &FakeDiscord, channel: u64) -> bool {
    let said: Vec<String> = fake
        .posts()
        .into_iter()
        .filter(|p| p.channel == channel)
        .map(|p| p.content)
        .collect();
    let joined = |n: usize, who: &str| {
        said.iter().any(|text| {
            text.starts_with(&format!("{who} joins game #"))
                && text.contains(&format!(" {n} player"))
        })
    };
    SIGNING_UP
        .iter()
        .enumerate()
        .all(|(n, (_, who))| joined(n + 1, who))
        && !said.iter().any(|text| text.contains("There is no game"))
}

/// How many times the bursts are sent (`BURSTS` for another number).
fn bursts() -> u64 {
    std::env::var("BURSTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_sent_in_time_while_the_bot_was_away_is_receipted_as_standing() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let due = bids_in_and_the_bot_away(&fake, &mut db, &path).await;
    // While the bot is away bob bids in time; the bot is back only after the deadline.
    let bid = fake.say(BOB, None, "bid 3");
    sleep_past(due).await;
    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    db.settled(&fake, bid).await;
    // His receipt does not offer a replacement the passed deadline would refuse.
    let receipt = fake.wait_dm(BOB, "order received for bids: `bid 3`").await;
    assert!(
        receipt.content.contains("It came before the deadline, <t:")
            && receipt
                .content
                .contains("which has passed since; it stands as sent.")
            && !receipt.content.contains("You can replace it"),
        "{receipt:?}"
    );
    let reveal = fake.wait_post_in(CHANNEL, "Orders for bids").await;
    assert!(reveal.text().contains("bid 3"), "{reveal:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_sent_right_after_connecting_are_applied_in_the_order_sent() {
    let fake = FakeDiscord::start().await;
    // Registering the slash commands at start-up takes as long as on Discord.
    fake.slow_registration(Duration::from_millis(400));
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let mut games = 0;
    for round in 0..bursts() {
        // The bot starts; the burst comes right behind its READY, in a server it never saw
        // a message in (nothing of it is read back but what was typed as the session began).
        let channel = 2000 + 3 * round;
        fake.put_channel_in(channel, 900 + round);
        let last = burst_on_connect(&fake, channel);
        let bot = Bot::start(&fake, &path);
        fake.wait("the session", || fake.connected()).await;
        db.settled(&fake, last).await;
        assert!(
            signed_up_in_order(&fake, channel),
            "round {round}: {:#?}",
            fake.posts()
        );
        // The session is resumed (RESUME): the same right behind its RESUMED.
        let channel = channel + 1;
        fake.put_channel_in(channel, 900 + round);
        let last = burst_on_connect(&fake, channel);
        fake.ask_reconnect();
        db.settled(&fake, last).await;
        assert!(
            signed_up_in_order(&fake, channel),
            "round {round} resumed: {:#?}",
            fake.posts()
        );
        games += 2;
        // Once, a new session of the running bot (the one before invalidated: serenity waits
        // five seconds before it starts a shard again).
        if round == 0 {
            let channel = channel + 1;
            fake.put_channel_in(channel, 900 + round);
            let last = burst_on_connect(&fake, channel);
            fake.invalidate_session();
            db.settled(&fake, last).await;
            assert!(
                signed_up_in_order(&fake, channel),
                "new session: {:#?}",
                fake.posts()
            );
            games += 1;
        }
        bot.stop();
        fake.wait_disconnected().await;
    }
    assert_eq!(db.replay_all().await, games);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_message_and_a_dm_right_behind_it_as_a_session_begins_apply_in_that_order() {
    for round in 0..openings() {
        // A GM opens a game as the bot connects, gives its seed by DM at once, and starts it.
        // serenity puts the session's collector in place between two events, so any of these
        // may reach a handler task instead, which keeps it aside until the catch-up takes it:
        // what the collector sees meanwhile waits behind it.
        let (fake, _dir, mut db, bot) = connected().await;
        crate::open_game(&fake, ALICE, CHANNEL, "carcassonne seed=3");
        fake.say(ALICE, Some(CHANNEL), "!join");
        fake.say(BOB, Some(CHANNEL), "!join blue");
        let start = fake.say(ALICE, Some(CHANNEL), "!start");
        db.settled(&fake, start).await;
        assert_eq!(
            count(&fake, |p| dm_to(ALICE)(p)
                && p.content
                    .contains("You are not the GM of any game in sign-up")),
            0,
            "round {round}: {:#?}",
            fake.posts()
        );
        told_it_is_practice(&fake).await;
        // The seed-3 game's first tile.
        fake.wait_post_in(CHANNEL, "alice's turn: tile D is drawn")
            .await;
        assert_eq!(db.stop_and_replay(bot).await, 1);
    }
}

/// How many times a game is opened as the bot connects (`OPENINGS` for another number).
fn openings() -> u64 {
    std::env::var("OPENINGS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_the_database_would_not_mark_delivered_keeps_no_posts_back() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    // The database refuses, once, to mark bob's `/order` receipt delivered.
    db.execute(
        "CREATE TABLE fail_once (n INTEGER); INSERT INTO fail_once VALUES (1); \
         CREATE TRIGGER refuse_mark BEFORE UPDATE OF delivered_at ON outbox \
         WHEN NEW.delivered_at IS NOT NULL AND OLD.body LIKE '%`bid 3`%' \
         AND (SELECT COUNT(*) FROM fail_once) > 0 \
         BEGIN DELETE FROM fail_once; SELECT RAISE(FAIL, 'disk says no'); END",
    )
    .await;
    let order = fake.slash(BOB, CHANNEL, "order", &[("order", "bid 3")]);
    let answer = fake.wait_callback(order).await;
    assert!(answer.content.contains("`bid 3`"), "{answer:?}");
    assert_eq!(db.number("SELECT COUNT(*) FROM fail_once").await, 0);
    // bob's next post, and the channel's, still arrive.
    let status = fake.say(BOB, None, "status");
    db.settled(&fake, status).await;
    fake.wait_dm(BOB, "Your order: `bid 3`").await;
    let board = fake.say(BOB, Some(CHANNEL), "!status");
    db.settled(&fake, board).await;
    fake.wait_post("the channel's status", |p| {
        in_channel(p) && p.content.contains("Game #1 (tag), GM alice")
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
