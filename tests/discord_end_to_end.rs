//! The real `referee run` binary against a local Discord-compatible server: what players see
//! in channels, by DM and in interaction responses.

mod fake_discord;

use fake_discord::{FakeDiscord, Posted, TOKEN};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHANNEL: u64 = 700;
const ALICE: (u64, &str) = (101, "alice");
const BOB: (u64, &str) = (102, "bob");
const CAROL: (u64, &str) = (103, "carol");
const DAVE: (u64, &str) = (104, "dave");
const ERIN: (u64, &str) = (105, "erin");

/// The bot process, stopped with SIGTERM when the test ends.
struct Bot {
    child: Child,
    _dir: tempfile::TempDir,
}

impl Bot {
    fn start(fake: &FakeDiscord) -> Bot {
        Bot::start_with(fake, "1s", 8)
    }

    /// A bot whose first retry after a passing error waits `retry`, and which gives a message
    /// up after `attempts` failed attempts.
    fn start_with(fake: &FakeDiscord, retry: &str, attempts: u32) -> Bot {
        let dir = tempfile::tempdir().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["run", "--db"])
            .arg(dir.path().join("referee.db"))
            .env("DISCORD_TOKEN", TOKEN)
            .env("REFEREE_DISCORD_API_URL", &fake.url)
            .env("REFEREE_DISCORD_GUILDS", fake_discord::GUILD.to_string())
            .env("REFEREE_DISCORD_RETRY", retry)
            .env("REFEREE_DISCORD_ATTEMPTS", attempts.to_string())
            .env("REFEREE_DISCORD_ADMINS", ALICE.0.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        Bot { child, _dir: dir }
    }

    /// SIGTERM, then the exit status must be success.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "referee run exited with {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("referee run did not stop on SIGTERM");
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn in_channel(post: &Posted) -> bool {
    post.channel == CHANNEL
}

fn dm_to(user: (u64, &str)) -> impl Fn(&Posted) -> bool {
    move |post| post.dm_user == Some(user.0)
}

fn count(fake: &FakeDiscord, pred: impl Fn(&Posted) -> bool) -> usize {
    fake.posts().iter().filter(|p| pred(p)).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_board_embed_picture_and_buttons() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake);
    fake.wait_ready().await;
    assert!(fake.commands().contains(&"join".to_string()));
    assert!(fake.commands().contains(&"order".to_string()));
    // Autocompletion offers the games this bot hosts for /new.
    let typed = fake.autocomplete(ALICE, CHANNEL, "new", "game", "pa");
    let offered = fake.wait_callback(typed).await;
    assert_eq!(offered.kind, 8);
    assert_eq!(
        offered.choices,
        [("parcheesi".to_string(), "parcheesi".to_string())]
    );

    fake.say(ALICE, Some(CHANNEL), "!new parcheesi seed=3");
    let opened = fake
        .wait_post("the sign-up post", |p| {
            in_channel(p) && !p.buttons().is_empty()
        })
        .await;
    let (join_id, label) = opened.buttons()[0].clone();
    assert_eq!(label, "Join");

    // Bob joins with the button, alice with the slash command.
    let press = fake.press(BOB, &opened, &join_id);
    assert_eq!(fake.wait_callback(press).await.kind, 6);
    fake.wait_post("bob's sign-up", |p| {
        in_channel(p) && p.content.contains("bob")
    })
    .await;
    let slash = fake.slash(ALICE, CHANNEL, "join", &[]);
    let answer = fake.wait_callback(slash).await;
    assert!(!answer.ephemeral);
    assert!(answer.content.contains("alice"), "{answer:?}");

    // A slash command whose option does not fit gets one sentence, privately, instead of
    // poise's own error text.
    let odd = fake.slash_with(
        ALICE,
        CHANNEL,
        "deadline",
        vec![serde_json::json!({"name": "when", "type": 4, "value": 48})],
    );
    let answer = fake.wait_callback(odd).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "I could not read that `deadline`; `!help deadline` shows how to write it."
    );

    fake.say(ALICE, Some(CHANNEL), "!start");
    let board = fake
        .wait_post("the board", |p| in_channel(p) && !p.embeds.is_empty())
        .await;
    let embed = &board.embeds[0];
    assert!(embed["title"].as_str().unwrap().contains("parcheesi"));
    let fields = embed["fields"].as_array().unwrap();
    let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(names.iter().any(|n| n.contains("alice")), "{names:?}");
    assert!(names.iter().any(|n| n.contains("bob")), "{names:?}");
    let deadline = fields
        .iter()
        .find(|f| f["name"] == "Deadline")
        .expect("a deadline field");
    let value = deadline["value"].as_str().unwrap();
    assert!(
        value.starts_with("<t:") && value.contains(":R>") && value.contains(":f>"),
        "{value}"
    );
    assert_eq!(embed["image"]["url"], "attachment://board.png");
    assert_eq!(board.files.len(), 1);
    assert_eq!(board.files[0].0, "board.png");
    assert_eq!(&board.files[0].1[..4], b"\x89PNG");

    // The player to act gets the legal steps as buttons; the other player's press is
    // refused privately, the mover's press plays the step in the channel.
    let steps = fake
        .wait_post("step buttons", |p| {
            in_channel(p)
                && p.buttons()
                    .iter()
                    .any(|(_, l)| l.starts_with("enter") || l.starts_with("move"))
        })
        .await;
    let (step_id, step) = steps.buttons()[0].clone();
    // With seed 3, bob (green, first to join) rolls 6 5 and may enter a pawn.
    let (mover, other) = (BOB, ALICE);
    let posts_before = fake.posts().len();
    let refused = fake.press(other, &steps, &step_id);
    let refusal = fake.wait_callback(refused).await;
    assert!(refusal.ephemeral, "{refusal:?}");
    assert!(
        refusal.content.contains("only they can press it"),
        "{refusal:?}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        fake.posts().len(),
        posts_before,
        "a refused press posts nothing"
    );
    let pressed = fake.press(mover, &steps, &step_id);
    assert_eq!(fake.wait_callback(pressed).await.kind, 6);
    fake.wait("the step to be played", || {
        fake.posts().len() > posts_before
    })
    .await;
    let played = &fake.posts()[posts_before];
    assert!(in_channel(played));
    let said = played.text();
    assert!(
        said.contains("green (bob) brings pawn 1 out of the nest"),
        "{step}: {said}"
    );
    bot.stop();
}

/// Once the bot is connected: alice opens a TAG game, alice, bob and carol join, it starts.
async fn start_tag_for_three(fake: &FakeDiscord) {
    fake.wait_ready().await;
    fake.say(ALICE, Some(CHANNEL), "!new tag seed=7");
    for player in [ALICE, BOB, CAROL] {
        fake.say(player, Some(CHANNEL), "!join");
    }
    fake.say(ALICE, Some(CHANNEL), "!start");
    fake.wait_post("the board", |p| in_channel(p) && !p.embeds.is_empty())
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_orders_by_dm_closed_dms_and_the_ephemeral_order() {
    let fake = FakeDiscord::start().await;
    fake.close_dms(BOB.0);
    let bot = Bot::start(&fake);
    start_tag_for_three(&fake).await;

    // A secret order by DM, with its receipt by DM.
    let before = count(&fake, dm_to(ALICE));
    fake.say(ALICE, None, "bid 5");
    fake.wait("alice's receipt", || count(&fake, dm_to(ALICE)) > before)
        .await;
    let receipt = fake.posts().into_iter().rfind(dm_to(ALICE)).unwrap();
    assert!(receipt.content.contains("5"), "{receipt:?}");
    assert!(!fake
        .posts()
        .iter()
        .any(|p| in_channel(p) && p.content.contains("bid 5")));

    // Bob's DMs are closed: the channel hears it, with a mention, and bob orders privately.
    fake.say(BOB, None, "bid 3");
    let notice = fake
        .wait_post("the closed-DM notice", |p| {
            in_channel(p) && p.content.contains("<@102>") && p.content.contains("/order")
        })
        .await;
    assert!(notice.content.contains("direct messages"));
    let order = fake.slash(BOB, CHANNEL, "order", &[("order", "bid 4")]);
    let answer = fake.wait_callback(order).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(answer.content.contains("for bids: `bid 4`"), "{answer:?}");
    assert!(!fake.posts().iter().any(|p| p.text().contains("bid 4")));

    // The last bid resolves the round; in the moves round a move order's receipt offers
    // stomp and stride as buttons, and pressing one replaces the order.
    fake.say(CAROL, None, "bid 3");
    fake.wait_post("the moves round", |p| {
        in_channel(p) && p.text().contains("Send your moves")
    })
    .await;
    fake.say(ALICE, None, "move n stomp");
    let receipt = fake
        .wait_post("the move receipt", |p| {
            dm_to(ALICE)(p) && p.content.contains("`move n stomp`")
        })
        .await;
    let buttons = receipt.buttons();
    let labels: Vec<&str> = buttons.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(labels, ["stomp", "stride"]);
    let refused = fake.press(CAROL, &receipt, &buttons[1].0);
    assert!(fake.wait_callback(refused).await.ephemeral);
    let pressed = fake.press(ALICE, &receipt, &buttons[1].0);
    assert_eq!(fake.wait_callback(pressed).await.kind, 6);
    fake.wait_post("the stride receipt", |p| {
        dm_to(ALICE)(p) && p.content.contains("`move n stride`")
    })
    .await;

    // Autocompletion offers the player's own games for /order.
    let typed = fake.autocomplete(ALICE, CHANNEL, "order", "game", "");
    let offered = fake.wait_callback(typed).await;
    assert_eq!(offered.kind, 8);
    assert_eq!(offered.choices, [("#1 tag".to_string(), "#1".to_string())]);
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_event_applies_once_and_a_429_is_retried_once() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake);
    fake.wait_ready().await;
    fake.say(ALICE, Some(CHANNEL), "!new tag seed=7");
    fake.wait_post("the sign-up", in_channel).await;

    // The same MESSAGE_CREATE twice (as after a gateway replay): bob joins once. Messages
    // sent in a burst are applied in the order they arrived.
    let id = fake.id();
    let join = fake.message(id, BOB, Some(CHANNEL), "!join");
    fake.dispatch("MESSAGE_CREATE", join.clone());
    fake.dispatch("MESSAGE_CREATE", join);
    for player in [CAROL, DAVE, ERIN] {
        fake.say(player, Some(CHANNEL), "!join");
    }
    fake.wait_post("erin's sign-up", |p| {
        in_channel(p) && p.content.contains("erin")
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let joins: Vec<String> = fake
        .posts()
        .iter()
        .filter(|p| in_channel(p) && p.content.contains(" joins game"))
        .map(|p| p.content.clone())
        .collect();
    assert_eq!(joins.len(), 4, "{joins:#?}");
    for (n, name) in ["bob", "carol", "dave", "erin"].iter().enumerate() {
        assert!(joins[n].starts_with(name), "{joins:#?}");
        assert!(
            joins[n].contains(&format!("{} player", n + 1)),
            "{joins:#?}"
        );
    }

    // Discord answers 429 once: the post is retried and arrives exactly once, and the
    // channel's next post waits for it.
    let before = fake.posts().len();
    fake.fail_next_posts(1, 429);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.say(ALICE, Some(CHANNEL), "!status");
    fake.wait("both answers", || fake.posts().len() >= before + 2)
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = fake.posts();
    assert_eq!(fake.refused(), 1);
    assert_eq!(posts.len(), before + 2, "{posts:#?}");
    assert!(posts[before].content.starts_with("Games"), "{posts:#?}");
    assert!(posts[before].content.contains("tag"));
    assert!(
        !posts[before + 1].content.starts_with("Games"),
        "{posts:#?}"
    );

    // Messages of bots (another bot's `!new`) are ignored.
    let robot = fake.message(fake.id(), (555, "robot"), Some(CHANNEL + 1), "!new tag");
    let mut robot = robot;
    robot["author"]["bot"] = serde_json::json!(true);
    fake.dispatch("MESSAGE_CREATE", robot);
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(!fake.posts().iter().any(|p| p.channel == CHANNEL + 1));

    // Words poise cannot split (an unclosed quote) still get the table's answer.
    fake.say(ALICE, Some(CHANNEL + 2), "!replace \"bob carol");
    let answer = fake
        .wait_post("an answer to the unclosed quote", |p| {
            p.channel == CHANNEL + 2
        })
        .await;
    assert!(answer.content.starts_with("alice"), "{answer:?}");

    // A post Discord refuses for good (the bot lost its permissions in the channel) is given
    // up once, and the GM hears about it by DM.
    fake.forbid(CHANNEL);
    fake.say(BOB, Some(CHANNEL), "!status");
    let note = fake.wait_post("the GM's note", dm_to(ALICE)).await;
    assert!(
        note.content
            .contains("I gave up delivering a message to <#700>"),
        "{note:?}"
    );
    assert!(note.content.contains("Missing Permissions"), "{note:?}");
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_is_retried_and_a_post_that_keeps_failing_is_given_up() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start_with(&fake, "1s", 3);
    fake.wait_ready().await;
    fake.say(ALICE, Some(CHANNEL), "!new tag seed=7");
    fake.wait_post("the sign-up", in_channel).await;

    // A 502 passes: the post is tried again and arrives once.
    fake.fail_next_posts(1, 502);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.wait_post("the list of games", |p| p.content.starts_with("Games"))
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(fake.refused(), 1);
    assert_eq!(count(&fake, |p| p.content.starts_with("Games")), 1);

    // A post that fails on all three attempts is given up, and the GM hears why by DM.
    let before = fake.posts().len();
    fake.fail_next_posts(3, 503);
    fake.say(BOB, Some(CHANNEL), "!status");
    let note = fake.wait_post("the GM's note", dm_to(ALICE)).await;
    assert!(
        note.content
            .contains("I gave up delivering a message to <#700>: still failing after 3 attempts"),
        "{note:?}"
    );
    assert!(note.content.contains("HTTP 503"), "{note:?}");
    assert_eq!(fake.refused(), 4);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = &fake.posts()[before..];
    assert!(!later.iter().any(in_channel), "{later:#?}");
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_reconnect_mid_game_loses_and_repeats_nothing() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake);
    start_tag_for_three(&fake).await;
    let bid = fake.message(fake.id(), ALICE, None, "bid 5");
    fake.dispatch("MESSAGE_CREATE", bid.clone());
    fake.wait("alice's receipt", || count(&fake, dm_to(ALICE)) >= 1)
        .await;
    let receipts = count(&fake, dm_to(ALICE));

    fake.ask_reconnect();
    fake.wait("a new gateway session", || {
        let (identifies, resumes) = fake.sessions();
        identifies + resumes >= 2
    })
    .await;
    fake.wait_ready().await;
    assert_eq!(fake.sessions(), (1, 1), "one IDENTIFY, then a RESUME");
    // Discord replays the bid after the reconnect: it is not applied again.
    fake.dispatch("MESSAGE_CREATE", bid);
    fake.say(BOB, None, "bid 3");
    fake.wait("bob's receipt", || count(&fake, dm_to(BOB)) >= 1)
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(&fake, dm_to(ALICE)), receipts, "{:#?}", fake.posts());
    // The game goes on: the last bid resolves the round in the channel.
    let before = count(&fake, in_channel);
    fake.say(CAROL, None, "bid 4");
    fake.wait("the bid round's result", || {
        count(&fake, in_channel) > before
    })
    .await;
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_ends_with_one_sentence() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["run", "--db"])
        .arg(dir.path().join("referee.db"))
        .env("DISCORD_TOKEN", "wrong")
        .env("REFEREE_DISCORD_API_URL", &fake.url)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("rejected the bot token"), "{stderr}");
}

#[test]
fn run_without_a_token_ends_with_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["run", "--db"])
        .arg(dir.path().join("referee.db"))
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr.trim(),
        "referee: DISCORD_TOKEN is not set; put the bot token from the Discord Developer Portal in it (see README.md)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_flushes_the_outbox_and_exits_cleanly() {
    let fake = FakeDiscord::start().await;
    // A refused post would wait an hour for its retry: only the shutdown flush can send it.
    let bot = Bot::start_with(&fake, "1h", 8);
    fake.wait_ready().await;
    fake.fail_next_posts(1, 429);
    fake.say(ALICE, Some(CHANNEL), "!games");
    fake.wait("the refused post", || fake.refused() == 1).await;
    assert!(fake.posts().is_empty());
    bot.stop();
    let posts = fake.posts();
    assert_eq!(posts.len(), 1, "{posts:#?}");
    assert!(posts[0].content.starts_with("Games"), "{posts:#?}");
}
