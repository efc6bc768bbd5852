//! The games, and the contract every game answers so the table never needs to know which one
//! it runs.
//!
//! A game is pure: no I/O, no clock of its own, no global randomness. Time arrives as
//! [`Ctx::now`], randomness as [`Ctx::dice`]. A game never half-applies an action: it checks
//! everything first and returns a [`Refusal`] (which changes nothing), or it applies the whole
//! action and returns what happened as [`Event`]s.
//!
//! Every game folder has the same layout: `mod.rs`, the game as the table sees it (its
//! [`Rules`] and [`Game`]); `parse.rs`, the players' words read into actions and orders;
//! `act.rs` (a game of turns: a public action applied) or `resolve.rs` (a game of orders: a
//! round resolved from the orders in); `picture.rs`, the board drawn, as text and as SVG;
//! `text.rs`, the game's sentences where they are more than the lines of its events;
//! `summary.md`, the rules for players; `computer.rs`, its computer player (a seat's next
//! order or action from what that seat may see); and its own pieces, each named for what it is (the
//! tiles, the map, the solver). `tests/layout.rs` checks it.

use crate::dice::Dice;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

pub use crate::phase::{Options, Phase, Seat};
pub use kit::{GameOption, Kit, OptionValue};

pub mod carcassonne;
pub mod circuit;
pub mod kit;
pub mod parcheesi;
pub mod search;
pub mod short_circuit;
pub mod tag;

/// The places of a game's end from its seats in order, best first, each beside the figure
/// that ranks it: seats next to each other with equal figures share a place.
pub fn ranked<K: PartialEq>(ordered: impl IntoIterator<Item = (K, Seat)>) -> Vec<Vec<Seat>> {
    let mut ranking: Vec<Vec<Seat>> = Vec::new();
    let mut last = None;
    for (figure, seat) in ordered {
        match ranking.last_mut() {
            Some(group) if last.as_ref() == Some(&figure) => group.push(seat),
            _ => ranking.push(vec![seat]),
        }
        last = Some(figure);
    }
    ranking
}

/// `n` things in words, singular or plural: `count(1, "point")` is "1 point", `count(3,
/// "point")` "3 points".
pub fn count(n: impl std::fmt::Display, singular: &str) -> String {
    let n = n.to_string();
    if n == "1" || n == "-1" {
        format!("{n} {singular}")
    } else {
        format!("{n} {singular}s")
    }
}

/// A seated player as a game sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The seat number.
    pub seat: Seat,
    /// The display name used in game texts.
    pub name: String,
    /// What the player asked for at `!join` (a symbol, a colour), if anything.
    pub symbol: Option<String>,
    /// Whether a computer plays the seat (a game may mark it apart from people's seats).
    pub computer: bool,
}

impl Player {
    /// A person (not a computer) in seat `seat` called `name`, who asked for no symbol.
    pub fn person(seat: Seat, name: impl Into<String>) -> Player {
        Player {
            seat,
            name: name.into(),
            symbol: None,
            computer: false,
        }
    }
}

/// How well a computer player plays a seat.
#[derive(Clone, Debug)]
pub enum Level {
    /// Looks one step ahead by a simple rule of thumb.
    Easy,
    /// Weighs its choices against what the others might do.
    Normal,
    /// Searches: plays its best candidates on to the end (or a horizon) many times, against
    /// `normal` players, in games imagined from what its seat may see, within the budget; or
    /// plays a plan of its game's own where that beats a search (50-Tile Circuit's traps).
    Hard(search::Budget),
}

/// What a computer player sends, in the words a person would type (without a prefix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A secret order for the current orders phase, as sent by DM (`bid 4`).
    Order(String),
    /// A public action for the seat's turn: the command word and the rest of the line
    /// (`move 1 5`).
    Action(String),
}

/// Who may see an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Visibility {
    /// Everyone: posted in the game channel.
    Public,
    /// One seat only: sent by DM.
    Seat(Seat),
    /// Nobody yet (a face-down token): kept in the audit log, shown only in secret exports.
    Sealed,
}

/// One thing that happened in a game, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Who may see it.
    pub visibility: Visibility,
    /// What happened, as the players read it.
    pub text: String,
}

impl Event {
    /// An event everyone sees.
    pub fn public(text: impl Into<String>) -> Event {
        Event {
            visibility: Visibility::Public,
            text: text.into(),
        }
    }

    /// An event only `seat` sees (by DM).
    pub fn to_seat(seat: Seat, text: impl Into<String>) -> Event {
        Event {
            visibility: Visibility::Seat(seat),
            text: text.into(),
        }
    }

    /// An event nobody sees until the game reveals it in a later public event.
    pub fn sealed(text: impl Into<String>) -> Event {
        Event {
            visibility: Visibility::Sealed,
            text: text.into(),
        }
    }
}

/// Why an order, action or option was not accepted: one sentence for the player, saying what
/// was wrong and what would be accepted. A refusal changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error("{0}")]
pub struct Refusal(pub String);

impl Refusal {
    /// A refusal with this sentence.
    pub fn new(text: impl Into<String>) -> Refusal {
        Refusal(text.into())
    }
}

/// Why a saved game state could not be read back (a corrupt or foreign row).
#[derive(Debug, Error)]
#[error("saved {game} state is unreadable: {reason}")]
pub struct LoadError {
    /// The game's name.
    pub game: &'static str,
    /// What was wrong.
    pub reason: String,
}

/// What a game is given to apply a change: the time, the game's dice, and the rules
/// revision the game was opened under.
pub struct Ctx<'a> {
    /// The table's clock at the moment of the input.
    pub now: DateTime<Utc>,
    /// The game's seeded dice; every draw is logged.
    pub dice: &'a mut Dice,
    /// The game's rules revision ([`Rules::revision`]) logged with its `!new`: where a
    /// revision changed an outcome, the game keeps the older behaviour for older games, so a
    /// game ends under the rules it began with and replays under them.
    pub revision: u32,
}

impl Ctx<'_> {
    /// The revision of a game opened by this binary at its newest rules (what tests of a
    /// game's newest behaviour pass): later than every revision a game names.
    pub const NEWEST: u32 = u32::MAX;
}

/// A search a game needs done before it can answer (Short Circuit's solver judging an
/// impossible call, or the GM's hint): pure work on a copy of the position, which the table
/// runs beside itself (no other game waits for it) and whose verdict it applies afterwards
/// as an input of its own ([`Game::verdict`]), logged, so a replay reads the verdict instead
/// of searching again.
pub struct Search {
    /// What the search answers, so its verdict finds its way back (`impossible`, `hint`).
    pub key: String,
    /// The work: returns the verdict as text, taking at most the given number of search
    /// steps (the table's `search_steps` setting) before it answers that it cannot tell.
    pub work: Box<dyn FnOnce(u64) -> String + Send>,
    /// Whether the verdict is kept sealed until the game ends (the table says so while the
    /// game waits, rather than promising it).
    pub sealed: bool,
}

/// A picture or text of the board, as one audience may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// A text board that fits a Discord message (code blocks welcome).
    pub text: String,
    /// The same board as an SVG document, rendered to PNG by [`crate::picture`].
    pub svg: Option<String>,
}

/// One of the few options a player picks among now (a Parcheesi step, TAG's stomp or stride),
/// as the words the player would type; platforms may offer it as a button.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The button's short label.
    pub label: String,
    /// The command as typed: a public action without prefix (`move 1 5`), or a secret order.
    pub command: String,
    /// Whether the command is a secret order (sent by DM) rather than a public action.
    pub secret: bool,
}

/// How one seat is drawn on the board pictures, for the legend above every picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The seat.
    pub seat: Seat,
    /// The symbol or letter drawn for the seat (an emoji, `A`), or its colour's name.
    pub mark: String,
    /// The seat's colour on the picture (an SVG colour), if it has one.
    pub colour: Option<String>,
}

/// The help line of one command a game adds to the vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandHelp {
    /// The command word, without prefix (`move`).
    pub name: &'static str,
    /// The usage line (`move <pawn> <die> [around]`).
    pub usage: &'static str,
    /// What it does, in one sentence.
    pub about: &'static str,
    /// Shorter words that mean the same (`m` for `move`): the table reads them as the name.
    pub aliases: &'static [&'static str],
}

impl CommandHelp {
    /// Whether `word` (lowercase, without prefix) is this command: its name or an alias.
    pub fn is(&self, word: &str) -> bool {
        self.name == word || self.aliases.contains(&word)
    }

    /// Its aliases as a help line shows them (`` (also `!m`) ``); empty without any.
    pub fn also(&self, prefix: &str) -> String {
        if self.aliases.is_empty() {
            return String::new();
        }
        let words: Vec<String> = self
            .aliases
            .iter()
            .map(|alias| format!("`{prefix}{alias}`"))
            .collect();
        format!(" (also {})", words.join(", "))
    }

    /// How a prompt prints the command, with the prefix the table then puts in its place:
    /// the usage without its optional tail (`` `!place <x> <y> <rotation>` ``).
    pub fn typed(&self) -> String {
        let required = self.usage.split(" [").next().unwrap_or(self.usage);
        format!("`!{required}`")
    }
}

impl CommandHelp {
    /// How a prompt prints an order sent by DM: its whole usage, without a prefix
    /// (`` `effect <action> [N] <land|pass>` ``).
    pub fn sent(&self) -> String {
        format!("`{}`", self.usage)
    }
}

/// The order `name` among a game's declared `orders`, as a prompt prints it; a word the game
/// does not declare is printed as it is.
pub fn order_usage(orders: &[CommandHelp], name: &str) -> String {
    orders
        .iter()
        .find(|order| order.name == name)
        .map_or_else(|| format!("`{name}`"), CommandHelp::sent)
}

/// The command among `commands` that `word` names (its name or an alias).
pub fn declared<'a>(commands: &'a [CommandHelp], word: &str) -> Option<&'a CommandHelp> {
    commands.iter().find(|command| command.is(word))
}

/// The command `name` among a game's declared `commands`, as a prompt prints it; a word the
/// game does not declare is printed as it is.
pub fn typed(commands: &[CommandHelp], name: &str) -> String {
    commands
        .iter()
        .find(|command| command.name == name)
        .map_or_else(|| format!("`!{name}`"), CommandHelp::typed)
}

/// What a change of a game gives (an action, a resolution, a verdict): what happened, or why
/// it was refused (then nothing changed).
pub type Happened = Result<Vec<Event>, Refusal>;

/// What a game's set-up gives: the game and what is told at its start, or why it cannot
/// start.
pub type Started = Result<(Box<dyn Game>, Vec<Event>), Refusal>;

/// The static facts of one game: its name, its limits and how to start or load it. What is
/// said once is the game's [`Kit`]; the rest is the game's own code.
pub trait Rules: Send + Sync {
    /// The game, described once (the `const` kit in its folder).
    fn kit(&self) -> &'static Kit;
    /// The name used in `!new <name>` (lowercase, one word).
    fn name(&self) -> &'static str {
        self.kit().name
    }
    /// The game's rules revision, logged with every `!new` of it: raised whenever a change
    /// can alter an outcome (a rule corrected, a new default), the game keeping the older
    /// behaviour for games opened under an older revision (see [`Ctx::revision`]). A game's
    /// module lists what each revision changed.
    fn revision(&self) -> u32 {
        self.kit().revision
    }
    /// One line for `!games`.
    fn about(&self) -> &'static str {
        self.kit().about
    }
    /// The rules in a few paragraphs for players (`!rules <game>`): the goal, a turn, the end,
    /// and what to type.
    fn summary(&self) -> &'static str {
        self.kit().summary
    }
    /// Explanations a player needs once, kept out of the rules and the prompts: each a word
    /// and its text, read with `!help <word>` (or `help <word>` by DM).
    fn topics(&self) -> &'static [(&'static str, &'static str)] {
        self.kit().topics
    }
    /// What the game calls the number [`Game::round`] counts, for the table's texts and the
    /// picture's header to say what the game's own texts say ("round 4", Circuit's "turn 4").
    fn round_word(&self) -> &'static str {
        self.kit().round_word
    }
    /// Fewest and most players (`None`: no upper limit).
    fn players(&self) -> (usize, Option<usize>) {
        self.kit().players
    }
    /// Fewest and most players under these options, where they change it (base Carcassonne
    /// seats fewer than with the Big Top): what sign-ups take and `!start` needs.
    fn players_with(&self, _options: &Options) -> (usize, Option<usize>) {
        self.players()
    }
    /// The options the game accepts, each with a one-line description.
    fn options(&self) -> &'static [GameOption] {
        self.kit().options
    }
    /// What option `key=value` (already checked) does, in a few words for the sign-up post
    /// to echo ("turn=5m: 5 minutes per turn"); `None`: the option speaks for itself.
    fn option_meaning(&self, _key: &str, _value: &str) -> Option<String> {
        None
    }
    /// Public commands (`!word ...` in the channel) the game adds.
    fn commands(&self) -> &'static [CommandHelp] {
        self.kit().commands
    }
    /// Secret orders (DM words) the game accepts.
    fn orders(&self) -> &'static [CommandHelp] {
        self.kit().orders
    }
    /// Checks options at `!new` time (and secret setup options), before anyone joins: by
    /// the kit's declarations, unless the game reads its options itself.
    fn check_options(&self, options: &Options) -> Result<(), Refusal> {
        self.kit().check_options(options)
    }
    /// The named colours a player may ask for at `!join`, in the order they are handed out
    /// (empty: the game takes free symbols, or none).
    fn palette(&self) -> &'static [&'static str] {
        self.kit().palette
    }
    /// Checks what a player asked for at `!join` (a symbol, a colour) against those taken.
    fn check_symbol(&self, wanted: Option<&str>, taken: &[String]) -> Result<(), Refusal>;
    /// Starts a game: the options and the number of players checked as the kit says (a
    /// game whose bounds depend on its options checks those in its setup), then the game's
    /// own [`Rules::setup`]. The table starts every game this way.
    fn start(&self, options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started {
        self.check_options(options)?;
        let (least, most) = self.players();
        let seated = players.len();
        if seated < least || most.is_some_and(|most| seated > most) {
            let wanted = match most {
                Some(most) if most == least => format!("exactly {least}"),
                Some(most) => format!("{least} to {most}"),
                None => format!("at least {least}"),
            };
            return Err(Refusal::new(format!(
                "{} needs {wanted} players, not {seated}",
                self.kit().title
            )));
        }
        self.setup(options, players, ctx)
    }
    /// Sets a game up for these players (in seat order) with these options, which
    /// [`Rules::start`] has checked.
    fn setup(&self, options: &Options, players: &[Player], ctx: &mut Ctx<'_>) -> Started;
    /// Whether sign-ups beyond the table's size wait on a list and replace leavers.
    fn waitlist(&self) -> bool {
        self.kit().waitlist
    }
    /// Reads back a state saved by [`Game::save`].
    fn load(&self, saved: &serde_json::Value) -> Result<Box<dyn Game>, LoadError>;
}

/// A game in progress.
pub trait Game: Send {
    /// What the game waits for now.
    fn phase(&self) -> Phase;
    /// The round or turn number the game's own texts use (TAG's "movement round 2",
    /// 50-Tile Circuit's "turn 3"), so `!status`, cards and `!log N` say the same; `None`:
    /// the table counts one round per phase.
    fn round(&self) -> Option<u64> {
        None
    }
    /// How many turns have begun so far, in a game whose turn can come back to the same seat
    /// by itself (Parcheesi: every other seat's turn played itself, having no legal move): a
    /// turn that begins is a new phase for the table, with its own deadline and post, even
    /// when it is the same seat's. `None`: a turn never comes back to its seat that way.
    fn turns_begun(&self) -> Option<u64> {
        None
    }
    /// How long the current phase may last unless the GM sets a deadline (`None`: no limit).
    fn time_limit(&self, options: &Options) -> Option<Duration>;
    /// Checks a secret order from `seat` for the current [`Phase::Orders`] and returns its
    /// canonical text (what is stored, echoed in the receipt and revealed at resolution). A
    /// game of turns alone keeps the default: the table asks only in an orders phase.
    fn check_order(&self, _seat: Seat, _text: &str) -> Result<String, Refusal> {
        Err(Refusal::new(
            "this game takes no secret orders; it is played in the channel",
        ))
    }
    /// Resolves the current orders phase from the stored orders (canonical texts); seats with
    /// no order get the game's default. A game of turns alone keeps the default.
    fn resolve(&mut self, _orders: &BTreeMap<Seat, String>, _ctx: &mut Ctx<'_>) -> Happened {
        Err(Refusal::new("this game has no rounds of orders to resolve"))
    }
    /// Applies one public action (`word` is the command without prefix, `args` the rest of the
    /// line) by `seat`.
    /// A game of secret orders alone keeps the default: the table asks only for the words
    /// of [`Rules::commands`], and the game has none.
    fn act(&mut self, _seat: Seat, word: &str, _args: &str, _ctx: &mut Ctx<'_>) -> Happened {
        Err(Refusal::new(format!(
            "this game has no public action `{word}`; its moves are secret orders by direct message"
        )))
    }
    /// The current [`Phase::Turn`] ran out of time: apply the game's default for the silent
    /// seat. A game without turns keeps the default, which does nothing.
    fn timeout(&mut self, _ctx: &mut Ctx<'_>) -> Vec<Event> {
        Vec::new()
    }
    /// `seat` left or was removed. `heir` is a waitlisted player who takes this seat over
    /// from the start (only for games whose [`Rules::waitlist`] is true).
    fn seat_left(&mut self, seat: Seat, heir: Option<&Player>, ctx: &mut Ctx<'_>) -> Vec<Event>;
    /// The GM replaced the player in `seat` by another: game texts now use `name`.
    fn rename(&mut self, seat: Seat, name: &str);
    /// The public board.
    fn board(&self) -> Board;
    /// The public board of a game the table ended while the game itself went on (a draw the
    /// players agreed, the last player left after concessions, the GM's `!end`): the board
    /// without whose turn it was. A game whose board never names a mover keeps the default.
    fn final_board(&self) -> Board {
        self.board()
    }
    /// Answers a public question (`!tiles`): anyone may ask at any time and nothing changes.
    /// `None`: `word` is not one of the game's questions (it is an action, or unknown).
    fn query(&self, _word: &str, _args: &str) -> Option<Result<String, Refusal>> {
        None
    }
    /// The search the game waits for before it goes on (Short Circuit's verdict on an
    /// impossible call); `None`: none. While one is pending no seat may act, and the table
    /// stops the clock.
    fn pending_search(&self) -> Option<Search> {
        None
    }
    /// Applies the verdict of the pending search `key` (what its work returned).
    fn verdict(&mut self, key: &str, _verdict: &str, _ctx: &mut Ctx<'_>) -> Happened {
        Err(Refusal::new(format!("no search `{key}` is awaited")))
    }
    /// The GM's private question by DM (Short Circuit's `hint`), answered by a search whose
    /// verdict is the answer; `None`: the game has no such question.
    fn gm_query(&self, _text: &str) -> Option<Search> {
        None
    }
    /// Checks a logged verdict of search `key` against the position it was given on, for
    /// replay: an answer that shows its work (a witness) must hold; an answer without one may
    /// be searched again within `steps_again` steps, which the replay gives only when the game
    /// was opened under the rules this binary searches by (a search of another revision may
    /// rightly answer otherwise). `Err`: why the verdict cannot be what the search said.
    fn check_verdict(
        &self,
        _key: &str,
        _verdict: &str,
        _steps_again: Option<u64>,
    ) -> Result<(), String> {
        Ok(())
    }
    /// The few options `seat` picks among now, as typed commands (empty: none, or too many to
    /// offer); `order` is the seat's stored secret order of this phase, if any.
    fn choices(&self, _seat: Seat, _order: Option<&str>) -> Vec<Choice> {
        Vec::new()
    }
    /// A warning for the receipt of `seat`'s accepted order `order` (its canonical text), such
    /// as TAG's bid that will put the player out; `None`: nothing to add.
    fn order_note(&self, _seat: Seat, _order: &str) -> Option<String> {
        None
    }
    /// What the player to move may type now, in one line, where the game can say it
    /// (Parcheesi's legal steps): `!board` repeats it under the board.
    fn prompt(&self) -> Option<String> {
        None
    }
    /// Whether the board (its text and picture) is posted only when a turn passes to another
    /// player rather than after every action within it: Parcheesi's dice are played one at
    /// a time, and a picture for each would flood the channel. The actions in between are
    /// posted as their lines alone.
    fn board_when_turn_passes(&self) -> bool {
        false
    }
    /// How each seat is drawn on the pictures (the legend above every picture); empty: the
    /// pictures draw no seat.
    fn marks(&self) -> Vec<Mark> {
        Vec::new()
    }
    /// What `seat` sees of its own situation (by DM, `status`).
    fn private_status(&self, seat: Seat) -> String;
    /// What a computer player at `level` in `seat` sends now, decided from what that seat may
    /// see (never another seat's order, the deck's order or a face-down token), its randomness
    /// drawn from `rng` (a stream of its own, never the game's dice). `None`: the seat owes
    /// nothing now.
    fn computer(
        &self,
        seat: Seat,
        level: Level,
        rng: &mut dyn rand_core::RngCore,
    ) -> Option<Decision>;
    /// The whole state, secrets included, for the store.
    fn save(&self) -> serde_json::Value;
    /// The state as far as a computer player's decision reads it: [`Game::save`] less what
    /// none reads (Short Circuit's clocks), so a position reached again after an undo is
    /// known for the same.
    fn position(&self) -> serde_json::Value {
        self.save()
    }
}

/// Options from `key=value` pairs, as a game's tests write them.
#[cfg(test)]
pub(crate) fn options_of(pairs: &[(&str, &str)]) -> Options {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{count, order_usage, typed, CommandHelp};

    #[test]
    fn counts_say_one_thing_or_several() {
        assert_eq!(count(1, "point"), "1 point");
        assert_eq!(count(0, "point"), "0 points");
        assert_eq!(count(-1, "point"), "-1 point");
        assert_eq!(count(35_usize, "player"), "35 players");
    }

    #[test]
    fn a_prompt_prints_a_declared_command_without_its_optional_tail() {
        let commands = [CommandHelp {
            name: "place",
            usage: "place <x> <y> <rotation> [meeple <feature> | pass]",
            about: "Place the drawn tile.",
            aliases: &[],
        }];
        assert_eq!(typed(&commands, "place"), "`!place <x> <y> <rotation>`");
        assert_eq!(typed(&commands, "pass"), "`!pass`");
    }

    #[test]
    fn a_prompt_prints_a_declared_order_whole_and_without_a_prefix() {
        let orders = [CommandHelp {
            name: "effect",
            usage: "effect <action> [N] <land|pass>",
            about: "The effect of the tile you claimed.",
            aliases: &[],
        }];
        assert_eq!(
            order_usage(&orders, "effect"),
            "`effect <action> [N] <land|pass>`"
        );
        assert_eq!(order_usage(&orders, "move"), "`move`");
    }
}
