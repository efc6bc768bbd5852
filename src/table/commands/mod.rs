//! The table's vocabulary: every command a person types after the prefix (`!undo`, `!kick
//! @bob`) or sends by direct message (`status`, `vacation 5d`) is one module here, which says
//! everything about it in one [`Command`]: its words, where it is said (channel, DM, both),
//! who may use it, its help line, how its arguments are read, its slash command and what it
//! does. The channel parser, the DM reader, `!help` and `help` by DM, the slash registration
//! and README's command table all read [`REGISTRY`], so adding a command is adding a module
//! and its line there. A word that is not a command here is the game's own public action in
//! the channel (`!move 2 5`), and an order by DM (`bid 5`).

mod audit;
mod board;
mod concede;
mod deadline;
mod direct;
mod draw;
mod end;
mod games;
pub mod help;
mod home;
mod join;
mod kick;
mod leaderboard;
mod leave;
mod log;
mod new;
mod nudge;
mod order;
mod pause;
mod play;
mod replace;
mod resolve;
mod resume;
mod rules;
mod setup;
mod start;
mod stats;
mod status;
mod undo;
mod vacation;
mod who;

pub use direct::{dm_help, game_named, read_direct, Among, Direct, DmHelp, ReadDirect, Takes};
pub(crate) use direct::{only_by_dm, DirectApplies, DirectRun};
pub(crate) use home::homed;
pub use order::COMMAND as ORDER;
pub use setup::{salted, COMMAND as SETUP};
pub use undo::COMMAND as UNDO;

use super::lookup::Lookup;
use super::outcome::Outcome;
use super::work::{Env, UndoTarget, Work};
use crate::chat::parse::{quote, ParseError};
use crate::games::Refusal;
use crate::records::{Audience, GameRecord, Input, Phase, User};
use crate::store::{GameRow, StoreError, Tx};
use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;

/// Every command, in the order `!help` lists them.
pub static REGISTRY: &[&Command] = &[
    &games::COMMAND,
    &help::COMMAND,
    &rules::COMMAND,
    &new::COMMAND,
    &join::COMMAND,
    &leave::COMMAND,
    &start::COMMAND,
    &board::COMMAND,
    &status::COMMAND,
    &log::COMMAND,
    &audit::COMMAND,
    &stats::COMMAND,
    &leaderboard::COMMAND,
    &resolve::COMMAND,
    &deadline::COMMAND,
    &kick::COMMAND,
    &replace::COMMAND,
    &pause::COMMAND,
    &resume::COMMAND,
    &end::COMMAND,
    &home::COMMAND,
    &undo::COMMAND,
    &who::COMMAND,
    &concede::COMMAND,
    &draw::COMMAND,
    &nudge::COMMAND,
    &play::COMMAND,
    &order::COMMAND,
    &vacation::COMMAND,
    &setup::COMMAND,
];

/// The commands said by direct message: those of [`REGISTRY`] with a form by DM, in the order
/// `help` by DM names them ([`Direct::listed`]).
pub static BY_DM: LazyLock<Vec<&'static Command>> = LazyLock::new(|| {
    let mut said: Vec<&'static Command> = REGISTRY
        .iter()
        .copied()
        .filter(|command| command.direct.is_some())
        .collect();
    said.sort_by_key(|command| command.direct.as_ref().map(|direct| direct.listed));
    said
});

/// One command, everything about it.
pub struct Command {
    /// The word typed after the prefix, or first by DM.
    pub name: &'static str,
    /// Other words typed for it in the channel (`!lb` for `!leaderboard`); the table reads
    /// them as the name, and the slash command is the name's alone.
    pub aliases: &'static [&'static str],
    /// Who may use it.
    pub who: Who,
    /// How it is written, after the prefix (`kick @player`), or by DM when it is said only
    /// there.
    pub usage: &'static str,
    /// What it does, for `!help` and the slash command's description.
    pub about: &'static str,
    /// Its slash command, or why it has none.
    pub slash: Slash,
    /// Whether it still answers about a channel's last game once that game is over (`!board`,
    /// or `!undo` saying why it cannot).
    pub after_end: bool,
    /// Whether its answer carries the game's buttons, as a change does (`!board`).
    pub buttons: bool,
    /// Whether it may be used only once in each phase of a game (`!nudge`).
    pub once_a_phase: bool,
    /// Reads the words after it (`None`: it takes none).
    pub(crate) check: Option<Check>,
    /// What it reads before it is applied in the channel: the game it goes to and the input
    /// logged (`None`: the channel's game, the words as said).
    pub(crate) prepare: Option<Prepare>,
    /// What it does in the channel.
    pub(crate) run: Run,
    /// Its form by direct message, if it is said there.
    pub direct: Option<Direct>,
    /// What `!help <command>` adds under the one line every list shows (empty: nothing).
    pub explained: &'static str,
}

/// Reads the words after a command: a refusal says what was wrong and what would be
/// accepted.
pub type Check = fn(args: &str, prefix: &str) -> Result<(), ParseError>;

/// A command's words read into a value of their own, in one place: the parser reads them when
/// they are said, so what does not read is refused before anything is logged, and the handler
/// is given the value (read again from the log whenever the game is applied or replayed).
pub(crate) trait Words: Sized {
    /// Reads the words after the command: a refusal says what was wrong and what would be
    /// accepted.
    fn read(args: &str, prefix: &str) -> Result<Self, ParseError>;
}

/// Words that are applied to the channel's game.
pub(crate) trait Applies: Words {
    /// Applies them: `Ok(true)` when the game changed.
    fn apply(self, work: &mut Work<'_>, said: &Said<'_>) -> Result<bool, Refusal>;
}

/// Words answered from what is stored, changing nothing.
pub(crate) trait Answers: Words + Send + 'static {
    /// The answer.
    fn answer(self, asked: Asked<'_>) -> Reply<'_>;
}

/// Words that open a game in a channel that has none.
pub(crate) trait Opens: Words {
    /// What opening reads and adds before it is applied (what the bot says for the game, as
    /// its seed), or why it is refused.
    fn prepare(preparing: Preparing<'_>) -> Preparation<'_>;

    /// The game opened as game `id` in `channel` by `user`, and what is said of it.
    fn open(self, id: i64, channel: &str, user: &User, env: &Env<'_>) -> Opened;
}

/// [`Words::read`] as the parser calls it, the value dropped.
pub(super) fn checked<T: Words>(args: &str, prefix: &str) -> Result<(), ParseError> {
    T::read(args, prefix).map(drop)
}

/// An [`Apply`] handler reading its words into `T`.
fn applied<T: Applies>(work: &mut Work<'_>, said: &Said<'_>, args: &str) -> Result<bool, Refusal> {
    T::read(args, &work.env.defaults.prefix)
        .map_err(unreadable)?
        .apply(work, said)
}

/// An [`Answer`] reading its words into `T`.
fn answered<T: Answers>(asked: Asked<'_>) -> Reply<'_> {
    match T::read(asked.args, asked.prefix()) {
        Ok(words) => words.answer(asked),
        Err(error) => {
            let refusal = asked.refuse(error.0);
            Box::pin(async move { Ok(refusal) })
        }
    }
}

/// An [`Open`] handler reading its words into `T`.
fn opened<T: Opens>(id: i64, channel: &str, user: &User, args: &str, env: &Env<'_>) -> Opened {
    T::read(args, &env.defaults.prefix)
        .map_err(unreadable)?
        .open(id, channel, user, env)
}

impl Command {
    /// A command that takes nothing after it (so it is written as its name), answers in the
    /// open, with a slash command of no options, and acts on the channel's open game only.
    pub(crate) const fn new(
        name: &'static str,
        who: Who,
        about: &'static str,
        run: Run,
    ) -> Command {
        Command {
            name,
            aliases: &[],
            who,
            usage: name,
            about,
            slash: Slash::Options {
                options: &[],
                private: false,
            },
            after_end: false,
            buttons: false,
            once_a_phase: false,
            check: None,
            prepare: None,
            run,
            direct: None,
            explained: "",
        }
    }

    /// A command whose words are read into `T` and applied to the channel's game.
    pub(crate) const fn applying<T: Applies>(
        name: &'static str,
        who: Who,
        usage: &'static str,
        about: &'static str,
    ) -> Command {
        Command::new(name, who, about, Run::Apply(applied::<T>))
            .usage(usage)
            .reads(checked::<T>)
    }

    /// A read-only command whose words are read into `T`, which answers.
    pub(crate) const fn answering<T: Answers>(
        name: &'static str,
        who: Who,
        usage: &'static str,
        about: &'static str,
    ) -> Command {
        Command::new(name, who, about, Run::Answer(answered::<T>))
            .usage(usage)
            .reads(checked::<T>)
    }

    /// A command whose words are read into `T`, which opens a game once prepared.
    pub(crate) const fn opening<T: Opens>(
        name: &'static str,
        who: Who,
        usage: &'static str,
        about: &'static str,
    ) -> Command {
        Command::new(name, who, about, Run::Open(opened::<T>))
            .usage(usage)
            .reads(checked::<T>)
            .prepared(T::prepare)
    }

    /// The same, its words read into `T` when said (the handler or its preparation reads
    /// them again).
    pub(crate) const fn reading<T: Words>(self) -> Command {
        self.reads(checked::<T>)
    }

    /// The same, prepared by `prepare` before it is applied.
    pub(crate) const fn prepared(self, prepare: Prepare) -> Command {
        Command {
            prepare: Some(prepare),
            ..self
        }
    }

    /// The same, taking any words after it (the handler reads them: a symbol to play, a
    /// topic of help).
    pub(crate) const fn takes_any_words(self) -> Command {
        self.reads(any_words)
    }

    /// The same, written `usage` (for one that takes words after its name).
    pub(crate) const fn usage(self, usage: &'static str) -> Command {
        Command { usage, ..self }
    }

    /// The same, with what `!help <command>` adds to its line.
    pub(crate) const fn explains(self, explained: &'static str) -> Command {
        Command { explained, ..self }
    }

    /// A command said only by direct message.
    pub(crate) const fn by_dm_only(
        name: &'static str,
        who: Who,
        about: &'static str,
        direct: Direct,
    ) -> Command {
        let usage = direct.usage;
        Command {
            direct: Some(direct),
            ..Command::new(name, who, about, Run::DirectOnly).usage(usage)
        }
    }

    /// The same, said by direct message too, so.
    pub(crate) const fn by_dm(self, direct: Direct) -> Command {
        Command {
            direct: Some(direct),
            ..self
        }
    }

    /// Where it is said.
    pub fn place(&self) -> Place {
        match (&self.run, &self.direct) {
            (Run::DirectOnly, _) => Place::Direct,
            (_, Some(_)) => Place::Both,
            (_, None) => Place::Channel,
        }
    }

    /// The same, also typed as `aliases`.
    pub(crate) const fn aliases(self, aliases: &'static [&'static str]) -> Command {
        Command { aliases, ..self }
    }

    /// The same, its words checked by `check` when said (the game reads its own actions).
    pub(crate) const fn reads(self, check: Check) -> Command {
        Command {
            check: Some(check),
            ..self
        }
    }

    /// The same, with these slash options.
    pub(crate) const fn slash(self, options: &'static [SlashOption]) -> Command {
        Command {
            slash: Slash::Options {
                options,
                private: false,
            },
            ..self
        }
    }

    /// The same, answered privately as a slash command.
    pub(crate) const fn private(self) -> Command {
        let options = match self.slash {
            Slash::Options { options, .. } => options,
            Slash::None(_) => &[],
        };
        Command {
            slash: Slash::Options {
                options,
                private: true,
            },
            ..self
        }
    }

    /// The same, answering about the channel's last game after it ended.
    pub(crate) const fn looks_back(self) -> Command {
        Command {
            after_end: true,
            ..self
        }
    }

    /// The same, used at most once in each phase of a game.
    pub(crate) const fn once_a_phase(self) -> Command {
        Command {
            once_a_phase: true,
            ..self
        }
    }

    /// The same, its answer carrying the game's buttons.
    pub(crate) const fn with_buttons(self) -> Command {
        Command {
            buttons: true,
            ..self
        }
    }

    /// What its slash command says it does, within Discord's 100 characters: the help
    /// line's first clause, without its asides in brackets, commands named as slash commands,
    /// "(the GM)" for the GM's, and that only the asker sees a private answer, where it fits.
    pub fn slash_description(&self) -> String {
        let about = self.about.strip_prefix("GM: ").unwrap_or(self.about);
        let mut plain = String::new();
        let mut depth = 0;
        for c in about.chars() {
            match c {
                '(' => depth += 1,
                ')' if depth > 0 => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let clause = plain
            .split("; ")
            .next()
            .and_then(|clause| clause.split(": ").next())
            .unwrap_or_default();
        let mut words: Vec<&str> = Vec::new();
        for word in clause.split_whitespace() {
            if words.iter().map(|w| w.len() + 1).sum::<usize>() + word.len() > 88 {
                break;
            }
            words.push(word);
        }
        let mut text = words
            .join(" ")
            .trim_end_matches([';', ','])
            .replace("`!", "`/");
        if let Some(first) = text.get(..1) {
            text.replace_range(..1, &first.to_uppercase());
        }
        if self.who == Who::Gm {
            text.push_str(" (the GM)");
        }
        const PRIVATE: &str = "; only you see the answer";
        let private = matches!(self.slash, Slash::Options { private: true, .. });
        if private && text.chars().count() + PRIVATE.len() <= 100 {
            text.push_str(PRIVATE);
        }
        text
    }

    /// Reads the words after the command.
    pub fn read(&self, args: &str, prefix: &str) -> Result<(), ParseError> {
        match self.check {
            Some(check) => check(args, prefix),
            None => match args {
                "" => Ok(()),
                args => Err(ParseError(format!(
                    "`{prefix}{}` takes nothing after it; got '{}'",
                    self.name,
                    quote(args)
                ))),
            },
        }
    }
}

/// Any words, read by the handler.
fn any_words(_args: &str, _prefix: &str) -> Result<(), ParseError> {
    Ok(())
}

/// Where a command is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In a game's channel, after the prefix.
    Channel,
    /// To the bot by direct message.
    Direct,
    /// In both.
    Both,
}

impl Place {
    /// The word README's table uses.
    pub fn word(self) -> &'static str {
        match self {
            Place::Channel => "channel",
            Place::Direct => "DM",
            Place::Both => "channel, DM",
        }
    }
}

/// Who may use a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Anyone in the channel.
    Anyone,
    /// A player of the channel's game (the command says why not to anyone else).
    Player,
    /// The game's GM, or a server admin.
    Gm,
}

impl Who {
    /// The word README's table and `!help` use.
    pub fn word(self) -> &'static str {
        match self {
            Who::Anyone => "anyone",
            Who::Player => "player",
            Who::Gm => "GM",
        }
    }
}

/// A command's slash form.
pub enum Slash {
    /// `/name` with these options, in order; their values are typed after the name.
    Options {
        /// The options.
        options: &'static [SlashOption],
        /// Whether only the user who asked sees the answer (help and rules).
        private: bool,
    },
    /// No slash command, for this reason.
    None(&'static str),
}

/// One option of a slash command.
pub struct SlashOption {
    /// Its name.
    pub name: &'static str,
    /// What to put there.
    pub about: &'static str,
    /// What kind of value.
    pub kind: SlashKind,
    /// Whether it must be given.
    pub required: bool,
}

impl SlashOption {
    /// An optional option of free text.
    pub(crate) const fn text(name: &'static str, about: &'static str) -> SlashOption {
        SlashOption {
            name,
            about,
            kind: SlashKind::Text,
            required: false,
        }
    }

    /// An optional option naming a game.
    pub(crate) const fn game(name: &'static str, about: &'static str) -> SlashOption {
        SlashOption {
            kind: SlashKind::Game,
            ..SlashOption::text(name, about)
        }
    }

    /// An optional option naming one of the asker's games.
    pub(crate) const fn my_game(name: &'static str, about: &'static str) -> SlashOption {
        SlashOption {
            kind: SlashKind::MyGame,
            ..SlashOption::text(name, about)
        }
    }

    /// An optional option naming one of the games in sign-up the asker runs.
    pub(crate) const fn my_sign_up(name: &'static str, about: &'static str) -> SlashOption {
        SlashOption {
            kind: SlashKind::MySignUp,
            ..SlashOption::text(name, about)
        }
    }

    /// An optional option seating a computer player at the level given.
    pub(crate) const fn computer(name: &'static str, about: &'static str) -> SlashOption {
        SlashOption {
            kind: SlashKind::Computer,
            ..SlashOption::text(name, about)
        }
    }

    /// The same, optional.
    pub(crate) const fn optional(self) -> SlashOption {
        SlashOption {
            required: false,
            ..self
        }
    }

    /// A member of the server, who must be given.
    pub(crate) const fn user(name: &'static str, about: &'static str) -> SlashOption {
        SlashOption {
            kind: SlashKind::User,
            required: true,
            ..SlashOption::text(name, about)
        }
    }

    /// The same, to be given.
    pub(crate) const fn required(self) -> SlashOption {
        SlashOption {
            required: true,
            ..self
        }
    }
}

/// The kinds of slash option values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlashKind {
    /// Free text.
    Text,
    /// A game's name, offered from the games the bot hosts.
    Game,
    /// A member of the server (typed as their id).
    User,
    /// One of the asker's games (put as `#<number>` in front of a direct message).
    MyGame,
    /// One of the games in sign-up the asker runs, put so.
    MySignUp,
    /// A computer player's level (easy, normal or hard), typed as `bot <level>`.
    Computer,
}

/// What a command does.
pub(crate) enum Run {
    /// Answered from what is stored, changing nothing (never logged).
    Answer(Answer),
    /// Opens a game in a channel that has none.
    Open(Open),
    /// Takes the game back to an earlier point, rebuilt from its log before it is applied.
    Rebuild(Apply),
    /// Applied to the channel's game.
    Apply(Apply),
    /// The game's own action named after it (`!play move 1 5` is `!move 1 5`).
    Action,
    /// Said only by direct message: in the channel it is refused with where to say it.
    DirectOnly,
}

/// A handler applied to the game: `Ok(true)` when the game changed.
pub(crate) type Apply = fn(&mut Work<'_>, &Said<'_>, &str) -> Result<bool, Refusal>;

/// A handler that opens a game: the game's number, the channel, who asked, the words.
pub(crate) type Open = fn(i64, &str, &User, &str, &Env<'_>) -> Opened;

/// A game opened: its record and what is said of it, or why it is not.
pub(crate) type Opened = Result<(GameRecord, Outcome), Refusal>;

/// A read-only answer.
pub(crate) type Answer = for<'a> fn(Asked<'a>) -> Reply<'a>;

/// A read-only answer under way.
pub(crate) type Reply<'a> = Pin<Box<dyn Future<Output = Result<Outcome, StoreError>> + Send + 'a>>;

/// What a command reads before it is applied: the game it goes to and the input logged.
pub(crate) type Prepare = for<'a> fn(Preparing<'a>) -> Preparation<'a>;

/// A command's preparation under way: what to apply, or else the sentence it is refused with
/// (nothing is logged).
pub(crate) type Preparation<'a> =
    Pin<Box<dyn Future<Output = Result<Result<Prepared, String>, StoreError>> + Send + 'a>>;

/// A command said in a channel, being prepared.
pub(crate) struct Preparing<'a> {
    /// The table, as read-only answers see it.
    pub table: &'a dyn Lookup,
    /// The transaction it reads in.
    pub tx: &'a mut Tx,
    /// The channel.
    pub channel: &'a str,
    /// Who said it.
    pub user: &'a User,
    /// Whether they are a server admin.
    pub admin: bool,
    /// The channel's game (open, or its last one for a command that looks back).
    pub game: Option<GameRecord>,
    /// The words after the command.
    pub args: &'a str,
    /// The server it was said on, if the platform said.
    pub server: Option<&'a str>,
}

impl Preparing<'_> {
    /// The server it was said on, as the platform said or else as the channel's last game
    /// says (empty: the console, or a channel whose server is not known).
    pub async fn server(&mut self) -> Result<String, StoreError> {
        match self.server {
            Some(server) => Ok(server.to_string()),
            None => self.tx.channel_server(self.channel).await,
        }
    }

    /// The input said in the channel, with these words after the prefix.
    pub fn said(&self, text: String) -> Input {
        Input::Channel {
            channel: self.channel.to_string(),
            user: self.user.clone(),
            admin: self.admin,
            text,
            command: None,
            mentioned: Vec::new(),
            computer: false,
        }
    }
}

/// What a command prepared does: `input` is applied to `game` (`None`: the game it opens).
pub(crate) struct Prepared {
    /// The game.
    pub game: Option<GameRecord>,
    /// The input logged.
    pub input: Input,
    /// Where an undo takes the game back to.
    pub undo: Option<UndoTarget>,
    /// Where the game lived: what was still to be posted there follows it to the channel,
    /// once it is applied.
    pub moved_from: Option<Audience>,
}

/// Who said a command, as a handler sees it.
pub(crate) struct Said<'a> {
    /// Who.
    pub user: &'a User,
    /// The channel it was said in (`None`: not in a channel).
    pub channel: Option<&'a str>,
    /// Whether they are a server admin (GM powers).
    pub admin: bool,
    /// The users the line mentions, as the platform named them.
    pub mentioned: &'a [User],
}

/// A read-only command asked in a channel.
pub(crate) struct Asked<'a> {
    /// The table, as read-only answers see it.
    pub table: &'a dyn Lookup,
    /// The transaction it reads in.
    pub tx: &'a mut Tx,
    /// The channel.
    pub channel: &'a str,
    /// Who asked.
    pub user: &'a User,
    /// The channel's game (open, or its last one for a command that looks back).
    pub game: Option<&'a GameRow>,
    /// The words after the command.
    pub args: &'a str,
    /// The users the message mentions, as the platform names them.
    pub mentioned: &'a [User],
    /// The server it was asked on, as the platform said or else as the channel's last game
    /// says (empty: the console, or a channel whose server is not known).
    pub server: &'a str,
}

impl Asked<'_> {
    /// A refusal to the asker, in the channel.
    pub fn refuse(&self, text: impl std::fmt::Display) -> Outcome {
        Outcome::refusal(
            Audience::Channel(self.channel.to_string()),
            format!("{}: {text}", self.user.name),
        )
    }

    /// The channel's game (open, or else its last one), or the refusal saying there is none.
    pub async fn channel_game(&mut self) -> Result<Result<GameRecord, Outcome>, StoreError> {
        let found = match self.game {
            Some(game) => Some(game.record.clone()),
            None => self
                .tx
                .last_game_in_channel(self.channel)
                .await?
                .map(|game| game.record),
        };
        Ok(found.ok_or_else(|| self.refuse("there is no game in this channel.")))
    }

    /// The prefix.
    pub fn prefix(&self) -> &str {
        &self.table.defaults().prefix
    }
}

/// Applies a command to the channel's game: the GM's powers are refused to anyone else, a
/// command used once a phase is refused the second time, and its handler runs.
pub(crate) fn apply(
    command: &Command,
    work: &mut Work<'_>,
    said: &Said<'_>,
    admin: bool,
    args: &str,
) -> Result<bool, Refusal> {
    let prefix = work.env.defaults.prefix.clone();
    let run = match command.run {
        Run::Apply(run) => run,
        Run::Open(_) => {
            return Err(Refusal::new(format!(
                "There is already a game in this channel (#{}, {}). One game per channel: \
                 the GM can `{prefix}end` it first.",
                work.record.id, work.record.game
            )))
        }
        Run::Rebuild(_) => {
            return Err(Refusal::new(format!(
                "`{prefix}{}` is worked out from the game's log before it is applied.",
                command.name
            )))
        }
        Run::Answer(_) => {
            return Err(Refusal::new(format!(
                "`{prefix}{}` is answered before a game is loaded.",
                command.name
            )))
        }
        Run::Action => {
            let (word, args) = split(args);
            return super::rounds::act(work, said.user, &word, args);
        }
        Run::DirectOnly => return Err(Refusal::new(only_by_dm(command, &prefix))),
    };
    if command.who == Who::Gm {
        work.require_gm(said.user, admin, command.name)?;
    }
    if !command.once_a_phase {
        return run(work, said, args);
    }
    let phase = phase_key(&work.record);
    if work.record.once_a_phase.get(command.name) == Some(&phase) {
        return Err(Refusal::new(format!(
            "`{prefix}{}` was already used in this phase; it can be used once a phase.",
            command.name
        )));
    }
    run(work, said, args)?;
    work.record
        .once_a_phase
        .insert(command.name.to_string(), phase);
    Ok(true)
}

/// What tells one phase of a game from another: the round, when the phase began, and whose
/// turn it is or what orders it waits for (not which seats are still awaited: a player who
/// leaves does not begin another phase).
fn phase_key(record: &GameRecord) -> String {
    let phase = match &record.phase {
        Some(Phase::Turn { seat }) => format!("turn of seat {seat}"),
        Some(Phase::Orders { label, .. }) => format!("orders for {label}"),
        Some(Phase::Over { .. }) => "over".to_string(),
        None => String::new(),
    };
    let began = record
        .phase_started
        .map(|at| at.to_rfc3339())
        .unwrap_or_default();
    format!("{} {began} {phase}", record.round)
}

/// The command called `word`.
pub fn find(word: &str) -> Option<&'static Command> {
    REGISTRY
        .iter()
        .copied()
        .find(|command| command.name == word || command.aliases.contains(&word))
}

/// Splits what was said after the prefix into its word (lowercase) and the rest.
pub fn split(said: &str) -> (String, &str) {
    let said = said.trim();
    match said.split_once(char::is_whitespace) {
        Some((word, args)) => (word.to_lowercase(), args.trim()),
        None => (said.to_lowercase(), ""),
    }
}

/// What a channel line says after the prefix, or `None` when it is chatter (no prefix, or
/// nothing after it).
pub fn after_prefix<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix(prefix)?.trim();
    (!rest.is_empty()).then_some(rest)
}

/// Reads a channel line: `Ok(None)` for chatter; a table command whose words are wrong is
/// refused with what would be accepted; any other word is the game's, and so are the words
/// after `play` (`!play move 1 5` reads as `!move 1 5`).
pub fn parse_line(line: &str, prefix: &str) -> Result<Option<(String, String)>, ParseError> {
    let Some(rest) = after_prefix(line, prefix) else {
        return Ok(None);
    };
    let (word, args) = split(rest);
    match find(&word) {
        Some(command) if matches!(command.run, Run::Action) => {
            command.read(args, prefix)?;
            let (word, args) = split(args);
            Ok(Some((word, args.to_string())))
        }
        // Refused where it is routed, with where to say it.
        Some(command) if command.place() == Place::Direct => Ok(Some((word, args.to_string()))),
        // An alias is read as the name it stands for.
        Some(command) => {
            command.read(args, prefix)?;
            Ok(Some((command.name.to_string(), args.to_string())))
        }
        None => Ok(Some((word, args.to_string()))),
    }
}

/// Why a command is refused when its game's saved `what` does not read back (`reason`).
pub(crate) fn unreadable_save(what: &str, reason: &str) -> String {
    format!("the saved {what} is unreadable ({reason}); nothing was changed.")
}

/// The refusal of a handler whose words do not read (they were checked when said, so this
/// comes only from a log the parser no longer reads).
pub fn unreadable(error: ParseError) -> Refusal {
    Refusal::new(error.0)
}

/// README's table of commands, as the registry says it: one row per command, written as
/// typed in the channel, or by DM when it is said only there.
pub fn readme_table(prefix: &str) -> String {
    let mut table = String::from(
        "| command | where | who | what it does | slash |\n| --- | --- | --- | --- | --- |\n",
    );
    for command in REGISTRY {
        let slash = match &command.slash {
            Slash::Options { .. } => format!("`/{}`", command.name),
            Slash::None(reason) => format!("none: {reason}"),
        };
        let typed = match command.place() {
            Place::Direct => command.usage.to_string(),
            Place::Channel | Place::Both => format!("{prefix}{}", command.usage),
        };
        let also: Vec<String> = command
            .aliases
            .iter()
            .map(|alias| format!("`{prefix}{alias}`"))
            .collect();
        let also = match also.is_empty() {
            true => String::new(),
            false => format!("; also typed {}", also.join(", ")),
        };
        let about = command.about.strip_prefix("GM: ").unwrap_or(command.about);
        table.push_str(&format!(
            "| `{}` | {} | {} | {}{also} | {slash} |\n",
            typed.replace('|', "\\|"),
            command.place().word(),
            command.who.word(),
            about.replace('|', "\\|")
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::ComputerLevel;

    fn parsed(line: &str) -> Result<Option<(String, String)>, ParseError> {
        parse_line(line, "!")
    }

    #[test]
    fn channel_lines_read_as_the_registry_says() {
        assert_eq!(parsed("hello all"), Ok(None));
        assert_eq!(
            parsed("!NEW Tag seed=7"),
            Ok(Some(("new".into(), "Tag seed=7".into())))
        );
        assert_eq!(
            new::Opening::read("Tag seed=7", "!"),
            Ok(new::Opening {
                game: "tag".into(),
                options: vec![("seed".into(), "7".into())]
            })
        );
        assert_eq!(
            parsed("!deadline tomorow").unwrap_err().0,
            "`!deadline` takes a duration like 36h or a UTC time like 2026-12-01 18:00 UTC; got 'tomorow'"
        );
        assert!(parsed("!deadline 48h").is_ok());
        let replacement = |args: &str| replace::Replacement::read(args, "!");
        let by = |taker| {
            Ok(replace::Replacement {
                old: "42".into(),
                taker,
            })
        };
        assert_eq!(
            replacement("<@!42> @carol"),
            by(replace::Taker::Player("carol".into()))
        );
        assert_eq!(
            replacement("<@!42> bot"),
            by(replace::Taker::Computer(ComputerLevel::Normal))
        );
        assert_eq!(
            replacement("<@!42> BOT easy"),
            by(replace::Taker::Computer(ComputerLevel::Easy))
        );
        assert_eq!(
            replacement("<@!42> bot hard"),
            by(replace::Taker::Computer(ComputerLevel::Hard))
        );
        assert!(replacement("<@!42> bot brilliant").is_err());
        assert_eq!(
            parsed("!move 2 5 around"),
            Ok(Some(("move".into(), "2 5 around".into())))
        );
        assert!(find("move").is_none());
        assert!(parsed("!start now").is_err());
        assert!(parsed("!new tag seed").is_err());
    }

    #[test]
    fn every_command_is_found_by_its_name_and_written_once() {
        for command in REGISTRY {
            assert!(find(command.name).is_some_and(|found| std::ptr::eq(found, *command)));
            let same = REGISTRY.iter().filter(|c| c.name == command.name).count();
            assert_eq!(same, 1, "{} is registered twice", command.name);
            // Said as its word and what follows, but for an order, which is what follows.
            let word = command.usage.starts_with(command.name) || command.name == ORDER.name;
            assert!(word, "{}", command.usage);
        }
    }
}
