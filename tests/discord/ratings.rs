//! Ratings and records through the real binary on the fake Discord: TAG games ended by a
//! draw and by concessions rate their players in the game-over post; `!stats @bob`, `/stats`
//! and `!leaderboard tag` answer as embeds within Discord's limits (`/stats` and
//! `/leaderboard` as the interaction's own answer), the leaderboard with its chart, each
//! server seeing only its own games. Every game replays from its log.

use crate::bot::{fresh_database, Bot, Db};
use crate::commands::open_tag;
use crate::fake::{FakeDiscord, Posted};
use crate::{in_channel, ALICE, BOB, CAROL, CHANNEL, DAVE, ERIN};

/// A channel on another server.
const ELSEWHERE: u64 = 760;
/// That server.
const OTHER_GUILD: u64 = 801;

/// Whether `post` keeps within every limit Discord sets on a message's embeds.
fn within_embed_limits(post: &Posted) -> bool {
    let length = |embed: &serde_json::Value, key: &str| {
        embed[key].as_str().map_or(0, |text| text.chars().count())
    };
    post.embeds.len() <= 10
        && post.content.chars().count() <= 2000
        && post.embeds.iter().all(|embed| {
            let fields = embed["fields"].as_array().cloned().unwrap_or_default();
            let in_fields: usize = fields
                .iter()
                .map(|field| length(field, "name") + length(field, "value"))
                .sum();
            length(embed, "title") <= 256
                && length(embed, "description") <= 4096
                && fields.len() <= 25
                && length(embed, "title") + length(embed, "description") + in_fields <= 6000
        })
}

/// Plays a TAG game of `players` in `channel` to a draw everyone votes for (rated: its seed is
/// the bot's, as a chosen seed makes a practice game).
async fn drawn_tag(fake: &FakeDiscord, db: &mut Db, channel: u64, players: [(u64, &str); 3]) {
    let ids = open_tag(fake, channel, players, "");
    db.settled(fake, *ids.last().unwrap_or(&0)).await;
    for player in players {
        let vote = fake.say(player, Some(channel), "!draw");
        db.settled(fake, vote).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_and_the_leaderboard_answer_as_embeds_and_each_server_sees_its_own() {
    let fake = FakeDiscord::start().await;
    fake.put_channel_in(ELSEWHERE, OTHER_GUILD);
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let bot = Bot::start_with_env(
        &fake,
        &path,
        Default::default(),
        &[("REFEREE_TABLE_LEADERBOARD_GAMES", "2")],
    );
    fake.wait_ready().await;
    // Game 1: a draw. Game 2: carol, then bob, concede; alice is the last one in.
    drawn_tag(&fake, &mut db, CHANNEL, [ALICE, BOB, CAROL]).await;
    fake.wait_post_in(CHANNEL, "Ratings in tag on this server")
        .await;
    let ids = open_tag(&fake, CHANNEL, [ALICE, BOB, CAROL], "");
    db.settled(&fake, *ids.last().unwrap_or(&0)).await;
    for player in [CAROL, BOB] {
        let conceded = fake.say(player, Some(CHANNEL), "!concede");
        db.settled(&fake, conceded).await;
    }
    let over = fake
        .wait_post("the second game's end", |p| {
            in_channel(p)
                && p.text().contains("Final ranking:")
                && p.text().contains("Ratings in tag on this server")
                && p.text().contains("#2")
        })
        .await;
    let text = over.text();
    assert!(text.contains("alice "), "{text}");
    // Game 3, on another server: dave and erin never played on the first.
    drawn_tag(&fake, &mut db, ELSEWHERE, [ALICE, DAVE, ERIN]).await;
    fake.wait_post("the other server's ratings", |p| {
        p.channel == ELSEWHERE && p.text().contains("Ratings in tag on this server")
    })
    .await;

    // bob's record, typed with a mention.
    let asked = fake.say(ALICE, Some(CHANNEL), &format!("!stats <@{}>", BOB.0));
    db.settled(&fake, asked).await;
    let stats = fake
        .wait_post_in(CHANNEL, "bob's record on this server")
        .await;
    assert!(within_embed_limits(&stats), "{stats:?}");
    assert_eq!(stats.embeds.len(), 1, "{stats:?}");
    assert_eq!(stats.embeds[0]["title"], "bob's record on this server");
    let said = stats.text();
    assert!(
        said.contains("- tag: 2 played, 0 won, 1 drawn, 1 conceded, 0 abandoned;"),
        "{said}"
    );
    assert!(said.contains("rating "), "{said}");
    assert!(
        said.contains("#2 tag in <#700>: conceded, 2nd of 3 (`!audit 2` there)"),
        "{said}"
    );
    assert!(
        said.contains("#1 tag in <#700>: shared 1st of 3 (`!audit 1` there)"),
        "{said}"
    );
    assert!(!said.contains("#3"), "{said}");

    // alice's own record by slash command, on the other server: only its game.
    let slash = fake.slash(ALICE, ELSEWHERE, "stats", &[]);
    // The record is the interaction's own answer, in public, as an embed: no "done" aside,
    // and no second post of it in the channel.
    let answer = fake.wait_callback(slash).await;
    assert!(!answer.ephemeral, "{answer:?}");
    assert_eq!(answer.content, "", "{answer:?}");
    assert_eq!(answer.embeds.len(), 1, "{answer:?}");
    assert_eq!(answer.embeds[0]["title"], "alice's record on this server");
    let mine = Posted {
        id: 0,
        channel: ELSEWHERE,
        dm_user: None,
        content: answer.content.clone(),
        embeds: answer.embeds.clone(),
        components: Vec::new(),
        files: Vec::new(),
        nonce: None,
        at: std::time::Instant::now(),
    };
    assert!(within_embed_limits(&mine), "{mine:?}");
    assert!(
        !fake
            .posts()
            .iter()
            .any(|p| p.channel == ELSEWHERE && p.text().contains("alice's record on this server")),
        "the record was posted twice"
    );
    let mine = mine.text();
    assert!(mine.contains("- tag: 1 played, 0 won, 1 drawn"), "{mine}");
    assert!(mine.contains("#3 tag"), "{mine}");
    assert!(
        !mine.contains("#1 tag") && !mine.contains("#2 tag"),
        "{mine}"
    );

    // The leaderboard of this server: an embed with its chart, without dave or erin.
    let asked = fake.say(BOB, Some(CHANNEL), "!leaderboard tag");
    db.settled(&fake, asked).await;
    let board = fake
        .wait_post_in(CHANNEL, "Leaderboard of tag on this server")
        .await;
    assert!(within_embed_limits(&board), "{board:?}");
    assert_eq!(board.embeds[0]["title"], "tag leaderboard");
    assert!(
        board.embeds[0]["image"]["url"]
            .as_str()
            .is_some_and(|url| url.starts_with("attachment://")),
        "{board:?}"
    );
    assert!(
        board
            .files
            .iter()
            .any(|(name, bytes)| name.ends_with(".png") && !bytes.is_empty()),
        "{board:?}"
    );
    let listed = board.text();
    let line = |who: &str| {
        listed
            .lines()
            .position(|l| l.contains(&format!(". {who} ")))
    };
    assert!(listed.contains("\n1. alice "), "{listed}");
    assert!(line("bob").is_some() && line("carol").is_some(), "{listed}");
    assert!(line("dave").is_none() && line("erin").is_none(), "{listed}");
    // By slash command, the leaderboard and its chart are the interaction's answer.
    let slash = fake.slash(CAROL, CHANNEL, "leaderboard", &[("game", "tag")]);
    let answer = fake.wait_callback(slash).await;
    assert!(!answer.ephemeral, "{answer:?}");
    assert_eq!(answer.embeds.len(), 1, "{answer:?}");
    assert_eq!(answer.embeds[0]["title"], "tag leaderboard");
    assert!(
        answer.embeds[0]["image"]["url"]
            .as_str()
            .is_some_and(|url| url.starts_with("attachment://")),
        "{answer:?}"
    );
    assert_eq!(answer.files.len(), 1, "{answer:?}");

    assert_eq!(db.stop_and_replay(bot).await, 3);
}
