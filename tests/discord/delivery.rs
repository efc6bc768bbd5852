//! What the bot sends, and how it copes with Discord refusing: duplicates applied once, order
//! of arrival kept, rate limits waited out for as long as Discord asks, server errors retried,
//! permanent refusals given up with a note to the GM.

use crate::bot::{
    connected, connected_with, connected_with_env, fresh_database, started, Bot, Db, Settings,
};
use crate::fake::FakeDiscord;
use crate::{count, in_channel, ALICE, BOB, CAROL, CHANNEL, DAVE, ERIN};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_event_applies_once_and_a_429_is_retried_once() {
    let (fake, _dir, mut db, bot) = connected().await;
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    fake.wait_post("the sign-up", in_channel).await;

    // The same MESSAGE_CREATE twice (as after a gateway replay): bob joins once. Messages
    // sent in a burst are applied in the order they arrived.
    let id = fake.id();
    let join = fake.message(id, BOB, Some(CHANNEL), "!join");
    fake.dispatch("MESSAGE_CREATE", join.clone());
    fake.dispatch("MESSAGE_CREATE", join);
    for player in [CAROL, DAVE, ERIN] {
        fake.say(player, Some(CHANNEL), "!join");
    }
    fake.wait_post("erin's sign-up", |p| {
        in_channel(p) && p.content.contains("erin")
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let joins: Vec<String> = fake
        .posts()
        .iter()
        .filter(|p| in_channel(p) && p.content.contains(" joins game"))
        .map(|p| p.content.clone())
        .collect();
    assert_eq!(joins.len(), 4, "{joins:#?}");
    for (n, name) in ["bob", "carol", "dave", "erin"].iter().enumerate() {
        assert!(joins[n].starts_with(name), "{joins:#?}");
        assert!(
            joins[n].contains(&format!("{} player", n + 1)),
            "{joins:#?}"
        );
    }

    // Discord answers 429 once: the post is retried and arrives exactly once, and the
    // channel's next post waits for it.
    while !db.delivered().await {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before = fake.posts().len();
    fake.fail_next_posts(1, 429);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.say(ALICE, Some(CHANNEL), "!status");
    fake.wait("both answers", || fake.posts().len() >= before + 2)
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = fake.posts();
    assert_eq!(fake.refused(), 1);
    assert_eq!(posts.len(), before + 2, "{posts:#?}");
    assert!(posts[before].content.starts_with("Games"), "{posts:#?}");
    assert!(posts[before].content.contains("tag"));
    assert!(
        !posts[before + 1].content.starts_with("Games"),
        "{posts:#?}"
    );

    // Messages of bots (another bot's `!new`) are ignored.
    let mut robot = fake.message(fake.id(), (555, "robot"), Some(CHANNEL + 1), "!new tag");
    robot["author"]["bot"] = serde_json::json!(true);
    fake.send_message(robot);
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(!fake.posts().iter().any(|p| p.channel == CHANNEL + 1));

    // Words with an unclosed quote still get the table's answer.
    fake.say(ALICE, Some(CHANNEL + 2), "!replace \"bob carol");
    let answer = fake
        .wait_post("an answer to the unclosed quote", |p| {
            p.channel == CHANNEL + 2
        })
        .await;
    assert!(answer.content.starts_with("alice"), "{answer:?}");

    // A post Discord refuses for good (the bot lost its permissions in the channel) is given
    // up once, and the GM hears about it by DM.
    fake.forbid(CHANNEL);
    fake.say(BOB, Some(CHANNEL), "!status");
    let note = fake.wait_dm(ALICE, "gave up").await;
    assert!(
        note.content
            .contains("I gave up delivering a message to <#700>"),
        "{note:?}"
    );
    assert!(note.content.contains("Missing Permissions"), "{note:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_is_waited_out_for_as_long_as_discord_asks() {
    // The outbox's own backoff would try again after 100 ms: the 429 asks for 1.5 s.
    let (fake, _dir, _db, bot) = connected_with(Settings {
        retry: "1s",
        attempts: 8,
        ..Settings::default()
    })
    .await;
    fake.retry_after(Duration::from_millis(1500));
    fake.fail_next_posts(1, 429);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.wait_post("the list of games", |p| p.content.starts_with("Games"))
        .await;
    let attempts = fake.post_attempts();
    assert_eq!(attempts.len(), 2, "one refused, one delivered");
    let waited = attempts[1] - attempts[0];
    assert!(
        waited >= Duration::from_millis(1500),
        "the retry came after {waited:?}"
    );
    assert!(waited < Duration::from_millis(4000), "{waited:?}");
    assert_eq!(count(&fake, |p| p.content.starts_with("Games")), 1);
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_is_retried_and_a_post_that_keeps_failing_is_given_up() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let bot = Bot::start_with(
        &fake,
        &path,
        Settings {
            retry: "1s",
            attempts: 3,
            ..Settings::default()
        },
    );
    fake.wait_ready().await;
    // No seed: a secret seed is set by DM, whose answers could come after the failures below
    // are armed and take them.
    crate::open_game(&fake, ALICE, CHANNEL, "tag");
    fake.wait_post("the sign-up", in_channel).await;

    // A 502 passes: the post is tried again and arrives once.
    fake.fail_next_posts(1, 502);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.wait_post("the list of games", |p| p.content.starts_with("Games"))
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(fake.refused(), 1);
    assert_eq!(count(&fake, |p| p.content.starts_with("Games")), 1);

    // A post that fails on all three attempts is given up, and the GM hears why by DM.
    let before = fake.posts().len();
    fake.fail_next_posts(3, 503);
    fake.say(BOB, Some(CHANNEL), "!status");
    let note = fake.wait_dm(ALICE, "I gave up").await;
    assert!(
        note.content
            .contains("I gave up delivering a message to <#700>: still failing after 3 attempts"),
        "{note:?}"
    );
    assert!(note.content.contains("HTTP 503"), "{note:?}");
    assert_eq!(fake.refused(), 4);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = &fake.posts()[before..];
    assert!(!later.iter().any(in_channel), "{later:#?}");
    bot.stop();
    assert_eq!(Db::at(&path).replay_all().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_refused_as_malformed_is_sent_again_as_plain_text() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    while !db.delivered().await {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Discord refuses the board's embed: the board goes again as text, nothing is given up,
    // and the next post in the channel comes after it.
    fake.refuse_embeds(1);
    let board = fake.say(BOB, Some(CHANNEL), "!board");
    let status = fake.say(BOB, Some(CHANNEL), "!status");
    db.settled(&fake, board).await;
    db.settled(&fake, status).await;
    let posts = fake.posts();
    let text_board = posts
        .iter()
        .position(|p| in_channel(p) && p.embeds.is_empty() && p.content.contains("TAG, bids"))
        .expect("the board as text");
    let status_at = posts
        .iter()
        .position(|p| in_channel(p) && p.content.starts_with("Game #1 (tag)"))
        .expect("the status");
    assert!(text_board < status_at, "{posts:#?}");
    assert_eq!(
        count(&fake, |p| p.content.contains("I gave up delivering")),
        0,
        "{posts:#?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_whose_answer_never_comes_is_sent_again_and_the_channel_goes_on() {
    let (fake, _dir, mut db, bot) =
        connected_with_env(&[("REFEREE_DISCORD_REQUEST_TIMEOUT", "2s")]).await;

    // Discord makes the sign-up post but its answer never comes (a half-open connection):
    // after the request's time runs out the post is sent again under its nonce, Discord
    // hands back the one it made, and the posts queued behind it follow.
    fake.stall_next_post();
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    let join = fake.say(BOB, Some(CHANNEL), "!join");
    fake.wait_for("the post sent again", Duration::from_secs(20), || {
        fake.deduplicated() == 1
    })
    .await;
    db.settled(&fake, join).await;
    assert_eq!(
        count(&fake, |p| in_channel(p)
            && p.content.contains("open for sign-ups")),
        1,
        "{:#?}",
        fake.posts()
    );
    assert_eq!(
        count(&fake, |p| in_channel(p)
            && p.content.contains("bob joins game #1")),
        1
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
