//! `!new <game> [key=value ...]`: opens sign-ups for a game in a channel that has none. Its
//! preparation adds the seed (when none is given), the rules revisions, the server and whether
//! it is a practice game to what is logged.

use super::{Command, Opened, Opens, Preparation, Prepared, Preparing, SlashOption, Who, Words};
use crate::chat::mention;
use crate::chat::parse::{parse_options, ParseError};
use crate::dice::Seed;
use crate::duration::{duration_as_typed, format_duration, parse_duration};
use crate::games::{Options, Refusal, Rules};
use crate::records::{AwayRule, GameRecord, NoMoveRule, Settings, Status, User};
use crate::table::options::{choice, duration_option, seed_in_public, switch};
use crate::table::outcome::Outcome;
use crate::table::rounds;
use crate::table::seats::seats_allowed;
use crate::table::work::{Env, REVISION};
use std::collections::BTreeMap;

/// `!new`.
pub const COMMAND: Command = Command::opening::<Opening>(
    "new",
    Who::Anyone,
    "new <game> [key=value ...]",
    "opens sign-ups for a game in this channel (one game per channel); `!rules <game>` lists the options",
)
.slash(&[
    SlashOption::game("game", "Which game (see /games)").required(),
    SlashOption::text("options", "Options, like deadline=48h"),
]);

/// The game asked for and its options.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Opening {
    /// The game's name, in lowercase.
    pub game: String,
    /// The options, in the order given.
    pub options: Vec<(String, String)>,
}

impl Words for Opening {
    fn read(args: &str, prefix: &str) -> Result<Opening, ParseError> {
        let mut words = args.split_whitespace();
        let Some(game) = words.next() else {
            return Err(ParseError(format!(
                "`{prefix}new` needs a game, like `{prefix}new tag`; `{prefix}games` lists them"
            )));
        };
        let options = parse_options(words, &format!("{prefix}new"))?;
        Ok(Opening {
            game: game.to_lowercase(),
            options,
        })
    }
}

impl Opens for Opening {
    /// What `!new` is logged with: the game and its options as asked, but for what is the bot's
    /// to say, which it adds (the seed when none is given, the rules revisions, the server); or
    /// why it is refused (an account running as many games as it may, a seed typed in the open on
    /// Discord, a forum post on the console). The game it opens in a forum does not live here, so
    /// this channel's own game does not stand in its way.
    fn prepare(mut preparing: Preparing<'_>) -> Preparation<'_> {
        Box::pin(async move {
            let table = preparing.table;
            let prefix = &table.defaults().prefix;
            if !preparing.admin {
                let running = preparing.tx.open_games_of_gm(&preparing.user.id).await?;
                let most = table.defaults().games_per_gm;
                if running.len() >= most {
                    let listed: Vec<String> = running.iter().map(|id| format!("#{id}")).collect();
                    return Ok(Err(format!(
                        "you already run {} games not over ({}), the most one account may run at once; end one with `{prefix}end` in its channel before opening another.",
                        running.len(),
                        listed.join(", ")
                    )));
                }
            }
            // Read when said (`parse_line`), so a refusal here only guards the log.
            let Opening { game, mut options } = match Opening::read(preparing.args, prefix) {
                Ok(opening) => opening,
                Err(error) => return Ok(Err(error.0)),
            };
            // The rules revisions, the table's and the game's, are the bot's to say, and the log
            // keeps them; so are the server it is opened on (ratings are per server) and whether
            // its seed was chosen at the table (a practice game).
            options.retain(|(key, _)| {
                !matches!(
                    key.as_str(),
                    "revision" | "game_revision" | "server" | "practice"
                )
            });
            let forum = options.iter().any(|(key, _)| key == "forum");
            if forum && !table.serves_discord() {
                return Ok(Err(
                    "`forum=` opens the game as a post of a Discord forum; the console has none, so open it here.".to_string(),
                ));
            }
            match options.iter().any(|(key, _)| key == "seed") {
                // Typed where everyone reads it, a seed would let the whole table foresee every
                // die: it is given only where it stays private.
                true if table.serves_discord() => return Ok(Err(seed_in_public(prefix))),
                true => options.push(("practice".to_string(), "on".to_string())),
                false => options.push(("seed".to_string(), Seed::random().to_hex())),
            }
            options.push(("revision".to_string(), REVISION.to_string()));
            let server = preparing.server().await?;
            if !server.is_empty() {
                options.push(("server".to_string(), server));
            }
            if let Some(rules) = table.catalogue().find(&game) {
                options.push(("game_revision".to_string(), rules.revision().to_string()));
            }
            let input = preparing.said(words(&game, &options));
            let here = match forum {
                true => None,
                false => preparing.game.take(),
            };
            Ok(Ok(Prepared {
                game: here,
                input,
                undo: None,
                moved_from: None,
            }))
        })
    }

    fn open(self, id: i64, channel: &str, user: &User, env: &Env<'_>) -> Opened {
        new_game(id, channel, user, &self.game, &self.options, env)
    }
}

/// The words `!new` is logged with: the game and its options.
fn words(game: &str, options: &[(String, String)]) -> String {
    let mut text = format!("{} {game}", COMMAND.name);
    for (key, value) in options {
        text.push_str(&format!(" {key}={value}"));
    }
    text
}

/// `!new <game> [options]`: a new game in sign-up, with this user as GM.
fn new_game(
    id: i64,
    channel: &str,
    gm: &User,
    game: &str,
    options: &[(String, String)],
    env: &Env<'_>,
) -> Opened {
    let prefix = &env.defaults.prefix;
    let rules = env.catalogue.find(game).ok_or_else(|| {
        let names: Vec<&str> = env.catalogue.all().iter().map(|r| r.name()).collect();
        Refusal::new(format!(
            "There is no game called '{game}'. Games: {}.",
            names.join(", ")
        ))
    })?;
    let seed = options
        .iter()
        .find(|(key, _)| key == "seed")
        .ok_or_else(|| {
            Refusal::new("A new game needs a seed; the table draws one when none is given.")
        })
        .and_then(|(_, value)| Seed::parse(value).map_err(|e| Refusal::new(e.to_string())))?;
    let mut settings = Settings {
        seed,
        practice: false,
        salt: None,
        early: env.defaults.early,
        reminder: env.defaults.reminder,
        deadline: env.defaults.deadline,
        max_players: None,
        orders_in_threads: false,
        vacation: crate::records::default_vacation(),
        away: AwayRule::Extend,
        nmr: NoMoveRule::Default,
        quiet: None,
        tz: None,
        grace: crate::records::default_grace(),
        revision: 0,
        game_revision: 0,
    };
    let given = |wanted: &str| {
        options
            .iter()
            .find(|(key, _)| key == wanted)
            .map(|(_, v)| v.as_str())
    };
    if let Some(tz) = given("tz") {
        settings.tz = Some(crate::table::quiet_hours::zone(tz)?.name().to_string());
    }
    if let Some(window) = given("quiet") {
        settings.quiet = Some(crate::table::quiet_hours::parse(
            window,
            settings.tz.as_deref().unwrap_or("UTC"),
        )?);
    }
    let mut game_options = Options::new();
    let mut server = None;
    // A game opened as a forum post lives, until its post is made, at a place named after
    // the forum and the game (see [`forum_home`]).
    let mut home = channel.to_string();
    let mut forum = None;
    for (key, value) in options {
        match key.as_str() {
            "seed" => {}
            "forum" => {
                let (place, id_of_forum) = forum_home(value, id)?;
                home = place;
                forum = Some(id_of_forum);
            }
            "practice" => settings.practice = switch(key, value)?,
            "server" => server = Some(value.clone()),
            "revision" => {
                settings.revision = value
                    .parse()
                    .ok()
                    .filter(|revision| *revision <= REVISION)
                    .ok_or_else(|| {
                        Refusal::new(format!("This bot knows rules revisions up to {REVISION}."))
                    })?
            }
            "game_revision" => {
                settings.game_revision = value
                    .parse()
                    .ok()
                    .filter(|revision| *revision <= rules.revision())
                    .ok_or_else(|| {
                        Refusal::new(format!(
                            "This bot knows the rules of {} up to revision {}.",
                            rules.name(),
                            rules.revision()
                        ))
                    })?
            }
            "deadline" => settings.deadline = Some(duration_option(key, value)?),
            "early" => settings.early = switch(key, value)?,
            "reminder" => settings.reminder = duration_option(key, value)?,
            "grace" => settings.grace = duration_option(key, value)?,
            "vacation" if value == "0" => settings.vacation = chrono::Duration::zero(),
            "vacation" => settings.vacation = duration_option(key, value)?,
            "away" => {
                settings.away = choice(
                    key,
                    value,
                    &[("extend", AwayRule::Extend), ("default", AwayRule::Default)],
                )?
            }
            "orders" => {
                settings.orders_in_threads = choice(key, value, &[("dm", false), ("thread", true)])?
            }
            "nmr" => {
                settings.nmr = choice(
                    key,
                    value,
                    &[("default", NoMoveRule::Default), ("bot", NoMoveRule::Bot)],
                )?
            }
            "quiet" | "tz" => {}
            "max" => {}
            _ => {
                game_options.insert(key.clone(), value.clone());
            }
        }
    }
    if forum.is_some() && settings.orders_in_threads {
        return Err(Refusal::new(
            "`orders=thread` opens private threads, which a forum post cannot hold: open the game in a text channel (or one of its threads) for that, or leave `orders` out.",
        ));
    }
    rules.check_options(&game_options)?;
    // The most seats follow the game's options (base Carcassonne seats 5, the Big Top 6).
    let (least, most) = seats_allowed(rules, &game_options, settings.revision);
    settings.max_players = match given("max") {
        None => most,
        Some(value) => Some(
            value
                .parse::<usize>()
                .ok()
                .filter(|max| *max >= least && most.is_none_or(|most| *max <= most))
                .ok_or_else(|| {
                    Refusal::new(format!(
                        "`max` is a number of players from {least} to {}; got '{}'",
                        most.map_or("any number".to_string(), |m| m.to_string()),
                        crate::chat::parse::quote(value)
                    ))
                })?,
        ),
    };
    let record = GameRecord {
        id,
        channel: home.clone(),
        game: rules.name().to_string(),
        gm: gm.clone(),
        settings,
        options: game_options,
        secret_options: Options::new(),
        status: Status::SignUp,
        seats: Vec::new(),
        waitlist: Vec::new(),
        round: 0,
        turns_this_round: Vec::new(),
        phase: None,
        phase_started: None,
        turns_begun: None,
        deadline: None,
        remind_at: None,
        orders: BTreeMap::new(),
        first_deadline: None,
        excused: Default::default(),
        held: false,
        extended: false,
        extended_from: None,
        searches: Vec::new(),
        standing_in: Default::default(),
        stand_in_until: None,
        conceded: Vec::new(),
        recalled: Vec::new(),
        draw_votes: Default::default(),
        once_a_phase: BTreeMap::new(),
        departed: Vec::new(),
        forum,
        server,
        dice_position: 0,
        state: None,
    };
    let mut outcome = Outcome::default();
    let settings = settings_in_words(rules, &record, options);
    let practice = match record.settings.practice {
        true => format!("\n{}", rounds::PRACTICE),
        false => String::new(),
    };
    outcome.channel(
        &home,
        format!(
            "Game #{id}: {} is open for sign-ups. GM: {}.{settings} Type `{prefix}join` to play{}; the GM starts with `{prefix}start`. `{prefix}rules {}` explains the game.{practice}",
            rules.name(),
            gm.name,
            match (rules.palette(), rules.check_symbol(None, &[]).is_err()) {
                (palette, _) if !palette.is_empty() => format!(
                    " (`{prefix}join <colour>` picks one of {}; without one you get the first free)",
                    palette.join(", ")
                ),
                (_, true) => " (with a symbol or colour)".to_string(),
                (_, false) => String::new(),
            },
            rules.name(),
        ),
    );
    outcome.table_event(
        0,
        format!("{} opened game #{id} ({})", gm.name, rules.name()),
    );
    Ok((record, outcome))
}

/// Where game `id`, opened as a post of the forum `value` (`<#123>` as a mention is typed, or
/// its id), lives until the post is made: `forum:123:id`, a place of its own, so the
/// platform makes one post for it and tells the table where ([`homed`]); and the forum.
fn forum_home(value: &str, id: i64) -> Result<(String, String), Refusal> {
    let forum = value
        .trim()
        .trim_start_matches("<#")
        .trim_end_matches('>')
        .trim_start_matches('#');
    match forum.parse::<u64>().ok().filter(|forum| *forum != 0) {
        Some(forum) => Ok((mention::forum_place(forum, id), forum.to_string())),
        None => Err(Refusal::new(format!(
            "`forum` names a forum channel, like `forum=#games` (typed so that it becomes a link); got '{}'",
            crate::chat::parse::quote(value)
        ))),
    }
}

/// The options of a new game as they will apply, in one sentence (empty when none was given):
/// a table `deadline=` is said to replace the game's own times (`turn=3h`).
fn settings_in_words(rules: &dyn Rules, record: &GameRecord, given: &[(String, String)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let game_times: Vec<String> = record
        .options
        .iter()
        .filter(|(_, value)| parse_duration(value).is_some())
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    for (key, value) in &record.options {
        if parse_duration(value).is_none() || record.settings.deadline.is_none() {
            parts.push(match rules.option_meaning(key, value) {
                Some(meaning) => format!("{key}={value}: {meaning}"),
                None => format!("{key}={value}"),
            });
        }
    }
    let given_key = |wanted: &str| given.iter().any(|(key, _)| key == wanted);
    if let Some(deadline) = record.settings.deadline {
        let instead = if game_times.is_empty() {
            "instead of the game's own times".to_string()
        } else {
            format!(
                "so {} {} not apply",
                game_times.join(", "),
                if game_times.len() == 1 { "does" } else { "do" }
            )
        };
        let source = if given_key("deadline") {
            "deadline"
        } else {
            "this bot's deadline"
        };
        parts.push(format!(
            "{source}={}: every phase lasts {}, {instead}",
            duration_as_typed(deadline),
            format_duration(deadline)
        ));
    }
    if given_key("early") {
        parts.push(if record.settings.early {
            "early=on: a round resolves as soon as every order is in".to_string()
        } else {
            "early=off: a round resolves only at its deadline".to_string()
        });
    }
    if given_key("reminder") {
        parts.push(format!(
            "reminder={}: reminders go out that long before a deadline",
            duration_as_typed(record.settings.reminder)
        ));
    }
    if given_key("vacation") {
        parts.push(if record.settings.vacation > chrono::Duration::zero() {
            format!(
                "vacation={}: each player may be away that long in all, with `vacation 5d` by DM",
                duration_as_typed(record.settings.vacation)
            )
        } else {
            "vacation=0: no vacations".to_string()
        });
    }
    if given_key("away") {
        parts.push(match record.settings.away {
            AwayRule::Extend => "away=extend: a deadline that falls while an awaited player is on vacation moves once to its end".to_string(),
            AwayRule::Default => "away=default: a player on vacation plays by the game's default".to_string(),
        });
    }
    if given_key("nmr") {
        parts.push(match record.settings.nmr {
            NoMoveRule::Bot => "nmr=bot: when the deadline passes, the computer plays a silent player's turn or order".to_string(),
            NoMoveRule::Default => "nmr=default: a silent player gets the game's default".to_string(),
        });
    }
    if let Some(tz) = record.settings.tz.as_deref().filter(|_| given_key("tz")) {
        parts.push(format!("tz={tz}: clock times are written in {tz} time"));
    }
    if let Some(quiet) = &record.settings.quiet {
        parts.push(format!(
            "quiet={}: no deadline falls and no reminder goes out in those hours",
            crate::table::quiet_hours::describe(quiet)
        ));
    }
    if let (true, Some(max)) = (given_key("max"), record.settings.max_players) {
        parts.push(format!(
            "max={max}: at most {}",
            crate::games::count(max, "player")
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" Settings: {}.", parts.join("; "))
    }
}
