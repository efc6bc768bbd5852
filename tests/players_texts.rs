//! What players read, on the console: the rules and help they can ask for, the first DM, the
//! receipts, the deadlines written out, the settings said back at sign-up, and the wording
//! of the games' own prompts. Each assertion is a sentence a player would see.

mod common;

use common::{count, play, play_on, service, start_time};

#[tokio::test]
async fn rules_games_and_help_explain_each_game_and_its_options() {
    let out = play(
        "ann #lobby: !games\nann #lobby: !rules tag\nann #lobby: !rules\nann #lobby: !rules chess\nann #lobby: !help parcheesi\nann dm: !help\nann dm: rules circuit\nann dm: help carcassonne\n",
    )
    .await;
    // `!games` names every game's options.
    assert!(out.contains("`tag`: TAG: bid to avoid being it"), "{out}");
    assert!(
        out.contains("Options: `bid_deadline`, `move_deadline`."),
        "{out}"
    );
    assert!(out.contains("Options: `board`, `straight`, `turn`, `turns`, `cross`, `thunder`, `first`, `impossible`, `clocks`, `turntime`, `reserve`, `window`."));
    // `!rules tag`: the summary, then every option with its default, the table's too.
    assert!(
        out.contains("#lobby <- **tag** (3 or more players)."),
        "{out}"
    );
    assert!(out.contains(
        "#lobby <- - `bid_deadline=`: how long the bid round lasts, like 4d or 36h (default 4d)"
    ));
    assert!(out.contains("#lobby <- - `early=`: on or off: a round of secret orders resolves as soon as every order is in (default on)"));
    assert!(out.contains("#lobby <- - `reminder=`: how long before a deadline the awaited players are reminded by DM (default 12 hours)"));
    assert!(out.contains("#lobby <- ann: `!rules` takes a game, like `!rules tag`; the games are tag, circuit, parcheesi, shortcircuit, carcassonne, dicey."));
    assert!(out.contains("#lobby <- ann: There is no game called 'chess'."));
    // `!help <game>`: that game's commands.
    assert!(out.contains("#lobby <- parcheesi commands:"));
    assert!(out.contains("#lobby <- `!rules parcheesi` explains the game."));
    // By DM: `!help` as typed in a channel, and the rules of a game.
    assert!(
        out.contains("dm ann <- By direct message to me, no prefix: your secret orders, `status`")
    );
    assert!(
        out.contains("dm ann <- **circuit** (2 to 6 players)."),
        "{out}"
    );
    assert!(
        out.contains("dm ann <- - `skip`: the activator loses its next turn"),
        "{out}"
    );
    assert!(out.contains("dm ann <- **carcassonne** (2 to 6 players)."));
}

#[tokio::test]
async fn sign_up_says_the_settings_as_they_will_apply_and_welcomes_by_dm() {
    let out = play(
        "ann #race: !new circuit seed=3 turn=3h claim=2h deadline=1h early=off\nbob #race: !join\nann #dice: !new parcheesi seed=2 turn=2h\ncat #dice: !join\n",
    )
    .await;
    assert!(out.contains(
        "Settings: deadline=1h: every phase lasts 1 hour, so claim=2h, turn=3h do not apply; early=off: a round resolves only at its deadline."
    ), "{out}");
    assert!(out.contains("Settings: turn=2h."), "{out}");
    // The first DM a player gets says what goes by DM, for games with and without orders.
    assert!(out.contains("dm bob <- Welcome to game #1 (circuit) in #race. I take your secret orders here, by direct message."));
    assert!(out.contains("dm cat <- Welcome to game #2 (parcheesi) in #dice. You play in the channel with `!` commands; I write to you here with reminders."));
    assert!(out.contains("dm cat <- By direct message to me, no prefix: `status` (where you stand and what you have sent), `help`, `rules <game>`."));
}

#[tokio::test]
async fn receipts_reminders_and_deadlines_read_as_sentences() {
    let out = play(
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nann dm: bid 5\nann #tag: !status\nclock +84h\nbob dm: bid 4\ncat dm: bid 3\nclock +10m\n",
    )
    .await;
    assert!(out.contains("Receipt `"), "{out}");
    assert!(out.contains(": keep this code, the reveal will show the same one with your order. You can replace it until the deadline, in 4 days (2026-01-05 00:00 UTC)."));
    // Only the players still awaited are named.
    assert!(out.contains("Waiting for bids by direct message from bob and cat. Deadline: in 4 days (2026-01-05 00:00 UTC)."), "{out}");
    // The reminder names the channel as a reader finds it, with the time left in words.
    assert!(out.contains("dm bob <- Reminder for game #1 in #tag: your order for bids is still missing. Deadline: in 12 hours (2026-01-05 00:00 UTC)."), "{out}");
    assert_eq!(count(&out, "<t:"), 0, "no raw timestamps on the console");
}

#[tokio::test]
async fn a_late_deadline_says_the_bot_was_down_only_when_it_was() {
    // The clock moves on while the bot runs: the deadline fires at its time.
    let out = play(
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nclock +5d\n",
    )
    .await;
    assert!(
        out.contains("#tag <- Orders for bids (the deadline passed):"),
        "{out}"
    );
    assert!(!out.contains("not running"), "{out}");
    // Started after the deadline: it was not running.
    let dir = tempfile::tempdir().unwrap();
    let url = common::file_url(dir.path());
    let first = service(&url).await;
    play_on(
        &first,
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\n",
        start_time(),
        &[],
    )
    .await;
    first.store().close().await;
    let later = start_time() + chrono::Duration::days(6);
    let second = service(&url).await.running_since(later);
    let out = play_on(&second, "", later, &[]).await;
    assert!(out.contains("the deadline, 2026-01-05 00:00 UTC, passed while the bot was not running; resolved on its return"), "{out}");
}

#[tokio::test]
async fn game_texts_count_in_words_and_name_features_and_effects() {
    let tag = play(include_str!("transcripts/tag_3p_seed7.txt")).await;
    assert!(tag.contains("TAG, game over, 1 player left"), "{tag}");
    assert!(!tag.contains("1 players"));
    let circuit = play(include_str!("transcripts/circuit_3p_seed11.txt")).await;
    assert!(circuit.contains("Choose its effect: `effect <action> [N] <land|pass>`, like `effect back 3 land`, or `effect none`. The words:"), "{circuit}");
    assert!(circuit.contains("- `anchor`: the activator must stay on its next turn"));
    let carcassonne = play(include_str!("transcripts/carcassonne_2p_seed3.txt")).await;
    assert!(
        carcassonne.contains("`a` (the city to the north), `b` (the road from east to west)"),
        "{carcassonne}"
    );
    assert!(
        carcassonne.contains("bob puts a farmer on the field to the north-east (d)."),
        "{carcassonne}"
    );
    assert!(!carcassonne.contains("city-nesw"));
    let duel = play(
        "ann #duel: !new shortcircuit seed=4\nann #duel: !join\nbob #duel: !join\nann #duel: !start\n",
    )
    .await;
    assert!(
        duel.contains(
            "Clocks: 1 day per turn plus a reserve of 2 days; 1 day to answer an impossible call."
        ),
        "{duel}"
    );
}

#[tokio::test]
async fn circuit_turns_and_table_rounds_share_one_number() {
    let transcript = "gm #circuit: !new circuit seed=11 max=3\nann #circuit: !join blue\nben #circuit: !join purple\ncat #circuit: !join grey\nann dm: move\nben dm: move\ncat dm: move\nann dm: effect back 3 land\nben dm: effect boost pass\ncat dm: effect skip land\nann #circuit: !status\ngm #circuit: !log 0\ngm #circuit: !log 1\n";
    let out = play(transcript).await;
    // Turn 2 is turn 2 in `!status`, as in the game's own text.
    assert!(
        out.contains("#circuit <- Game #1 (circuit), GM gm, turn 2. Players: ann, ben, cat. Waiting for move or stay for turn 2"),
        "{out}"
    );
    // `!log 0` holds the sign-up, `!log 1` turn 1's moves and claims.
    let log0 = &out[out.find("#circuit <- Game #1, round 0:").expect("log 0")..];
    assert!(log0.contains("- game started; seed commitment"));
    let log1 = &out[out.find("#circuit <- Game #1, round 1:").expect("log 1")..];
    assert!(log1.contains("- Turn 1 resolves:"), "{log1}");
    assert!(log1.contains("ann claims tile 3."));
    assert!(!log0[..log0.find("round 1:").unwrap_or(log0.len())].contains("Turn 1 resolves"));
}

#[tokio::test]
async fn colours_come_from_the_games_palette_offered_at_sign_up_and_in_the_rules() {
    let out = play(
        "ann #race: !new circuit seed=3\nbob #race: !join salmonella\nbob #race: !join navy\ncat #race: !join Gold\ndan #race: !join 🐸\nann #race: !rules circuit\nann #carc: !new carcassonne\nbob #carc: !join navy\n",
    )
    .await;
    let circuit_colours = "dark blue, purple, grey, red, dark green, teal, lime green, white, orange, yellow, pink, brown, blue, green, black, navy, gold, salmon";
    assert!(out.contains(&format!("Type `!join` to play (`!join <colour>` picks one of {circuit_colours}; without one you get the first free)")), "{out}");
    assert!(out.contains(&format!("#race <- bob: 'salmonella' is not one of the colours of circuit; choose one of {circuit_colours}.")), "{out}");
    assert!(
        out.contains("#race <- dan: '🐸' is not one of the colours of circuit"),
        "{out}"
    );
    assert!(out.contains("bob joins game #1 as navy"), "{out}");
    assert!(out.contains("cat joins game #1 as Gold"), "{out}");
    assert!(
        out.contains(&format!(
            "**Colours** (`!join <colour>`): {circuit_colours}."
        )),
        "{out}"
    );
    assert!(out.contains("#carc <- bob: 'navy' is not one of the colours of carcassonne; choose one of red, blue, green, yellow, black, grey."), "{out}");
}

#[tokio::test]
async fn base_carcassonne_seats_five_and_the_big_top_six() {
    let joins = |channel: &str| {
        ["bob", "cat", "dan", "eve", "fay"]
            .iter()
            .map(|name| format!("{name} #{channel}: !join\n"))
            .collect::<String>()
    };
    let out = play(&format!(
        "ann #base: !new carcassonne bigtop=off\nann #base: !join\n{}ann #big: !new carcassonne\nann #big: !join\n{}ann #max: !new carcassonne bigtop=off max=6\nann #big: !start\n",
        joins("base"),
        joins("big")
    ))
    .await;
    assert!(
        out.contains("#base <- fay: Game #1 is full (5 players)."),
        "{out}"
    );
    assert!(out.contains("fay joins game #2"), "{out}");
    assert!(
        out.contains("#max <- ann: `max` is a number of players from 2 to 5; got '6'"),
        "{out}"
    );
    assert!(
        out.contains("Carcassonne with Under the Big Top begins"),
        "{out}"
    );
}

#[tokio::test]
async fn an_ended_game_still_answers_who_deadline_and_undo_and_shows_its_final_board() {
    let out = play(
        "ann #tag: !new tag seed=7\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nann #tag: !draw\nbob #tag: !draw\ncat #tag: !draw\nann #tag: !who\nann #tag: !deadline 2d\nann #tag: !undo\nann #tag: !join\n",
    )
    .await;
    let ended = out.find("ends in a draw").expect(&out);
    let after = &out[ended..];
    // The final board follows the ranking, picture and all.
    assert!(after.contains("#tag <- [picture:"), "{out}");
    assert!(out.contains("#tag <- ann: Game #1 is over."), "{out}");
    assert!(
        out.contains(
            "#tag <- ann: Game #1 is over and its seed is revealed, so nothing can be taken back."
        ),
        "{out}"
    );
    // Only a new game can be joined.
    assert!(
        out.contains("#tag <- ann: There is no game in this channel."),
        "{out}"
    );
    assert_eq!(count(&out, "There is no game in this channel"), 1, "{out}");
}

#[tokio::test]
async fn a_question_gets_no_buttons_and_the_board_gets_the_players_steps() {
    let service = common::service("sqlite::memory:").await;
    play_on(
        &service,
        "alice #p: !new parcheesi seed=7\nalice #p: !join\nbob #p: !join\nalice #p: !start\nbob #p: !status\nbob #p: !who\nbob #p: !board\n",
        start_time(),
        &[],
    )
    .await;
    common::replay_every_game(&service).await;
    let cards = |like: &str| {
        let service = &service;
        let sql =
            format!("SELECT COALESCE(card, '') FROM outbox WHERE body LIKE '{like}' ORDER BY id");
        async move { common::texts(service, &sql).await }
    };
    let status = cards("Game #1 (parcheesi), GM%").await;
    assert!(!status.is_empty());
    assert!(
        status.iter().all(|card| !card.contains("\"label\"")),
        "{status:?}"
    );
    // `!board`, the last thing asked, offers bob his steps.
    let board = common::texts(
        &service,
        "SELECT COALESCE(card, '') FROM outbox ORDER BY id DESC LIMIT 1",
    )
    .await;
    assert!(board[0].contains("\"text\":\"!enter 1\""), "{board:?}");
    assert!(board[0].contains("\"only\":\"bob\""), "{board:?}");
}

#[tokio::test]
async fn wording_a_player_meets_says_what_it_means() {
    let out = play(
        "ann dm: rules\nann #tag: !new tag seed=7\nben #tag: !leave\nann #tag: !help\nann #tag: !help gm\nann #tag: !join\nbob #tag: !join\ncat #tag: !join\nann #tag: !start\nann dm: vacation 14d\nann dm: vacation off\n",
    )
    .await;
    assert!(
        out.contains("dm ann <- `rules` takes a game, like `rules tag`"),
        "{out}"
    );
    assert!(
        out.contains("#tag <- ben: you are not playing in game #1, so there is nothing to leave."),
        "{out}"
    );
    // `!help`: the players' commands, then the GM's named in one line; `!help gm` explains those.
    assert!(out.contains("The GM's: `!start`, `!resolve`, `!deadline`, `!kick`, `!replace`, `!pause`, `!resume`, `!end`, `!undo` (`!help gm` explains them)."), "{out}");
    assert!(
        !out.contains("`!start`: GM: starts the game with the players signed up\n#tag <- `!board`"),
        "{out}"
    );
    assert!(out.contains("#tag <- The GM's commands (the GM of the game, or a server admin):\n#tag <- `!start`: GM: starts the game"), "{out}");
    assert!(out.contains("no vacation left in this game"), "{out}");
    assert!(!out.contains("none of vacation"), "{out}");
}
