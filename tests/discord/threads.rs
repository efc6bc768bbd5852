//! Games where Discord servers keep play-by-post, through the real binary: a game in a public
//! thread of a channel that hosts another game; a thread Discord archives mid-game, reopened
//! by the next post; a thread a moderator locks, the GM told and the game brought to another
//! channel with `!home`; messages typed in a game's thread while the bot was down, and a game
//! opened in a thread meanwhile, read back after the restart; a player whose DMs are closed
//! playing through a private thread (what the closed DMs refused sent again there); a private
//! thread a moderator deletes, replaced, with nothing meant for it lost, and an order typed
//! in a private thread while the bot was down read back; hints that point the right way for
//! a player in a thread's game and a channel's. Every game replays.

use crate::bot::{connected, started, Bot};
use crate::fake::Permission;
use crate::{
    count, dm_to, in_channel, open_and_say, open_game, ALICE, BOB, CARCASSONNE_SEED3_OPENING,
    CAROL, CHANNEL,
};
use std::time::Duration;

/// Whether a post went to `channel`.
fn to(channel: u64) -> impl Fn(&crate::fake::Posted) -> bool {
    move |post| post.channel == channel
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_carcassonne_game_in_a_thread_of_a_channel_with_a_game_of_its_own() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    // The bot asked Discord for the servers' channels and threads.
    assert_eq!(fake.intents() & 1, 1, "GUILDS intent");
    // alice opens a thread of the TAG game's channel and a Carcassonne game in it.
    let thread = fake.open_thread(ALICE, CHANNEL, "carcassonne");
    let opening = CARCASSONNE_SEED3_OPENING;
    open_and_say(&fake, &mut db, ALICE, thread, "carcassonne seed=3", opening).await;
    // Everything a game does in a channel happens in its thread: sign-ups, the board with
    // its embed, picture and buttons, the moves.
    let board = fake
        .wait_post("bob's meeple", |p| {
            to(thread)(p) && p.text().contains("bob puts a farmer")
        })
        .await;
    assert!(
        !board.embeds.is_empty() && !board.files.is_empty(),
        "{board:?}"
    );
    assert!(
        fake.posts()
            .iter()
            .any(|p| to(thread)(p) && p.content.contains("alice joins game #2")),
        "the sign-ups are in the thread"
    );
    // A slash command there answers about the thread's game; `!status` in the channel about
    // the channel's.
    let slash = fake.slash(BOB, thread, "status", &[]);
    let answer = fake.wait_callback(slash).await;
    assert!(
        answer.content.contains("Game #2 (carcassonne)"),
        "{answer:?}"
    );
    let status = fake.say(CAROL, Some(CHANNEL), "!status");
    db.settled(&fake, status).await;
    fake.wait_post("the channel's status", |p| {
        in_channel(p) && p.content.contains("Game #1 (tag)")
    })
    .await;
    // `!games` names the thread as the game's home.
    let games = fake.say(BOB, Some(thread), "!games");
    db.settled(&fake, games).await;
    fake.wait_post("the list of games", |p| {
        to(thread)(p) && p.text().contains(&format!("<#{thread}>"))
    })
    .await;
    // The GM ends it there, and its audit page is posted there.
    for line in ["!end", "!audit"] {
        let id = fake.say(ALICE, Some(thread), line);
        db.settled(&fake, id).await;
    }
    let page = fake
        .wait_post("the audit page", |p| {
            to(thread)(p) && p.files.iter().any(|(name, _)| name.ends_with(".html"))
        })
        .await;
    assert!(page.content.contains("Game #2"), "{page:?}");
    assert_eq!(db.stop_and_replay(bot).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_archived_mid_game_is_reopened_by_the_next_post() {
    let (fake, _dir, mut db, bot) = connected().await;
    let thread = fake.open_thread(ALICE, CHANNEL, "tag");
    let opened =
        crate::commands::open_tag(&fake, thread, [ALICE, BOB, CAROL], "seed=7 deadline=6s");
    db.settled(&fake, *opened.last().unwrap()).await;
    // A secret order typed in the thread by mistake is deleted and warned about there.
    let exposed = fake.say(BOB, Some(thread), "bid 5");
    db.settled(&fake, exposed).await;
    fake.wait_post("the warning", |p| {
        to(thread)(p) && p.content.contains("secret")
    })
    .await;
    assert!(fake.deleted().contains(&exposed));
    // Discord archives the thread during the long wait; the deadline's post reopens it.
    fake.archive(thread);
    let reveal = fake
        .wait_for_post("the bids revealed", Duration::from_secs(20), |p| {
            to(thread)(p) && p.text().contains("Orders for bids")
        })
        .await;
    assert!(reveal.text().contains("the deadline passed"), "{reveal:?}");
    assert!(!fake.place(thread).unwrap().archived);
    assert_eq!(count(&fake, |p| p.content.contains("I gave up")), 0);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_thread_is_told_to_the_gm_and_the_game_brought_elsewhere() {
    let (fake, _dir, mut db, bot) = connected().await;
    fake.deny(Permission::ManageThreads);
    let thread = fake.open_thread(ALICE, CHANNEL, "tag");
    let opened =
        crate::commands::open_tag(&fake, thread, [ALICE, BOB, CAROL], "seed=7 deadline=6s");
    db.settled(&fake, *opened.last().unwrap()).await;
    // A moderator locks the thread; the deadline's post cannot go there, and the GM hears.
    fake.lock(thread);
    let told = fake
        .wait_for_post("the GM's note", Duration::from_secs(30), |p| {
            dm_to(ALICE)(p) && p.content.contains("I gave up delivering a message to")
        })
        .await;
    assert!(told.content.contains(&format!("<#{thread}>")), "{told:?}");
    assert!(told.content.contains("locked"), "{told:?}");
    // Nothing is lost: the GM brings the game to the channel, where it goes on.
    let home = fake.say(ALICE, Some(CHANNEL), "!home 1");
    db.settled(&fake, home).await;
    let moved = fake
        .wait_post_in(CHANNEL, "Game #1 (tag) lives here now")
        .await;
    assert!(!moved.files.is_empty(), "with its board: {moved:?}");
    // Only the GM brings a game; a channel with a game of its own takes none.
    let other = fake.say(BOB, Some(CHANNEL + 5), "!home 1");
    db.settled(&fake, other).await;
    fake.wait_post("bob's refusal", |p| {
        p.channel == CHANNEL + 5 && p.content.contains("Only the GM")
    })
    .await;
    for player in [ALICE, BOB, CAROL] {
        let bid = fake.say(player, None, "move nothing");
        db.settled(&fake, bid).await;
    }
    fake.wait_post_in(CHANNEL, "Orders for moves").await;
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_typed_in_threads_while_the_bot_was_down_are_read_back() {
    let (fake, _dir, mut db, bot) = connected().await;
    // A Parcheesi game in a thread (seed 7): alice's first move is in.
    let thread = fake.open_thread(ALICE, CHANNEL, "parcheesi");
    let lines = [
        (ALICE, "!join"),
        (BOB, "!join"),
        (ALICE, "!start"),
        (ALICE, "!move 1 2"),
    ];
    open_and_say(&fake, &mut db, ALICE, thread, "parcheesi seed=7", &lines).await;
    // A message on the server after it, so the bot saw the server last then.
    let seen = fake.say(CAROL, Some(CHANNEL), "hello");
    db.settled(&fake, seen).await;
    bot.kill();
    fake.wait_disconnected().await;
    // While it is down: bob moves in the game's thread, and carol opens a game in a thread
    // of her own, which nobody has told the bot about.
    let moved = fake.say(BOB, Some(thread), "!move 1 5");
    let fresh = fake.open_thread(CAROL, CHANNEL, "another");
    let opened = fake.say(CAROL, Some(fresh), "!new tag");
    let joined = fake.say(BOB, Some(fresh), "!join");
    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    for id in [moved, opened, joined] {
        db.settled(&fake, id).await;
    }
    fake.wait_post("bob's move", |p| {
        to(thread)(p) && p.text().contains("red (bob)")
    })
    .await;
    fake.wait_post("carol's game", |p| {
        to(fresh)(p) && p.content.contains("bob joins game #2")
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_dms_are_closed_plays_through_a_private_thread() {
    let (fake, _dir, mut db, bot) = connected().await;
    fake.close_dms(BOB.0);
    // The bids are due in 12 seconds, with a reminder 8 seconds before.
    let opened = crate::commands::open_tag(
        &fake,
        CHANNEL,
        [ALICE, BOB, CAROL],
        "seed=7 deadline=12s reminder=8s",
    );
    db.settled(&fake, *opened.last().unwrap()).await;
    // bob's welcome could not be sent: he gets a private thread of the game's channel, with
    // only him and the bot in it, and the channel says where.
    fake.wait("bob's thread", || !fake.threads_of(CHANNEL).is_empty())
        .await;
    let thread = fake.threads_of(CHANNEL)[0];
    // Discord makes the thread and adds bob in two requests: wait for the second.
    fake.wait("bob in his thread", || {
        fake.place(thread)
            .is_some_and(|place| place.members.contains(&BOB.0))
    })
    .await;
    let place = fake.place(thread).unwrap();
    assert_eq!(place.kind, crate::fake::Kind::PrivateThread);
    assert_eq!(
        place.members,
        [crate::fake::BOT_ID, BOB.0].into_iter().collect()
    );
    fake.wait_post("the notice", |p| {
        in_channel(p) && p.content.contains(&format!("<@102>: your direct messages are closed to me, so what game #1 says to you alone, and your secret orders, go in your private thread <#{thread}>."))
    })
    .await;
    // The welcome his closed DMs refused is sent again there, after the thread's own.
    fake.wait_post("bob's welcome, sent again", |p| {
        to(thread)(p) && p.content.starts_with("Welcome to game #1 (tag)")
    })
    .await;
    // The reminder reaches him there.
    fake.wait_for_post("bob's reminder", Duration::from_secs(15), |p| {
        to(thread)(p) && p.content.starts_with("Reminder for game #1")
    })
    .await;
    // He bids there: the receipt comes there, and nobody else's view shows his bid.
    let bid = fake.say(BOB, Some(thread), "bid 4");
    db.settled(&fake, bid).await;
    fake.wait_post("bob's receipt", |p| {
        to(thread)(p) && p.content.contains("order received for bids: `bid 4`")
    })
    .await;
    assert!(
        !fake.deleted().contains(&bid),
        "an order in his own thread stays"
    );
    let shown_elsewhere = fake
        .posts()
        .iter()
        .filter(|p| p.channel != thread && p.text().contains("bid 4"))
        .count();
    assert_eq!(shown_elsewhere, 0);
    // alice may not order in his thread.
    let intruder = fake.say(ALICE, Some(thread), "bid 9");
    db.settled(&fake, intruder).await;
    fake.wait_post("alice's refusal", |p| {
        to(thread)(p)
            && p.content
                .contains("this is <@102>'s private thread for game #1")
    })
    .await;
    for (who, bid) in [(ALICE, "bid 5"), (CAROL, "bid 3")] {
        let sent = fake.say(who, None, bid);
        db.settled(&fake, sent).await;
    }
    let reveal = fake.wait_post_in(CHANNEL, "Orders for bids").await;
    assert!(reveal.text().contains("- bob: `bid 4`"), "{reveal:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_thread_a_moderator_deletes_is_replaced_and_nothing_said_there_is_lost() {
    let (fake, _dir, mut db, bot) = connected().await;
    let opened = crate::commands::open_tag(
        &fake,
        CHANNEL,
        [ALICE, BOB, CAROL],
        "seed=7 orders=thread deadline=1h",
    );
    db.settled(&fake, *opened.last().unwrap()).await;
    // Each thread is made first and its player added next: wait for both.
    fake.wait("three private threads, each with its player", || {
        let threads = fake.threads_of(CHANNEL);
        threads.len() == 3
            && threads
                .iter()
                .all(|thread| fake.place(*thread).is_some_and(|p| p.members.len() == 2))
    })
    .await;
    let alices = *fake
        .threads_of(CHANNEL)
        .iter()
        .find(|thread| fake.place(**thread).unwrap().members.contains(&ALICE.0))
        .unwrap();
    // A moderator deletes alice's thread; she bids by DM: the receipt meant for her thread
    // reaches her by DM, and she gets a new thread.
    fake.delete_channel(alices);
    let bid = fake.say(ALICE, None, "bid 5");
    db.settled(&fake, bid).await;
    fake.wait_dm(ALICE, "order received for bids: `bid 5`")
        .await;
    fake.wait_post("the notice", |p| {
        in_channel(p)
            && p.content.contains(&format!(
                "<@{}>: I can no longer post in your private thread for game #1 (deleted, or locked by a moderator), so I am opening you a new one.",
                ALICE.0
            ))
    })
    .await;
    // The thread is made first and alice added to it next: wait for both.
    let hers = || {
        fake.threads_of(CHANNEL).into_iter().find(|thread| {
            *thread != alices && fake.place(*thread).unwrap().members.contains(&ALICE.0)
        })
    };
    fake.wait("alice's new thread", || hers().is_some()).await;
    let new = hers().unwrap();
    fake.wait_post("the new thread's welcome", |p| {
        to(new)(p) && p.content.contains("this thread is yours in game #1")
    })
    .await;
    // Her orders there are hers.
    let again = fake.say(ALICE, Some(new), "bid 6");
    db.settled(&fake, again).await;
    fake.wait_post("the receipt in the new thread", |p| {
        to(new)(p) && p.content.contains("order replaced for bids: `bid 6`")
    })
    .await;
    // carol bids in her thread while the bot is down: it is read back after the restart.
    let carols = *fake
        .threads_of(CHANNEL)
        .iter()
        .find(|thread| fake.place(**thread).unwrap().members.contains(&CAROL.0))
        .unwrap();
    bot.kill();
    fake.wait_disconnected().await;
    let late = fake.say(CAROL, Some(carols), "bid 3");
    let bot = Bot::start(&fake, db.path());
    fake.wait_ready().await;
    db.settled(&fake, late).await;
    fake.wait_post("carol's receipt after the restart", |p| {
        to(carols)(p) && p.content.contains("order received for bids: `bid 3`")
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_point_the_right_way_for_a_player_in_a_thread_and_a_channel() {
    let (fake, _dir, mut db, bot) = connected().await;
    // bob plays Carcassonne #1 in a thread and TAG #2 in the channel.
    let thread = fake.open_thread(ALICE, CHANNEL, "carcassonne");
    let mut ids = open_game(&fake, ALICE, thread, "carcassonne seed=3");
    for (who, line) in [(ALICE, "!join"), (BOB, "!join"), (ALICE, "!start")] {
        ids.push(fake.say(who, Some(thread), line));
    }
    ids.extend(crate::commands::open_tag(
        &fake,
        CHANNEL,
        [ALICE, BOB, CAROL],
        "seed=7",
    ));
    db.settled(&fake, *ids.last().unwrap()).await;
    // A bid by DM without a game number: the hint names the game that awaits bids.
    let bid = fake.say(BOB, None, "bid 3");
    db.settled(&fake, bid).await;
    fake.wait_post("the hint", |p| {
        dm_to(BOB)(p)
            && p.content.contains(
                "Put the game's number first, like `#2 bid 3` (game #2 awaits your bids).",
            )
    })
    .await;
    // The channel's spelling works by DM too.
    let bid = fake.say(BOB, None, "#2 !bid 3");
    db.settled(&fake, bid).await;
    fake.wait_post("bob's receipt", |p| {
        dm_to(BOB)(p)
            && p.content
                .contains("Game #2: order received for bids: `bid 3`")
    })
    .await;
    // A malformed placement in the thread is answered there with the form.
    let place = fake.say(ALICE, Some(thread), "!place 0 -1");
    db.settled(&fake, place).await;
    fake.wait_post("the form", |p| {
        to(thread)(p)
            && p.content.contains(
                "write `!place <x> <y> <rotation>`: the x and y of a square and a rotation",
            )
    })
    .await;
    assert_eq!(db.stop_and_replay(bot).await, 2);
}
