//! Games as forum posts, through the real binary: a whole TAG game opened by `!new` with a
//! `forum=` as a post of a forum, its sign-up post the post's first message, its tags moving
//! from "Sign-ups" to "Running" to "Finished" (with the game's own tag); a forum whose tags
//! the bot may not make, the GM told once (and `orders=thread` refused there); a post whose
//! answer Discord lost, made once all the same; a "forum" that is a text channel, the GM told
//! how to bring the game elsewhere with `!home`; and one server holding 600 games in posts of
//! one forum, more than the 500 channels a server may have, each answering `!status`. Every
//! game replays.

use crate::bot::{connected, connected_with_env, typed_line, Typed, Users};
use crate::fake::{FakeDiscord, Permission};
use crate::{count, dm_to, ALICE, BOB, CAROL, CHANNEL};
use std::time::Duration;

/// The server of every test.
const GUILD: u64 = crate::fake::GUILD;

/// Waits for the one post of `forum` and returns it.
async fn the_post(fake: &FakeDiscord, forum: u64) -> u64 {
    fake.wait("the forum post", || !fake.threads_of(forum).is_empty())
        .await;
    fake.threads_of(forum)[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_tag_game_in_a_forum_post_with_its_state_in_tags() {
    let (fake, _dir, mut db, bot) = connected().await;
    // The forum has a tag for TAG, none for the states: the bot makes them.
    let forum = fake.open_forum(GUILD, &["tag", "chat"]);
    let opened = fake.say(ALICE, Some(CHANNEL), &format!("!new tag forum=<#{forum}>"));
    let seed = fake.say(ALICE, None, "setup seed=7");
    db.settled(&fake, opened).await;
    db.settled(&fake, seed).await;
    let post = the_post(&fake, forum).await;
    // Its first message is the sign-up post (the practice notice follows it there).
    let first = fake
        .posts()
        .into_iter()
        .find(|p| p.channel == post)
        .expect("the post's first message");
    assert!(
        first
            .content
            .starts_with("Game #1: tag is open for sign-ups. GM: alice."),
        "{first:?}"
    );
    assert!(
        fake.place(post).unwrap().name.starts_with("#1 tag"),
        "{:?}",
        fake.place(post)
    );
    fake.wait("the sign-up tags", || {
        fake.tags_of(post) == ["tag", "Sign-ups"] || fake.tags_of(post) == ["Sign-ups", "tag"]
    })
    .await;
    // The game is played there: the rest of the seed-7 transcript, typed in the post and by DM.
    let mut users = Users::default();
    for line in include_str!("../transcripts/tag_3p_seed7.txt")
        .lines()
        .skip(3)
    {
        let id = match typed_line(line) {
            None => continue,
            Some(Typed::Direct(name, text)) => fake.say(users.get(name), None, text),
            Some(Typed::Channel(name, text)) => fake.say(users.get(name), Some(post), text),
        };
        db.settled(&fake, id).await;
        if line.ends_with("!start") {
            fake.wait("the running tag", || {
                fake.tags_of(post).contains(&"Running".to_string())
            })
            .await;
        }
    }
    fake.wait_post_in(post, "Final ranking:").await;
    fake.wait("the finished tag", || {
        let tags = fake.tags_of(post);
        tags.contains(&"Finished".to_string()) && tags.contains(&"tag".to_string())
    })
    .await;
    // Nothing went to the forum itself, nor to the channel `!new` was typed in but its answer.
    assert_eq!(count(&fake, |p| p.channel == forum), 0);
    let tags = fake.place(forum).unwrap().tags;
    assert!(
        tags.iter().any(|(_, name)| name == "chat"),
        "the forum's own tags stay: {tags:?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_whose_tags_the_bot_may_not_make_is_said_once_to_the_gm() {
    let (fake, _dir, mut db, bot) = connected().await;
    fake.deny(Permission::ManageChannels);
    let forum = fake.open_forum(GUILD, &[]);
    // A forum post holds no private threads.
    let refused = fake.say(
        BOB,
        Some(CHANNEL),
        &format!("!new tag forum=<#{forum}> orders=thread"),
    );
    db.settled(&fake, refused).await;
    fake.wait_post("the refusal", |p| {
        p.channel == CHANNEL
            && p.content
                .contains("`orders=thread` opens private threads, which a forum post cannot hold")
    })
    .await;
    let opened = fake.say(BOB, Some(CHANNEL), &format!("!new tag forum=<#{forum}>"));
    db.settled(&fake, opened).await;
    let post = the_post(&fake, forum).await;
    for player in [BOB, ALICE, CAROL] {
        let joined = fake.say(player, Some(post), "!join");
        db.settled(&fake, joined).await;
    }
    let started = fake.say(BOB, Some(post), "!start");
    db.settled(&fake, started).await;
    fake.wait_post_in(post, "Seed commitment").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(fake.tags_of(post).is_empty());
    let told =
        |p: &crate::fake::Posted| dm_to(BOB)(p) && p.content.contains("I may not make the tags");
    assert_eq!(count(&fake, told), 1, "{:#?}", fake.posts());
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_whose_answer_was_lost_is_made_once() {
    let (fake, _dir, mut db, bot) = connected().await;
    let forum = fake.open_forum(GUILD, &[]);
    // Discord makes the post, but its answer is lost: the bot, trying again, finds the post
    // rather than making a second one.
    fake.lose_post_answers(1);
    let opened = fake.say(ALICE, Some(CHANNEL), &format!("!new tag forum=<#{forum}>"));
    db.settled(&fake, opened).await;
    let post = the_post(&fake, forum).await;
    let joined = fake.say(BOB, Some(post), "!join");
    db.settled(&fake, joined).await;
    fake.wait_post("bob's sign-up", |p| {
        p.channel == post && p.content.starts_with("bob joins game #1.")
    })
    .await;
    assert_eq!(fake.threads_of(forum), [post]);
    let sign_up =
        |p: &crate::fake::Posted| p.content.starts_with("Game #1: tag is open for sign-ups.");
    assert_eq!(count(&fake, sign_up), 1, "{:#?}", fake.posts());
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_that_is_no_forum_is_told_to_the_gm_with_the_way_home() {
    let (fake, _dir, mut db, bot) = connected().await;
    // The GM names a text channel as the forum: no post can be made there.
    let elsewhere = CHANNEL + 40;
    let opened = fake.say(
        ALICE,
        Some(CHANNEL),
        &format!("!new tag forum=<#{elsewhere}>"),
    );
    db.settled(&fake, opened).await;
    let told = fake.wait_dm(ALICE, "I gave up delivering a message").await;
    assert!(
        told.content.contains(&format!(
            "a new post of <#{elsewhere}>: <#{elsewhere}> is not a forum"
        )),
        "{told:?}"
    );
    assert!(
        told.content
            .contains("type `!home 1` in a channel or thread"),
        "{told:?}"
    );
    // The GM brings the game to a thread of the channel: its sign-up is posted there.
    let thread = fake.open_thread(ALICE, CHANNEL, "tag night");
    let home = fake.say(ALICE, Some(thread), "!home 1");
    db.settled(&fake, home).await;
    fake.wait_post("the game at its new home", |p| {
        p.channel == thread && p.content.starts_with("Game #1 (tag) lives here now")
    })
    .await;
    let joined = fake.say(BOB, Some(thread), "!join");
    db.settled(&fake, joined).await;
    fake.wait_post("bob's sign-up", |p| {
        p.channel == thread && p.content.starts_with("bob joins game #1.")
    })
    .await;
    assert_eq!(count(&fake, |p| p.channel == elsewhere), 0);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// How many games the big forum holds (`FORUM_GAMES` for another number).
fn forum_games() -> u64 {
    std::env::var("FORUM_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(600)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_hundred_games_in_posts_of_one_forum_each_answer_their_status() {
    let (fake, _dir, mut db, bot) =
        connected_with_env(&[("REFEREE_DISCORD_REQUESTS_PER_SECOND", "2000")]).await;
    let forum = fake.open_forum(GUILD, &["Sign-ups", "Running", "Finished"]);
    let games = forum_games();
    // Each game by a GM of its own (one account runs at most a few games).
    let mut last = 0;
    for game in 0..games {
        let gm = (10_000 + game, "gm");
        last = fake.say(gm, Some(CHANNEL), &format!("!new tag forum=<#{forum}>"));
    }
    db.settled(&fake, last).await;
    fake.wait_for("every post", Duration::from_secs(120), || {
        fake.threads_of(forum).len() == games as usize
    })
    .await;
    let posts = fake.threads_of(forum);
    let mut asked = Vec::new();
    for post in &posts {
        asked.push(fake.say(BOB, Some(*post), "!status"));
    }
    db.settled(&fake, *asked.last().unwrap()).await;
    fake.wait_for("every answer", Duration::from_secs(120), || {
        let answered: std::collections::HashSet<u64> = fake
            .posts()
            .iter()
            .filter(|p| p.content.contains("), GM gm. Players: none yet."))
            .map(|p| p.channel)
            .collect();
        posts.iter().all(|post| answered.contains(post))
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, games as usize);
}
