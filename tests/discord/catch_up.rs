//! The catch-up after downtime goes game by game without holding the table: a live message to
//! a game already read back is answered at once while another game's history is still being
//! read, even right after a message to that game, which waits for what was missed there.

use crate::bot::{connected, Bot};
use crate::fake::FakeDiscord;
use crate::{open_game, ALICE, BOB, CAROL, CHANNEL, DAVE};
use std::time::Duration;

/// Where in everything the bot posted the first post in `channel` containing `text` is.
fn position(fake: &FakeDiscord, channel: u64, text: &str) -> usize {
    fake.posts()
        .iter()
        .position(|post| post.channel == channel && post.content.contains(text))
        .unwrap_or_else(|| panic!("no post with {text:?} in {channel}: {:#?}", fake.posts()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_read_back_slowly_holds_up_neither_another_game_nor_its_own_order() {
    let (fake, dir, mut db, bot) = connected().await;
    let path = dir.path().join("referee.db");
    // Alice's Parcheesi game in a thread, carol's TAG game in a channel: no player shared.
    let thread = fake.open_thread(ALICE, CHANNEL, "parcheesi");
    open_game(&fake, ALICE, thread, "parcheesi");
    fake.say(ALICE, Some(thread), "!join");
    let other = CHANNEL + 1;
    open_game(&fake, CAROL, other, "tag");
    let last = fake.say(CAROL, Some(other), "!join");
    db.settled(&fake, last).await;
    bot.kill();
    fake.wait_disconnected().await;

    // While the bot is down bob joins alice's game; the thread's history is slow to read.
    let missed = fake.say(BOB, Some(thread), "!join");
    fake.slow_history(thread, Duration::from_secs(6));
    let listed_before = fake.requests().get("list channels").copied();
    let before = fake.post_count();
    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    // Alice asks for her game's status live: it waits for bob's join, missed before it.
    let status = fake.say(ALICE, Some(thread), "!status");
    // Dave joins carol's game right after: answered while the thread is still being read.
    fake.say(DAVE, Some(other), "!join");
    fake.wait_post_in(other, "dave joins game #2").await;
    assert!(
        !fake
            .posts_after(before)
            .iter()
            .any(|post| post.channel == thread),
        "the thread was read before dave was answered: {:#?}",
        fake.posts()
    );
    db.settled(&fake, status).await;
    assert!(db.applied(missed).await);
    fake.wait_post_in(thread, "Game #1 (parcheesi)").await;
    assert!(
        position(&fake, other, "dave joins game #2") < position(&fake, thread, "bob joins game #1")
    );
    assert!(
        position(&fake, thread, "bob joins game #1")
            < position(&fake, thread, "Game #1 (parcheesi)")
    );
    // The servers came with the session (GUILD_CREATE): none was listed by a request.
    assert_eq!(fake.requests().get("list channels").copied(), listed_before);
    assert_eq!(db.stop_and_replay(bot).await, 2);
}

/// After a restart the bot reads no channel whose last message is its own post made before
/// its mark (it notes every ten seconds that what was sent until ten seconds before was
/// applied), and reads the one where a player wrote while it was down.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_reads_only_the_channels_with_something_new() {
    let (fake, dir, mut db, bot) = connected().await;
    let path = dir.path().join("referee.db");
    let other = CHANNEL + 1;
    open_game(&fake, CAROL, CHANNEL, "tag");
    let last = *open_game(&fake, DAVE, other, "tag").last().unwrap();
    db.settled(&fake, last).await;
    // The bot runs on until its mark has passed its last posts.
    let marked = "SELECT COUNT(*) FROM meta WHERE key = 'caught-up-0-of-1' \
                  AND CAST(value AS INTEGER) > (SELECT MAX(message) FROM posted)";
    for _ in 0..300 {
        if db.number(marked).await == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(db.number(marked).await, 1, "no mark past the bot's posts");
    bot.kill();
    fake.wait_disconnected().await;
    let joined = fake.say(ALICE, Some(other), "!join");
    let read_before = fake.requests().get("history").copied().unwrap_or(0);
    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    db.settled(&fake, joined).await;
    fake.wait_post_in(other, "alice joins game #2").await;
    // Only the channel alice wrote in was read: carol's game, and both GMs' DMs, were not.
    let read = fake.requests().get("history").copied().unwrap_or(0) - read_before;
    assert_eq!(read, 1, "{:?}", fake.requests());
    assert_eq!(db.stop_and_replay(bot).await, 2);
}
