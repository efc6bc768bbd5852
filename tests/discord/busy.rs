//! A busy server through the real binary: a game of forty players with long names posts its
//! board with a picture and an embed Discord accepts, and a player's order in one game is
//! answered at once while the solver works on another game's impossible call. Every game
//! replays from its log afterwards.

use crate::bot::connected;
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL, ERIN};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forty_player_board_posts_its_picture_and_an_embed_discord_accepts() {
    let (fake, _dir, mut db, bot) = connected().await;
    let gm = ALICE;
    let players: Vec<(u64, String)> = (0..40)
        .map(|n| (200 + n, format!("player-{n:02}-with-a-long-name-xyz")))
        .collect();
    assert!(players.iter().all(|(_, name)| name.chars().count() == 30));
    crate::open_game(&fake, gm, CHANNEL, "tag seed=3");
    for (id, name) in &players {
        fake.say((*id, name), Some(CHANNEL), "!join");
    }
    let start = fake.say(gm, Some(CHANNEL), "!start");
    db.settled(&fake, start).await;

    let board = fake
        .wait_post("the start board", |p| {
            in_channel(p) && !p.embeds.is_empty() && p.text().contains("(bids awaited)")
        })
        .await;
    let picture = board
        .files
        .iter()
        .find(|(name, _)| name == "board.png")
        .map(|(_, png)| png)
        .expect("the board comes with its picture");
    let width = u32::from_be_bytes(picture[16..20].try_into().unwrap());
    assert!(width <= 1600, "a picture {width} px wide");
    let embed = &board.embeds[0];
    assert_eq!(embed["image"]["url"], "attachment://board.png");
    let waiting = embed["fields"][0]["value"].as_str().unwrap();
    assert_eq!(embed["fields"][0]["name"], "Waiting for");
    assert!(waiting.chars().count() <= 1024, "{waiting}");
    assert!(waiting.ends_with(" more"), "{waiting}");
    let fields = embed["fields"].as_array().unwrap();
    assert!(fields.len() <= 25);
    // Nothing was refused, and the GM was told of nothing given up.
    assert_eq!(
        count(&fake, |p| p.content.contains("I gave up delivering")),
        0,
        "{:#?}",
        fake.posts()
    );
    // (Only the seed's setup by DM is answered there.)
    assert_eq!(
        count(&fake, |p| dm_to(gm)(p)
            && !p.content.starts_with("Secret setup")),
        0
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// A duel on a 15x14 board whose vertical wall of crossroads leaves the solver thinking for
/// seconds, ready for bob's impossible call.
const SLOW_DUEL: &[(u64, &str, &str)] = &[
    (ALICE.0, "gm", "!new shortcircuit"),
    (BOB.0, "bob", "!join"),
    (CAROL.0, "carol", "!join"),
    (
        ALICE.0,
        "dm",
        "setup board=15x14 straight=12 turn=14 cross=10 thunder=3 first=bob impossible=solver",
    ),
    (ALICE.0, "gm", "!start"),
    (BOB.0, "bob", "!place i1 turn 90 i2 cross i3 straight 0"),
    (
        CAROL.0,
        "carol",
        "!place i4 straight 0 i5 straight 0 i6 straight 0",
    ),
    (BOB.0, "bob", "!place i7 straight 0 i8 cross i9 straight 0"),
    (
        CAROL.0,
        "carol",
        "!place i10 cross i11 straight 0 i12 straight 0",
    ),
    (BOB.0, "bob", "!place i13 cross i14 turn 0"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_is_answered_at_once_while_the_solver_works_on_another_game() {
    // Game #1: a TAG game in the other channel, its bids open.
    let (fake, _dir, mut db, bot) = crate::commands::bot_beside_tag_bids().await;
    // Game #2: the duel, up to the call.
    for (user, who, text) in SLOW_DUEL {
        let id = match *who {
            "dm" => fake.say((*user, "alice"), None, text),
            name => fake.say((*user, name), Some(CHANNEL), text),
        };
        db.settled(&fake, id).await;
    }
    let call = fake.say(CAROL, Some(CHANNEL), "!impossible");
    fake.wait_post_in(CHANNEL, "The solver is judging").await;
    // While the solver works, a bid in the other game gets its receipt at once.
    let receipts = count(&fake, dm_to(ERIN));
    let (receipt, waited) = crate::commands::erins_bid_answered(&fake).await;
    assert!(count(&fake, dm_to(ERIN)) > receipts);
    fake.wait_for("the solver's verdict", Duration::from_secs(120), || {
        fake.posts()
            .iter()
            .any(|p| in_channel(p) && p.text().contains("the solver proves"))
    })
    .await;
    let verdict = fake
        .posts()
        .into_iter()
        .find(|p| in_channel(p) && p.text().contains("the solver proves"))
        .unwrap();
    assert!(
        verdict
            .text()
            .contains("carol wins: the solver proves the circuit cannot be completed"),
        "{verdict:?}"
    );
    assert!(
        verdict.at > receipt.at,
        "the receipt came while the solver was still working"
    );
    assert!(
        waited < Duration::from_millis(200),
        "the receipt took {waited:?}"
    );
    db.settled(&fake, call).await;
    assert_eq!(db.stop_and_replay(bot).await, 2);
}
