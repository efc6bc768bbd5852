//! How a game ends when its players end it, through the real binary, in a thread and in a
//! channel: the concession that leaves one player in ends a Carcassonne game with no next turn
//! announced, `!who`, `!lb` and `!board` then answer about the ended game; a TAG draw with two
//! computer seats, after which `!stats bot1` finds the seat's record. Every game replays.

use crate::bot::connected;
use crate::fake::Posted;
use crate::{in_channel, open_and_say, ALICE, BOB, CAROL, CHANNEL};

/// Whether a post went to `channel`.
fn to(channel: u64) -> impl Fn(&Posted) -> bool {
    move |post| post.channel == channel
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_its_players_end_in_a_thread_and_in_a_channel_says_so_everywhere() {
    let (fake, _dir, mut db, bot) = connected().await;

    // In a thread: bob concedes, then alice on her own turn; carol is the last one in.
    let thread = fake.open_thread(ALICE, CHANNEL, "carcassonne");
    let lines = [
        (ALICE, "!join"),
        (BOB, "!join"),
        (CAROL, "!join"),
        (ALICE, "!start"),
    ];
    open_and_say(&fake, &mut db, ALICE, thread, "carcassonne", &lines).await;
    let conceded = fake.say(BOB, Some(thread), "!concede");
    db.settled(&fake, conceded).await;
    let seen = fake.posts().len();
    let conceded = fake.say(ALICE, Some(thread), "!concede");
    db.settled(&fake, conceded).await;
    fake.wait_post("the end", |p| {
        to(thread)(p)
            && p.text()
                .contains("Game #1 is over: carol is the last player in.")
    })
    .await;
    let after: Vec<Posted> = fake.posts_after(seen);
    assert!(
        !after
            .iter()
            .any(|p| p.text().contains("It is carol's turn")
                || p.text().contains("carol's turn: tile")),
        "a turn was announced after the game ended: {after:?}"
    );
    for (asked, answer) in [
        ("!who", "- bob (conceded): "),
        (
            "!lb",
            "Nobody has 3 rated games of carcassonne on this server yet",
        ),
        ("!board", "The game is over."),
    ] {
        let id = fake.say(CAROL, Some(thread), asked);
        db.settled(&fake, id).await;
        fake.wait_post(asked, |p| to(thread)(p) && p.text().contains(answer))
            .await;
    }
    assert!(
        !fake
            .posts()
            .iter()
            .any(|p| to(thread)(p) && p.text().contains("carol to place")),
        "a board of the ended game names a player to move"
    );

    // In the channel: a TAG draw with two computer seats; `!stats bot1` (the name the GM is
    // told) finds the computers' record, explained.
    let lines = [
        (ALICE, "!join"),
        (BOB, "!join"),
        (ALICE, "!join bot"),
        (ALICE, "!join bot"),
        (ALICE, "!start"),
        (ALICE, "!draw"),
        (BOB, "!draw"),
        (BOB, "!stats bot1"),
    ];
    open_and_say(&fake, &mut db, ALICE, CHANNEL, "tag", &lines).await;
    fake.wait_post("the draw's ratings", |p| {
        in_channel(p)
            && p.text()
                .contains("Final ranking:\n1. alice, bob, Computer 1, Computer 2")
            && p.text().matches("Computer (normal)").count() == 1
    })
    .await;
    let record = fake
        .wait_post("the computers' record", |p| {
            in_channel(p)
                && p.text()
                    .contains("Computer (normal)'s record on this server")
        })
        .await;
    assert!(
        record.text().contains("they are rated as one player"),
        "{record:?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 2);
}
