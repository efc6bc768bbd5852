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
    bot.stop();
    assert_eq!(db.replay_all().await, 2);
}
