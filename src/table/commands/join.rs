//! `!join [symbol or colour]`: signs the sender up for the channel's game; `!join bot [level]`:
//! the GM seats a computer player.

use super::start::start;
use super::{Command, Run, Said, SlashOption, Who};
use crate::chat::mention;
use crate::games::{Refusal, Rules};
use crate::records::ComputerLevel;
use crate::records::{SeatRecord, Status, User};
use crate::table::computers::{self, next_computer};
use crate::table::rounds;
use crate::table::work::Work;

/// `!join`.
pub const COMMAND: Command = Command::new(
    "join",
    Who::Anyone,
    "signs you up for the game in this channel; the GM's `!join bot` seats a computer player",
    Run::Apply(run),
)
.usage("join [symbol or colour | bot [easy|normal|hard]]")
.takes_any_words()
.slash(&[SlashOption::text("symbol", "A symbol or colour to play")]);

fn run(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    let (first, rest) = args.split_once(' ').unwrap_or((args, ""));
    if first.eq_ignore_ascii_case("bot") && computers::known(work) {
        let level = computers::level_named(rest)?;
        return join_computer(work, said.user, said.admin, level);
    }
    join(work, said.user, (!args.is_empty()).then_some(args))
}

/// `!join [symbol]`.
fn join(work: &mut Work<'_>, user: &User, symbol: Option<&str>) -> Result<bool, Refusal> {
    let prefix = work.env.defaults.prefix.clone();
    let record = &work.record;
    let rules = work
        .env
        .catalogue
        .find(&record.game)
        .ok_or_else(|| Refusal::new(format!("Game #{} has an unknown game.", record.id)))?;
    let listed = |list: &[SeatRecord]| list.iter().any(|s| s.present && s.user.id == user.id);
    if listed(&record.seats) || listed(&record.waitlist) {
        return Err(Refusal::new(format!(
            "You are already signed up for game #{}.",
            record.id
        )));
    }
    let running = matches!(record.status, Status::Running | Status::Paused { .. });
    match record.status {
        Status::Over => return Err(rounds::over(record, &prefix)),
        Status::Running | Status::Paused { .. } if !rules.waitlist() => {
            return Err(Refusal::new(format!(
                "Game #{} has already started; wait for the next one.",
                record.id
            )))
        }
        _ => {}
    }
    let taken: Vec<String> = record
        .seats
        .iter()
        .chain(record.waitlist.iter())
        .filter(|s| s.present)
        .filter_map(|s| s.symbol.clone())
        .collect();
    if let Some(symbol) = symbol.filter(|s| s.chars().count() > MAX_SYMBOL) {
        return Err(Refusal::new(format!(
            "a symbol or colour is at most {MAX_SYMBOL} characters; '{}' is longer",
            crate::chat::parse::quote(symbol)
        )));
    }
    if record.settings.revision >= 2 {
        in_palette(rules, symbol)?;
    }
    rules.check_symbol(symbol, &taken)?;
    let seated = record.seats.iter().filter(|s| s.present).count();
    let full = record.settings.max_players.is_some_and(|max| seated >= max);
    let entry = SeatRecord::new(user.clone(), symbol.map(str::to_string));
    let id = record.id;
    let channel = record.channel.clone();
    let with = symbol.map(|s| format!(" as {s}")).unwrap_or_default();
    if full || running {
        if !rules.waitlist() {
            return Err(Refusal::new(format!(
                "Game #{id} is full ({}).",
                crate::games::count(seated, "player")
            )));
        }
        welcome(work, rules, user);
        work.record.waitlist.push(entry);
        let place = work.record.waitlist.len();
        work.outcome.channel(
            &channel,
            format!(
                "{} is on the waitlist for game #{id}{with} (number {place}).",
                user.name
            ),
        );
        work.outcome.table_event(
            work.record.round,
            format!("{} joined the waitlist", user.name),
        );
        return Ok(true);
    }
    welcome(work, rules, user);
    work.record.seats.push(entry);
    let seated = seated + 1;
    work.outcome.channel(
        &channel,
        format!(
            "{} joins game #{id}{with}. {seated} player{} signed up. The GM starts with `{prefix}start`.",
            user.name,
            if seated == 1 { "" } else { "s" }
        ),
    );
    work.outcome
        .table_event(0, format!("{} joined{with}", user.name));
    // Games with a waitlist start by themselves when the table is full (50-Tile Circuit:
    // "the game will begin when 6 players are in"); others wait for the GM's `!start`.
    let full_now = work
        .record
        .settings
        .max_players
        .is_some_and(|max| seated >= max);
    if rules.waitlist() && full_now {
        return start(work);
    }
    Ok(true)
}

/// `!join bot [level]`: the GM seats a computer player during sign-ups.
fn join_computer(
    work: &mut Work<'_>,
    by: &User,
    admin: bool,
    level: ComputerLevel,
) -> Result<bool, Refusal> {
    work.require_gm(by, admin, "join bot")?;
    if work.record.status != Status::SignUp {
        return Err(Refusal::new(format!(
            "Game #{} has started: a computer takes a seat during sign-ups, or a player's seat with `{}replace @player bot`.",
            work.record.id, work.env.defaults.prefix
        )));
    }
    let computer = next_computer(&work.record);
    let joined = join(work, &computer, None)?;
    let seat = work
        .record
        .seats
        .iter_mut()
        .chain(work.record.waitlist.iter_mut())
        .find(|seat| seat.user.id == computer.id);
    if let Some(seat) = seat {
        seat.computer = Some(level);
    }
    let id = work.record.id;
    let prefix = work.env.defaults.prefix.clone();
    work.outcome.channel(
        &work.record.channel.clone(),
        format!(
            "{} is a computer player ({} level) in game #{id}: it plays its seat by itself, from what that seat may see. The GM names it `{}` in commands (`{prefix}kick {}`).",
            computer.name,
            level.word(),
            computer.short_name(),
            computer.short_name()
        ),
    );
    Ok(joined)
}

/// The longest symbol or colour a player may ask for at `!join` (every game may set less).
const MAX_SYMBOL: usize = 20;

/// Refuses a colour outside the game's palette, naming the colours there are (a game with
/// no palette takes any symbol its own check allows).
fn in_palette(rules: &dyn Rules, wanted: Option<&str>) -> Result<(), Refusal> {
    let palette = rules.palette();
    let Some(wanted) = wanted.filter(|_| !palette.is_empty()) else {
        return Ok(());
    };
    let name = wanted
        .split_whitespace()
        .map(|word| word.to_lowercase().replace("gray", "grey"))
        .collect::<Vec<_>>()
        .join(" ");
    if palette.contains(&name.as_str()) {
        return Ok(());
    }
    Err(Refusal::new(format!(
        "'{}' is not one of the colours of {}; choose one of {}.",
        crate::chat::parse::quote(wanted),
        rules.name(),
        palette.join(", ")
    )))
}

/// A player who signs up is written to at once: the welcome says what goes by DM (secret
/// orders, `status`, `help`), and a player whose DMs are closed is found now (the platform
/// then tells the channel), not when the first secret phase or reminder comes.
fn welcome(work: &mut Work<'_>, rules: &dyn Rules, user: &User) {
    // A player whose private thread is coming is welcomed there.
    if work.record.settings.orders_in_threads {
        return;
    }
    let how = if rules.orders().is_empty() {
        format!(
            "You play in the channel with `{}` commands; I write to you here with reminders.",
            work.env.defaults.prefix
        )
    } else {
        "I take your secret orders here, by direct message.".to_string()
    };
    let text = format!(
        "Welcome to game #{} ({}) in {}. {how}\n{}",
        work.record.id,
        rules.name(),
        mention::channel(&work.record.channel),
        super::dm_help(Some(rules))
    );
    work.outcome.direct(&user.id, text);
}
