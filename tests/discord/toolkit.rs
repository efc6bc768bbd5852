//! The GM's toolkit through the real binary on the fake Discord: a round resolved, then
//! taken back by the GM's typed `!undo` and resolved again; a player's vacation by slash
//! command; `!who`; a unanimous `!draw`. The game replays from its log afterwards.

use crate::bot::{fresh_database, Bot, Db};
use crate::fake::FakeDiscord;
use crate::{in_channel, ALICE, BOB, CAROL, CHANNEL};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_vacation_who_and_draw_typed_on_discord() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let bot = Bot::start(&fake, &path);
    crate::commands::start_tag_for_three(&fake).await;
    for (player, bid) in [(ALICE, "bid 5"), (BOB, "bid 5"), (CAROL, "bid 3")] {
        fake.say(player, None, bid);
    }
    fake.wait_post("the bids revealed", |p| {
        in_channel(p) && p.text().contains("Orders for bids (every order is in)")
    })
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
        in_channel(p) && p.content.starts_with("bob is on vacation for 3d, until ")
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
    bot.stop();
    assert_eq!(db.replay_all().await, 1);
}
