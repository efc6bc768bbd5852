//! Slash commands, buttons and typed text as players meet them: sign-ups, the board's embed
//! and picture, secret orders by DM and by `/order`, private answers, refusals, duplicates.

use crate::bot::{connected, dm_channel, fresh_database, started, Bot, Db};
use crate::fake::FakeDiscord;
use crate::fake::Posted;
use crate::{count, dm_to, in_channel, ALICE, BOB, CAROL, CHANNEL, DAVE, ERIN};
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_board_embed_picture_and_buttons() {
    let (fake, _dir, mut db, bot) = connected().await;
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

    crate::open_game(&fake, ALICE, CHANNEL, "parcheesi seed=3");
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
        vec![json!({"name": "when", "type": 4, "value": 48})],
        json!({}),
    );
    let answer = fake.wait_callback(odd).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "I could not read that `/deadline`; `!help deadline` shows how to write it."
    );

    fake.say(ALICE, Some(CHANNEL), "!start");
    let board = fake
        .wait_post("the board", |p| in_channel(p) && !p.embeds.is_empty())
        .await;
    let embed = &board.embeds[0];
    // The round number and whose turn it is, in the title and in a field of their own.
    assert_eq!(
        embed["title"].as_str().unwrap(),
        "Game #1: parcheesi, round 1 (bob's turn)"
    );
    let fields = embed["fields"].as_array().unwrap();
    assert_eq!(fields[0]["name"], "Waiting for", "{fields:?}");
    assert_eq!(fields[0]["value"], "bob", "{fields:?}");
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

    // A Join button pressed after the start is answered privately, and nothing is posted.
    let posts_before = fake.posts().len();
    let stale = fake.press(DAVE, &opened, &join_id);
    let answer = fake.wait_callback(stale).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "dave: Game #1 has already started; wait for the next one."
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.posts().len(), posts_before);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// Opens a TAG game in `channel` with the options `options` (like `seed=7`, sent by DM) and
/// the first of `players` as GM; all three join and the GM starts it. Returns the ids of the
/// messages.
pub fn open_tag(
    fake: &FakeDiscord,
    channel: u64,
    players: [(u64, &str); 3],
    options: &str,
) -> Vec<u64> {
    let gm = players[0];
    let mut ids = crate::open_game(fake, gm, channel, &format!("tag {options}"));
    for player in players {
        ids.push(fake.say(player, Some(channel), "!join"));
    }
    ids.push(fake.say(gm, Some(channel), "!start"));
    ids
}

/// A game channel besides [`CHANNEL`], for a second game.
pub const OTHER_CHANNEL: u64 = 701;

/// The bot started on a fresh database and connected, with the TAG game of
/// [`tag_bids_open_elsewhere`] open (game #1): the fake, the database's directory (kept
/// while it lives), the database and the bot.
pub async fn bot_beside_tag_bids() -> (FakeDiscord, tempfile::TempDir, Db, Bot) {
    let (fake, dir, mut db, bot) = connected().await;
    tag_bids_open_elsewhere(&fake, &mut db).await;
    (fake, dir, db, bot)
}

/// dave opens a TAG game in [`OTHER_CHANNEL`], dave, erin and alice join, it starts, and the
/// bot has taken it all: its bids are open.
pub async fn tag_bids_open_elsewhere(fake: &FakeDiscord, db: &mut Db) {
    let opened = open_tag(fake, OTHER_CHANNEL, [DAVE, ERIN, ALICE], "seed=7");
    db.settled(fake, *opened.last().unwrap()).await;
}

/// erin bids by DM in the TAG game of [`tag_bids_open_elsewhere`]: her receipt, and how long
/// it took to come.
pub async fn erins_bid_answered(fake: &FakeDiscord) -> (Posted, std::time::Duration) {
    let sent = std::time::Instant::now();
    fake.say(ERIN, None, "bid 4");
    let receipt = fake.wait_dm(ERIN, "order received for bids").await;
    let waited = receipt.at.duration_since(sent);
    (receipt, waited)
}

/// Once the bot is connected: alice opens a TAG game, alice, bob and carol join, it starts.
pub async fn start_tag_for_three(fake: &FakeDiscord) {
    fake.wait_ready().await;
    open_tag(fake, CHANNEL, [ALICE, BOB, CAROL], "seed=7");
    fake.wait_post("the board", |p| in_channel(p) && !p.embeds.is_empty())
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_orders_by_dm_closed_dms_and_the_ephemeral_order() {
    let fake = FakeDiscord::start().await;
    fake.close_dms(BOB.0);
    let (_dir, path) = fresh_database();
    let bot = Bot::start(&fake, &path);
    fake.wait_ready().await;
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    fake.say(ALICE, Some(CHANNEL), "!join");
    // A player who joins a game of secret orders is written to at once: the welcome says
    // how orders go by DM...
    let welcome = fake
        .wait_post("alice's welcome", |p| {
            dm_to(ALICE)(p) && p.content.starts_with("Welcome")
        })
        .await;
    assert!(
        welcome
            .content
            .starts_with("Welcome to game #1 (tag) in <#700>. I take your secret orders here, by direct message."),
        "{welcome:?}"
    );
    assert!(welcome.content.contains("`bid <number>`"), "{welcome:?}");
    assert!(welcome.content.contains("`status`"), "{welcome:?}");
    // ...and a player whose DMs are closed is found at sign-up, and gets a private thread
    // (`/order` answers them privately too).
    fake.say(BOB, Some(CHANNEL), "!join");
    let notice = fake
        .wait_post("the closed-DM notice", |p| {
            in_channel(p) && p.content.contains("<@102>") && p.content.contains("private thread")
        })
        .await;
    assert!(
        notice.content.contains("direct messages are closed"),
        "{notice:?}"
    );
    fake.say(CAROL, Some(CHANNEL), "!join");
    fake.say(ALICE, Some(CHANNEL), "!start");
    fake.wait_post("the board", |p| in_channel(p) && !p.embeds.is_empty())
        .await;

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

    // Bob orders privately.
    let order = fake.slash(BOB, CHANNEL, "order", &[("order", "bid 4")]);
    let answer = fake.wait_callback(order).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(answer.content.contains("for bids: `bid 4`"), "{answer:?}");
    assert!(!fake.posts().iter().any(|p| p.text().contains("bid 4")));

    // The last bid resolves the round; in the moves round a move order's receipt offers
    // stomp and stride as buttons, and pressing one replaces the order.
    fake.say(CAROL, None, "bid 3");
    fake.wait_post_in(CHANNEL, "Send your moves").await;
    fake.say(ALICE, None, "move n stomp");
    let receipt = fake.wait_dm(ALICE, "`move n stomp`").await;
    let buttons = receipt.buttons();
    let labels: Vec<&str> = buttons.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(labels, ["stomp", "stride"]);
    let refused = fake.press(CAROL, &receipt, &buttons[1].0);
    assert!(fake.wait_callback(refused).await.ephemeral);
    let pressed = fake.press(ALICE, &receipt, &buttons[1].0);
    assert_eq!(fake.wait_callback(pressed).await.kind, 6);
    fake.wait_dm(ALICE, "`move n stride`").await;

    // Autocompletion offers the player's own games for /order.
    let typed = fake.autocomplete(ALICE, CHANNEL, "order", "game", "");
    let offered = fake.wait_callback(typed).await;
    assert_eq!(offered.kind, 8);
    assert_eq!(offered.choices, [("#1 tag".to_string(), "#1".to_string())]);
    bot.stop();
    assert_eq!(Db::at(&path).replay_all().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_order_typed_in_the_channel_is_deleted_and_warned_about() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;

    // Typed without the prefix: the bot deletes it and says why; it was not taken.
    let exposed = fake.say(BOB, Some(CHANNEL), "bid 4");
    let warning = fake
        .wait_post("the warning", |p| {
            in_channel(p) && p.content.starts_with("bob: secret orders")
        })
        .await;
    assert_eq!(
        warning.content,
        "bob: secret orders go to me by direct message, never in the channel. I deleted your message so it stays secret; it was not taken. Send it to me by direct message."
    );
    assert_eq!(fake.deleted(), [exposed]);
    // Chatter that only starts like an order is left alone.
    fake.say(
        CAROL,
        Some(CHANNEL),
        "bid whatever you like, I am going high",
    );
    // With the prefix, and the bot without Manage Messages: the order is now public.
    fake.deny_manage_messages();
    fake.say(CAROL, Some(CHANNEL), "!bid 6");
    let warning = fake
        .wait_post("the second warning", |p| {
            in_channel(p) && p.content.starts_with("carol: secret orders")
        })
        .await;
    assert_eq!(
        warning.content,
        "carol: secret orders go to me by direct message, never in the channel. I could not delete your message, so that order is now public, and it was not taken. Send your order to me by direct message."
    );
    assert_eq!(fake.deleted(), [exposed]);
    // Neither was taken: bob's status by DM says he has sent nothing.
    fake.say(BOB, None, "status");
    let status = fake
        .wait_post("bob's status", |p| {
            dm_to(BOB)(p) && p.content.starts_with("Game #1 (tag)")
        })
        .await;
    assert!(
        status.content.contains("You have not sent an order yet."),
        "{status:?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_commands_require_their_arguments_and_take_users() {
    let (fake, _dir, mut db, bot) = connected().await;
    // The registered commands: an argument that is needed is required, players are users.
    let option = |command: &str, name: &str| {
        let definition = fake.command_definition(command);
        definition["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .cloned()
            .unwrap()
    };
    for (command, name) in [
        ("order", "order"),
        ("play", "action"),
        ("kick", "player"),
        ("replace", "old"),
    ] {
        assert_eq!(option(command, name)["required"], true, "/{command} {name}");
    }
    // /replace gives the seat to a member or to a computer player.
    assert_ne!(option("replace", "new")["required"], true);
    assert_eq!(option("replace", "computer")["type"], 3);
    assert_eq!(option("kick", "player")["type"], 6, "a user option");
    assert_eq!(option("replace", "old")["type"], 6);
    assert_eq!(option("replace", "new")["type"], 6);
    assert_ne!(option("order", "game")["required"], true);

    crate::commands::start_tag_for_three(&fake).await;
    // /kick takes Discord's user option: bob is removed by id.
    fake.slash_users(ALICE, CHANNEL, "kick", &[("player", BOB)]);
    fake.wait_post_in(CHANNEL, "bob was removed by the GM.")
        .await;
    // /replace too: carol's seat goes to dave.
    // The board goes to the channel with the news; the interaction is told where.
    let replace = fake.slash_users(ALICE, CHANNEL, "replace", &[("old", CAROL), ("new", DAVE)]);
    fake.wait_callback(replace).await;
    fake.wait_post_in(CHANNEL, "dave takes over carol's seat in game #1")
        .await;
    // And dave's to a computer player, with the level as the option's value.
    let computer = fake.slash_with(
        ALICE,
        CHANNEL,
        "replace",
        vec![
            json!({"name": "old", "type": 6, "value": DAVE.0.to_string()}),
            json!({"name": "computer", "type": 3, "value": "easy"}),
        ],
        json!({"users": serde_json::Map::from_iter([(
            DAVE.0.to_string(),
            json!({"id": DAVE.0.to_string(), "username": DAVE.1, "discriminator": "0", "global_name": DAVE.1, "avatar": null}),
        )])}),
    );
    fake.wait_callback(computer).await;
    fake.wait_post("a computer in dave's seat", |p| {
        in_channel(p)
            && p.text()
                .contains("Computer 1 takes over dave's seat in game #1")
    })
    .await;
    // A refusal is private and carries no buttons: bob is not the GM.
    let refused = fake.slash(BOB, CHANNEL, "resolve", &[]);
    let answer = fake.wait_callback(refused).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "bob: Only the GM (alice) or a server admin can use `resolve`."
    );
    assert!(answer.components.is_empty(), "{answer:?}");
    // /help answers privately.
    let help = fake.slash(BOB, CHANNEL, "help", &[]);
    let answer = fake.wait_callback(help).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(answer.content.starts_with("Commands"), "{answer:?}");
    // /rules answers privately too, in as many messages as the rules take.
    let rules = fake.slash(BOB, CHANNEL, "rules", &[("game", "carcassonne")]);
    let answer = fake.wait_callback(rules).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(
        answer
            .content
            .starts_with("**carcassonne** (2 to 6 players)."),
        "{answer:?}"
    );
    // It is one message: its own options close it, and it points at the table's.
    assert!(
        answer
            .content
            .ends_with("`!rules options`: the options every game takes."),
        "{answer:?}"
    );
    assert!(
        answer.content.contains("- `turn=`: time for one turn"),
        "{answer:?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_slash_command_in_sign_up_carries_no_join_button() {
    let (fake, _dir, mut db, bot) = connected().await;
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    fake.wait_post("the sign-up", in_channel).await;
    // bob may not start the game: the private refusal has no Join button under it.
    let start = fake.slash(BOB, CHANNEL, "start", &[]);
    let answer = fake.wait_callback(start).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(answer.content.contains("Only the GM (alice)"), "{answer:?}");
    assert!(answer.components.is_empty(), "{answer:?}");
    // A /join that is accepted is public and keeps the Join button for the others.
    let join = fake.slash(BOB, CHANNEL, "join", &[]);
    let answer = fake.wait_callback(join).await;
    assert!(!answer.ephemeral, "{answer:?}");
    assert!(!answer.components.is_empty(), "{answer:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interaction_delivered_twice_is_applied_and_answered_once() {
    let (fake, _dir, mut db, bot) = connected().await;
    crate::open_game(&fake, ALICE, CHANNEL, "tag seed=7");
    let opened = fake
        .wait_post("the sign-up", |p| in_channel(p) && !p.buttons().is_empty())
        .await;
    // The same /join twice.
    let join = fake.slash_payload(BOB, CHANNEL, "join", vec![], json!({}));
    let id: u64 = join["id"].as_str().unwrap().parse().unwrap();
    fake.dispatch("INTERACTION_CREATE", join.clone());
    fake.wait_callback(id).await;
    fake.dispatch("INTERACTION_CREATE", join);
    // The same press of Join twice.
    let press = fake.press_payload(CAROL, &opened, &opened.buttons()[0].0);
    let pressed: u64 = press["id"].as_str().unwrap().parse().unwrap();
    fake.dispatch("INTERACTION_CREATE", press.clone());
    fake.wait_callback(pressed).await;
    fake.dispatch("INTERACTION_CREATE", press);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let answers = fake.callbacks();
    assert_eq!(answers.iter().filter(|c| c.interaction == id).count(), 1);
    assert_eq!(
        answers.iter().filter(|c| c.interaction == pressed).count(),
        1
    );
    assert_eq!(fake.late_callbacks(), 0, "no second answer was even tried");
    let joins = fake
        .posts()
        .iter()
        .filter(|p| p.content.starts_with("carol joins"))
        .count();
    assert_eq!(joins, 1);
    fake.say(ALICE, Some(CHANNEL), "!status");
    let status = fake
        .wait_post("the status", |p| {
            in_channel(p) && p.content.starts_with("Game #1 (tag)")
        })
        .await;
    assert!(
        status.content.contains("Players: bob, carol."),
        "{status:?}"
    );
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_by_dm_and_a_dm_order_for_a_game_you_are_not_in() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    // Someone outside the game gets a specific refusal by DM, and nothing changes.
    fake.say(DAVE, None, "bid 4");
    let refusal = fake.wait_post("dave's refusal", dm_to(DAVE)).await;
    assert_eq!(
        refusal.content,
        "You are not playing in any game, so 'bid 4' was not taken as an order. Sign up with `!join` in a game's channel."
    );
    assert_eq!(refusal.channel, dm_channel(DAVE.0));
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_audit_posts_the_page_of_a_finished_game_and_refuses_a_running_one() {
    let (fake, _dir, mut db, bot) = started().await;
    start_tag_for_three(&fake).await;
    // Registered from the registry like every table command.
    assert!(fake.commands().contains(&"audit".to_string()));
    // While the game runs there is no page yet: only the asker is told why.
    let early = fake.slash(BOB, CHANNEL, "audit", &[]);
    let answer = fake.wait_callback(early).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "bob: game #1 is still running; its audit page is posted once it is over. `!log` shows what is public now."
    );
    let end = fake.say(ALICE, Some(CHANNEL), "!end");
    db.settled(&fake, end).await;
    // After the end, `/audit` posts the page in the channel as a file, like `!audit`.
    let asked = fake.slash(BOB, CHANNEL, "audit", &[]);
    fake.wait_callback(asked).await;
    let page = fake
        .wait_post("the audit page", |p| {
            in_channel(p) && p.content.starts_with("Game #1: the audit page.")
        })
        .await;
    assert_eq!(page.files.len(), 1, "{page:?}");
    assert_eq!(page.files[0].0, "game-1-audit.html");
    let html = String::from_utf8(page.files[0].1.clone()).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..200]);
    assert!(html.contains("game #1"), "{}", &html[..600]);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

/// What is said by DM is the registry's too: a DM-only word typed in the channel is refused
/// with where to say it, `order` by DM is the order, `/vacation` and `/setup` are registered
/// from the same declarations, and `help` by DM names every word said there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_words_said_by_dm_come_from_the_registry() {
    let (fake, _dir, mut db, bot) = started().await;
    crate::commands::start_tag_for_three(&fake).await;
    let registered = fake.commands();
    for name in [
        "order", "vacation", "setup", "play", "status", "help", "rules",
    ] {
        assert!(
            registered.contains(&name.to_string()),
            "/{name}: {registered:?}"
        );
    }
    assert_eq!(
        fake.command_definition("setup")["options"][0]["required"],
        true
    );

    // A word said only by DM, typed in the channel: refused, with where to say it.
    fake.say(BOB, Some(CHANNEL), "!vacation 5d");
    let refusal = fake
        .wait_post("the refusal", |p| {
            in_channel(p) && p.content.contains("!vacation")
        })
        .await;
    assert_eq!(
        refusal.content,
        "bob: `!vacation` is said to me by direct message: `vacation <length> | off`; or use `/vacation` here."
    );

    // A secret word typed in the channel is deleted and the channel warned, as a secret
    // order typed there is; `!play bid 5` is looked at as `!bid 5`.
    let posts = fake.posts().len();
    let typed: Vec<u64> = ["!order bid 4", "!play bid 4"]
        .into_iter()
        .map(|line| fake.say(BOB, Some(CHANNEL), line))
        .collect();
    fake.wait("both warnings", || {
        fake.posts()[posts..]
            .iter()
            .filter(|p| {
                in_channel(p)
                    && p.content
                        .starts_with("bob: secret orders go to me by direct message")
            })
            .count()
            == 2
    })
    .await;
    assert!(!fake.posts().iter().any(|p| p.text().contains("bid 4")));
    let deleted = fake.deleted();
    assert!(typed.iter().all(|id| deleted.contains(id)), "{deleted:?}");

    // `order bid 5` by DM is the bid, as `bid 5` is.
    fake.say(ALICE, None, "order bid 5");
    fake.wait_dm(ALICE, "for bids: `bid 5`").await;

    // `/vacation` is answered privately, and the channel is told.
    let away = fake.slash(CAROL, CHANNEL, "vacation", &[("length", "3d")]);
    let answer = fake.wait_callback(away).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert!(
        answer
            .content
            .starts_with("Game #1: you are on vacation until"),
        "{answer:?}"
    );
    fake.wait_post("the channel told", |p| {
        in_channel(p) && p.content.contains("carol is on vacation for 3 days")
    })
    .await;

    // `/setup` from a player who runs no game in sign-up: refused privately.
    let setup = fake.slash(BOB, CHANNEL, "setup", &[("options", "board=7x7")]);
    let answer = fake.wait_callback(setup).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "You are not the GM of any game in sign-up. Open one with `!new <game>` in a channel first."
    );

    // `/play` is for the game's own actions: a table word through it is refused, privately.
    let sneaked = fake.slash(BOB, CHANNEL, "play", &[("action", "resolve")]);
    let answer = fake.wait_callback(sneaked).await;
    assert!(answer.ephemeral, "{answer:?}");
    assert_eq!(
        answer.content,
        "bob: `!play` is for the game's own actions; `!resolve` is the table's, typed as it is."
    );

    // `help` by DM names every word said there: a player's, the words of the game; someone
    // in no game, the GM's setup too.
    fake.say(BOB, None, "help");
    let help = fake
        .wait_post("bob's help", |p| {
            dm_to(BOB)(p) && p.content.starts_with("By direct message")
        })
        .await;
    assert!(
        help.content.starts_with("By direct message to me, no prefix: your secret orders, `status` (where you stand and what you have sent), `help`, `rules <game>`."),
        "{help:?}"
    );
    assert!(help.content.contains("`vacation 5d`"), "{help:?}");
    assert!(!help.content.contains("`setup key=value ...`"), "{help:?}");
    assert!(help.content.contains("`bid <number>`"), "{help:?}");
    fake.say(DAVE, None, "help");
    let help = fake
        .wait_post("dave's help", |p| {
            dm_to(DAVE)(p) && p.content.starts_with("By direct message")
        })
        .await;
    assert!(help.content.contains("`setup key=value ...`"), "{help:?}");
    assert_eq!(db.stop_and_replay(bot).await, 1);
}
