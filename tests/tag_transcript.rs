//! A whole 4-player TAG game through the real `referee script` binary: sign-up by posting,
//! bids and moves by DM, deadlines passing on the manual clock, one round forced by the GM, a
//! missing order defaulting, and the final ranking with master-of-games points.

mod common;

use common::{assert_says, replay_file, script_on_file, transcript_with_clock};

fn transcript() -> String {
    transcript_with_clock(
        &[
            "gm #tag: !new tag seed=5",
            "ann #tag: !join 🐱",
            "bob #tag: !join 🌈",
            "bob #tag: !join B",
            "cat #tag: !join",
            "dan #tag: !join D",
            "gm #tag: !start",
            "ann dm: bid 1",
            "bob dm: bid 2",
            "cat dm: bid 9",
            "dan dm: BID   2",
            "clock +4d",
            "ann dm: move n stomp",
            "bob dm: move e w",
            "bob dm: move w",
            "ann #tag: !resolve",
            "gm #tag: !resolve",
            "ann dm: move e stomp",
            "dan dm: move ne",
            "clock +2d",
            "ann dm: status",
        ],
        "clock +2d",
        60,
        &["gm #tag: !log 0", "gm #tag: !log 1"],
    )
}

#[test]
fn a_four_player_game_from_sign_up_to_ranking() {
    let dir = tempfile::tempdir().unwrap();
    let (db, out) = script_on_file(dir.path(), "tag.db", &transcript());
    assert_says(
        &out,
        &[
            "#tag <- bob: the underworld and rainbow symbols are reserved for the game; pick another symbol",
            "#tag <- Game #1 (tag) starts with ann (🐱), bob (B), cat, dan (D).",
            "#tag <- TAG begins with 4 players, each with 35 points, on a 5x5 grid.",
            "dm bob <- your bid 2 is below your minimum bid 3; send `bid 3` or more",
            "dm dan <- Game #1: order received for bids: `bid 2`.",
        ],
    );
    // The bid deadline (4 days) passes: bids are revealed and paid; bob's missing bid is his minimum.
    assert_says(
        &out,
        &[
            "#tag <- Orders for bids (the deadline passed):",
            "#tag <- bob (B): bid 3 (no bid, so the minimum), 32 points",
            "#tag <- ann (🐱) is it.",
            "#tag <- Next to be it, in order: dan (D), bob (B), cat (C), ann (🐱)",
            "#tag <- Placement: ann (🐱) on b5, bob (B) on e3, cat (C) on e5, dan (D) on a5.",
        ],
    );
    // Round 1: refused orders, a non-GM refused, the GM forces the round, defaults apply.
    assert_says(
        &out,
        &[
            "dm bob <- you have 1 move this round but the order gives 2; send exactly 1 (`nothing` to stay)",
            "#tag <- ann: Only the GM (gm) or a server admin can use `resolve`.",
            "#tag <- Orders for moves for round 1 (forced by the GM):",
            "#tag <- - cat: no order (the game's default)",
            "#tag <- ann (🐱): move n stomp, now on b4, 30 points",
            "#tag <- cat (C): move nothing stride (no order), now on e5, 27 points",
            "#tag <- ann (🐱) is it at the end of the round: -4.",
        ],
    );
    // Round 2 resolves at its deadline.
    assert!(out.contains("#tag <- Orders for moves for round 2 (the deadline passed):"));
    // The game runs to its end: everyone but one is eliminated; the ranking and points posted.
    assert_says(
        &out,
        &[
            "#tag <- Final ranking:",
            "#tag <- **Game over.** Master-of-games points: cat (C) 3, bob (B) 2, dan (D) 2, ann (🐱) 1.",
            "#tag <- 1. cat\n#tag <- 2. bob\n#tag <- 3. dan\n#tag <- 4. ann\n",
            "#tag <- Seed: `0500000000000000000000000000000000000000000000000000000000000000`",
        ],
    );
    // One numbering: the bids are round 0, "movement round 1" is `!log 1`.
    assert!(out.contains("#tag <- Game #1, round 0:"));
    assert!(
        out.contains("#tag <- - roll d"),
        "the log shows the minimum-bid draws"
    );
    assert_says(
        &out,
        &[
            "#tag <- Game #1, round 1:",
            "#tag <- - resolution: moves for round 1 (forced by the GM)",
        ],
    );

    replay_file(&db, "1");
}
