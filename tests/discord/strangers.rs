//! Strangers on Discord through the real binary: one account flooding the bot with commands
//! is told once to slow down and gets no more applied than its limit, even read back after a
//! restart; an edited order or command is answered, once, and changes nothing; a vacation
//! given back at once holds nothing, a paused game keeps its clock but takes secret orders,
//! and a kicked player is told. Every game replays from its log.

use crate::bot::{connected, fresh_database, started, Bot, Db, Settings};
use crate::fake::FakeDiscord;
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_commands_in_five_seconds_are_slowed_and_stay_set_aside_after_a_restart() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    // The bot's own limit: 30 commands at once, 30 more every 20 seconds.
    let limited = Settings {
        flood: None,
        ..Settings::default()
    };
    let bot = Bot::start_with(&fake, &path, limited);
    crate::commands::start_tag_for_three(&fake).await;
    tokio::time::sleep(Duration::from_secs(1)).await;

    // alice sends 100 commands in 5 seconds.
    let mut ids = Vec::new();
    for n in 1..=100 {
        ids.push(fake.say(ALICE, Some(CHANNEL), &format!("!zz{n}")));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for id in &ids {
        db.settled(&fake, *id).await;
    }
    let answered = |fake: &FakeDiscord| {
        count(fake, |p| {
            in_channel(p) && p.content.contains("There is no command `!zz")
        })
    };
    let slowed = |fake: &FakeDiscord| count(fake, |p| p.content.contains("slow down"));
    // Thirty at once (less the three of the game's opening), and 1.5 more a second: at most
    // 38 in 5 seconds.
    let applied = answered(&fake);
    assert!((20..=38).contains(&applied), "{applied} applied");
    assert_eq!(slowed(&fake), 1, "one answer says to slow down");
    let warning = fake
        .posts()
        .into_iter()
        .find(|p| p.content.contains("slow down"))
        .unwrap();
    assert!(
        warning
            .content
            .starts_with("alice: slow down: you sent commands faster than I take them from one person (30 at once, then 30 every 20 seconds)"),
        "{warning:?}"
    );

    // After a restart the catch-up reads the channel again: what was set aside stays so.
    bot.kill();
    fake.wait_disconnected().await;
    let bot = Bot::start_with(&fake, &path, limited);
    fake.wait_ready().await;
    let status = fake.say(BOB, Some(CHANNEL), "!status");
    db.settled(&fake, status).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(answered(&fake), applied);
    assert_eq!(slowed(&fake), 1);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_order_or_command_is_answered_once_and_changes_nothing() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    let bid = fake.say(BOB, None, "bid 3");
    db.settled(&fake, bid).await;

    // bob edits his bid, twice: one answer, and the bid stays 3.
    let before = count(&fake, dm_to(BOB));
    fake.edit(bid, BOB, None, "bid 9");
    fake.edit(bid, BOB, None, "bid 12");
    fake.wait_dm(BOB, "not their edits").await;
    let status = fake.say(BOB, None, "status");
    db.settled(&fake, status).await;
    let answer = fake
        .posts()
        .into_iter()
        .rfind(|p| dm_to(BOB)(p) && p.content.contains("Your order:"))
        .expect("bob's status");
    assert!(answer.content.contains("Your order: `bid 3`"), "{answer:?}");
    assert_eq!(
        count(&fake, |p| dm_to(BOB)(p)
            && p.content.contains("not their edits")),
        1
    );
    assert_eq!(count(&fake, dm_to(BOB)), before + 2);

    // An edited command in the channel is answered there; edited chatter is not.
    let command = fake.say(ALICE, Some(CHANNEL), "!status");
    let chatter = fake.say(ALICE, Some(CHANNEL), "good luck all");
    db.settled(&fake, chatter).await;
    fake.edit(chatter, ALICE, Some(CHANNEL), "good luck everyone");
    fake.edit(command, ALICE, Some(CHANNEL), "!board");
    let answer = fake
        .wait_post("the answer in the channel", |p| {
            in_channel(p) && p.content.contains("not their edits")
        })
        .await;
    assert!(
        answer.content.starts_with("alice: I read messages as they were sent, not their edits, so your edit ('!board') changes nothing."),
        "{answer:?}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        count(&fake, |p| p.content.contains("not their edits")),
        2,
        "{:#?}",
        fake.posts()
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_given_back_holds_nothing_and_a_pause_stops_the_clock_but_takes_orders() {
    let (fake, _dir, mut db, bot) = connected().await;
    // The bids are due in 8 seconds, on the real clock.
    let opened = crate::commands::open_tag(
        &fake,
        CHANNEL,
        [ALICE, BOB, CAROL],
        "seed=7 deadline=8s grace=1s",
    );
    db.settled(&fake, *opened.last().unwrap()).await;
    let waiting = fake.wait_post_in(CHANNEL, "Waiting for bids").await.text();
    let due = waiting
        .split("Deadline: <t:")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .expect("the deadline")
        .to_string();

    // bob takes a fortnight off and is back at once: the deadline comes back where it was.
    let away = fake.say(BOB, None, "vacation 14d");
    db.settled(&fake, away).await;
    let back = fake.say(BOB, None, "vacation off");
    db.settled(&fake, back).await;
    let told = fake
        .wait_post_in(CHANNEL, "bob is back from vacation")
        .await;
    assert!(
        told.text()
            .contains(&format!("The deadline moves back to <t:{due}:f>")),
        "{due} in {told:?}"
    );

    // The GM pauses: carol's bid by DM is still taken and receipted, and the deadline passes
    // without resolving.
    let pause = fake.say(ALICE, Some(CHANNEL), "!pause");
    db.settled(&fake, pause).await;
    let bid = fake.say(CAROL, None, "bid 4");
    db.settled(&fake, bid).await;
    let receipt = fake
        .wait_dm(CAROL, "order received for bids: `bid 4`")
        .await;
    let code = receipt
        .content
        .split("Receipt `")
        .nth(1)
        .expect("a receipt");
    assert!(
        code[..16].chars().all(|c| c.is_ascii_hexdigit()),
        "{receipt:?}"
    );
    assert!(!code[..16].contains("bid"), "{receipt:?}");
    tokio::time::sleep(Duration::from_secs(9)).await;
    assert_eq!(count(&fake, |p| p.text().contains("Orders for bids")), 0);

    // carol is kicked while paused: she is told, the board counts two, and her bid is gone.
    let kick = fake.say(ALICE, Some(CHANNEL), "!kick carol");
    db.settled(&fake, kick).await;
    fake.wait_dm(CAROL, "the GM removed you from the game")
        .await;
    fake.wait_post_in(CHANNEL, "TAG, bids, 2 players").await;
    let late = fake.say(CAROL, None, "bid 2");
    db.settled(&fake, late).await;
    fake.wait_dm(CAROL, "was not taken").await;

    // Both bids in while paused; the resume resolves them at once.
    for (who, text) in [(ALICE, "bid 5"), (BOB, "bid 3")] {
        let id = fake.say(who, None, text);
        db.settled(&fake, id).await;
    }
    assert_eq!(count(&fake, |p| p.text().contains("Orders for bids")), 0);
    let resume = fake.say(ALICE, Some(CHANNEL), "!resume");
    db.settled(&fake, resume).await;
    let resolved = fake.wait_post_in(CHANNEL, "Orders for bids").await;
    assert!(
        resolved.text().contains("every order is in"),
        "{resolved:?}"
    );
    assert!(!resolved.text().contains("carol"), "{resolved:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
