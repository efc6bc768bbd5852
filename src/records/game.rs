//! What the table remembers about one game, saved as one row: the seats, the GM, the settings,
//! the phase's deadline, the orders in, the dice position and the game's own state.

use crate::dice::Seed;
use crate::duration::duration_serde;
use crate::phase::{Options, Phase, Seat};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A person on the platform: a stable id and a display name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    /// The platform's id (on the console: the name).
    pub id: String,
    /// The name shown in texts.
    pub name: String,
}

impl User {
    /// A console user, whose id is its name.
    pub fn named(name: &str) -> User {
        User {
            id: name.to_string(),
            name: name.to_string(),
        }
    }

    /// The `n`th computer player of a game (from 1), called `name`, with an id no platform
    /// gives a person.
    pub fn computer(n: usize, name: String) -> User {
        User {
            id: format!("{COMPUTER_ID}{n}"),
            name,
        }
    }

    /// Whether this is a computer player (nobody to write to).
    pub fn is_computer(&self) -> bool {
        is_computer_id(&self.id)
    }

    /// How a GM names a computer player in a command (`bot1`); empty for a person.
    pub fn short_name(&self) -> String {
        self.computer_number()
            .map(|n| format!("bot{n}"))
            .unwrap_or_default()
    }

    /// A computer player's number in its game (`None`: a person).
    pub fn computer_number(&self) -> Option<usize> {
        self.id.strip_prefix(COMPUTER_ID)?.parse().ok()
    }
}

/// How a computer player's id begins.
const COMPUTER_ID: &str = "computer:";

/// Whether the user id `id` is a computer player's.
pub fn is_computer_id(id: &str) -> bool {
    id.starts_with(COMPUTER_ID)
}

/// How well a computer seat plays (the games' levels, as the record keeps them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputerLevel {
    /// A simple rule of thumb.
    Easy,
    /// Weighs its choices (the default).
    Normal,
    /// Searches within a time budget.
    Hard,
}

impl ComputerLevel {
    /// Reads `easy`, `normal` or `hard`.
    pub fn parse(word: &str) -> Option<ComputerLevel> {
        match word.trim().to_lowercase().as_str() {
            "easy" => Some(ComputerLevel::Easy),
            "normal" => Some(ComputerLevel::Normal),
            "hard" => Some(ComputerLevel::Hard),
            _ => None,
        }
    }

    /// The level's word.
    pub fn word(self) -> &'static str {
        match self {
            ComputerLevel::Easy => "easy",
            ComputerLevel::Normal => "normal",
            ComputerLevel::Hard => "hard",
        }
    }
}

/// A seat, or a place on the sign-up or waiting list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Who sits here.
    pub user: User,
    /// The symbol or colour asked for at `!join`.
    pub symbol: Option<String>,
    /// False once the player left or was removed (seats never renumber).
    pub present: bool,
    /// Until when the player is on vacation (`vacation 5d` by DM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away_until: Option<DateTime<Utc>>,
    /// Since when (kept from rules revision 1 on: a vacation cut short costs the time taken).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away_since: Option<DateTime<Utc>>,
    /// How much vacation the player has taken in this game.
    #[serde(default = "no_time", with = "duration_serde")]
    pub away_taken: Duration,
    /// How the player has kept the game's deadlines, for `!who`.
    #[serde(default)]
    pub attendance: Attendance,
    /// The level of the computer that plays this seat; `None`: a person plays it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerLevel>,
    /// The player's private thread in the game's channel, where what the game says to them
    /// alone goes and they send their secret orders (`orders=thread`, or their DMs closed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    /// Whether the platform refused a direct message to the player (their DMs are closed):
    /// they get a private thread instead.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dms_closed: bool,
}

impl SeatRecord {
    /// A new sign-up, with the symbol or colour asked for.
    pub fn new(user: User, symbol: Option<String>) -> SeatRecord {
        SeatRecord {
            user,
            symbol,
            present: true,
            away_until: None,
            away_since: None,
            away_taken: Duration::zero(),
            attendance: Attendance::default(),
            computer: None,
            thread: None,
            dms_closed: false,
        }
    }

    /// Whether the player is on vacation at `now`.
    pub fn away_at(&self, now: DateTime<Utc>) -> bool {
        self.away_until.is_some_and(|until| until > now)
    }
}

fn is_default_rule(rule: &NoMoveRule) -> bool {
    *rule == NoMoveRule::Default
}

fn no_time() -> Duration {
    Duration::zero()
}

/// How a player has kept the deadlines: orders and turns in before the phase's first
/// deadline, after it (the deadline had been extended or resolved late), or never.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attendance {
    /// Orders and turns in before the first deadline of their phase.
    pub on_time: u32,
    /// Orders and turns in after it.
    pub late: u32,
    /// Phases that ended without the player's order or move.
    pub missed: u32,
    /// The player's last accepted order or move: when, and what.
    pub last: Option<(DateTime<Utc>, String)>,
    /// How long the player took to answer each phase that waited for them, in seconds from
    /// the phase's start to their first order or move in it (`!stats`' median).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waits: Vec<u64>,
    /// The start of the last phase whose answer [`Attendance::waits`] holds (one a phase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed: Option<DateTime<Utc>>,
}

/// A player who conceded, and who was still in the game then: the conceder ranks just below
/// them (and above players already out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concession {
    /// The seat that conceded.
    pub seat: Seat,
    /// The seats still in the game when it did.
    pub still_in: Vec<Seat>,
}

/// A `hard` computer's move an undo took back, with the position it was decided at: the seat
/// makes it again when it stands there again. A `hard` computer thinks against the clock, so
/// its second thought could differ from its first, and a GM who plays could undo until it
/// blunders; easier levels decide by the position alone and need no memory of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recalled {
    /// The computer's seat.
    pub seat: Seat,
    /// The computer's user id: a seat handed to another player (or another computer) since
    /// decides for itself.
    pub user: String,
    /// The position it decided at, as a digest (the table's `computers::recall_key`).
    pub at: String,
    /// Whether it was a secret order (by DM) rather than an action in the channel.
    pub order: bool,
    /// What it said.
    pub text: String,
}

/// How a player's part in a game ended before the game did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parting {
    /// `!concede`.
    Conceded,
    /// `!leave`.
    Left,
    /// The GM's `!kick`.
    Kicked,
    /// The GM gave the seat to someone else (`!replace`).
    Replaced,
}

impl Parting {
    /// How the player went, in a few words ("removed by the GM").
    pub fn words(self) -> &'static str {
        match self {
            Parting::Conceded => "conceded",
            Parting::Left => "left",
            Parting::Kicked => "removed by the GM",
            Parting::Replaced => "replaced",
        }
    }
}

/// A player who left a running game, as their seat was when they did: the ratings count
/// them (a loss) and `!stats` says how they went, though the seat may now be someone else's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Departure {
    /// The seat they had.
    pub seat: Seat,
    /// The seat as they left it (who, how they kept the deadlines).
    pub was: SeatRecord,
    /// How they went.
    pub how: Parting,
}

/// What a player's vacation does to the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AwayRule {
    /// A deadline that falls in the vacation moves, once, to its end, for everyone.
    #[default]
    Extend,
    /// The player's default order is used (their turns time out at once).
    Default,
}

/// What becomes of a silent player's turn or order when the deadline passes (`nmr=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoMoveRule {
    /// The game's default.
    #[default]
    Default,
    /// The computer player (at `normal`) plays it for them.
    Bot,
}

/// Hours without deadlines or reminders, in a time zone: `quiet=23:00-08:00 tz=Europe/Rome`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietHours {
    /// When they begin, in minutes after local midnight.
    pub from: u32,
    /// When they end, in minutes after local midnight (before `from`: the next day).
    pub to: u32,
    /// The IANA time zone they are read in (`UTC` by default).
    pub tz: String,
}

/// A search asked of the table and not answered yet: the game waits for it (an impossible
/// call), or the GM does (a hint by DM).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchAsked {
    /// Which search (`impossible`, `hint`): its verdict comes back under this key.
    pub key: String,
    /// When the input that asked for it was sent.
    pub asked: DateTime<Utc>,
    /// Whether the GM asked (the verdict is the GM's answer) rather than the game.
    pub by_gm: bool,
}

/// Where the game is in its life.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// `!new` ran; players `!join`.
    SignUp,
    /// `!start` ran.
    Running,
    /// The GM paused; the deadline's remaining time is kept.
    Paused {
        /// How long the phase had left when paused (`None`: it had no deadline).
        #[serde(with = "optional_seconds")]
        remaining: Option<Duration>,
        /// Who paused it (kept from rules revision 1 on), to say so to whoever tries to play.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// Finished, by the rules or by the GM.
    Over,
}

impl Status {
    /// The word stored in the `games.status` column.
    pub fn word(&self) -> &'static str {
        match self {
            Status::SignUp => "signup",
            Status::Running => "running",
            Status::Paused { .. } => "paused",
            Status::Over => "over",
        }
    }
}

/// A secret order as stored: canonical text, receipt, time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOrder {
    /// The canonical text the game returned.
    pub text: String,
    /// The short hash sent back to the author.
    pub receipt: String,
    /// When it was sent (the platform's time; on the console, when it was accepted).
    pub at: DateTime<Utc>,
    /// Whether the computer sent it for the silent player of its seat (`nmr=bot`, kept from
    /// rules revision 6 on): revealed as the computer's, and counted as a missed order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
}

/// Table options, set at `!new`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The game's dice seed (secret until the end; its commitment is public from the start).
    pub seed: Seed,
    /// Whether someone at the table chose the seed (on the console, or the GM by DM with
    /// `setup seed=`): its dice can be known in advance, so the game says it is practice
    /// everywhere and is not rated. A seed the bot draws is never practice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// 32 bytes the bot drew when the GM chose the seed by DM (`setup seed=`), hashed with
    /// the seed into the commitment so that a guess of a small seed cannot be checked
    /// against it; revealed with the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<Seed>,
    /// Resolve an orders phase as soon as every awaited order is in.
    pub early: bool,
    /// How long before a deadline silent players get a reminder by DM.
    #[serde(with = "duration_serde")]
    pub reminder: Duration,
    /// Whether every player sends orders and reads what the game says to them alone in a
    /// private thread of the game's channel (`orders=thread`) rather than by DM.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub orders_in_threads: bool,
    /// A fixed length for every phase, replacing the game's own time limits.
    #[serde(with = "optional_seconds")]
    pub deadline: Option<Duration>,
    /// The most players seated (more go on the waitlist, for games that have one).
    pub max_players: Option<usize>,
    /// The vacation each player may take in this game (`vacation=14d`; zero: none).
    #[serde(default = "default_vacation", with = "duration_serde")]
    pub vacation: Duration,
    /// What a vacation does to the game (`away=extend` or `away=default`).
    #[serde(default)]
    pub away: AwayRule,
    /// What becomes of a silent player's move at the deadline (`nmr=default` or `nmr=bot`).
    #[serde(default, skip_serializing_if = "is_default_rule")]
    pub nmr: NoMoveRule,
    /// Hours when no deadline falls and no reminder is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet: Option<QuietHours>,
    /// The IANA time zone the game writes its clock times in (`tz=Europe/Rome`); `None`: UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tz: Option<String>,
    /// How long a player back from vacation early has before a deadline held for them falls
    /// (`grace=1h`): it comes back to the later of its first time and this after their return.
    #[serde(default = "default_grace", with = "duration_serde")]
    pub grace: Duration,
    /// The table's rules revision the game was opened under (logged with its `!new`): a later
    /// version keeps the rules of that revision for it. 0: opened before revisions were kept.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub revision: u32,
    /// The game's own rules revision it was opened under (logged with its `!new` as
    /// `game_revision=`), which the game reads to keep older rules for older games.
    /// 0: opened before games kept revisions (their first).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub game_revision: u32,
}

fn is_zero(revision: &u32) -> bool {
    *revision == 0
}

/// The vacation each player may take in a game unless `!new` says otherwise.
pub fn default_vacation() -> Duration {
    Duration::days(14)
}

/// How long a player back from vacation has before a deadline held for them, unless `!new`
/// says otherwise.
pub fn default_grace() -> Duration {
    Duration::hours(1)
}

/// Everything the table keeps about one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number (`#3`).
    pub id: i64,
    /// The channel it is played in.
    pub channel: String,
    /// The game's rules name (`tag`).
    pub game: String,
    /// The user who ran `!new`.
    pub gm: User,
    /// Table options.
    pub settings: Settings,
    /// The game's public options.
    pub options: Options,
    /// The GM's secret setup, sent by DM, revealed at `!start`.
    pub secret_options: Options,
    /// Where the game is in its life.
    pub status: Status,
    /// Seats in seating order (before the start: the sign-up list).
    pub seats: Vec<SeatRecord>,
    /// Sign-ups beyond the table's size, for games with a waitlist.
    pub waitlist: Vec<SeatRecord>,
    /// The round: 0 before the start; then the game's own number, or +1 every time a phase
    /// of orders ends; in a game of turns (from rules revision 3 on) +1 when every seat to
    /// move has had its turn, so three players' 60 turns are round 20.
    pub round: u64,
    /// The seats that have had a turn in the current round (a game of turns without its own
    /// round number, from rules revision 3 on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns_this_round: Vec<Seat>,
    /// The phase after the last change (what the game waits for).
    pub phase: Option<Phase>,
    /// When the current phase began, as a sent time: that of the message that began it, or
    /// the deadline's own time for a deadline that fired (`None` in records older than this
    /// field). An order sent before it was meant for an earlier phase.
    #[serde(default)]
    pub phase_started: Option<DateTime<Utc>>,
    /// How many turns the game had begun when the current phase began, in a game whose turn
    /// can come back to the same seat by itself (kept from rules revision 6 on): a change of
    /// it is a new turn, even of the same seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns_begun: Option<u64>,
    /// When the current phase resolves by itself.
    pub deadline: Option<DateTime<Utc>>,
    /// When silent players get their reminder.
    pub remind_at: Option<DateTime<Utc>>,
    /// The secret orders in for the current phase.
    pub orders: BTreeMap<Seat, StoredOrder>,
    /// The current phase's deadline as first set, before any extension (`!who` counts an
    /// order or move after it as late).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_deadline: Option<DateTime<Utc>>,
    /// Seats of the current orders phase whose default order is used because they are on
    /// vacation (`away=default`): the round does not wait for them.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub excused: BTreeSet<Seat>,
    /// Whether the current orders phase waits for its deadline even with every order in (it
    /// was put back by `!undo`, so players may change their orders until then).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
    /// Whether the current phase's deadline was already extended for a vacation (once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extended: bool,
    /// The current phase's deadline before a vacation moved it, while it is held (kept from
    /// rules revision 1 on): a player back early brings it back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_from: Option<DateTime<Utc>>,
    /// Searches under way beside the table, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub searches: Vec<SearchAsked>,
    /// Silent players the computer plays for in this phase (`nmr=bot`: their deadline passed).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub standing_in: BTreeSet<Seat>,
    /// When the computer's time to play for the silent players runs out (`nmr=bot`, from
    /// rules revision 6 on): the game's default is used then for those it has not played
    /// for. The stand-in's own limit, apart from the deadline orders are judged against,
    /// which stays where it passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in_until: Option<DateTime<Utc>>,
    /// Players who conceded, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conceded: Vec<Concession>,
    /// `hard` computers' moves taken back by an undo, made again at the same position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recalled: Vec<Recalled>,
    /// Players who voted for a draw (`!draw`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub draw_votes: BTreeSet<Seat>,
    /// The commands used once a phase (`!nudge`), each with the phase it was used in (as
    /// the table tells phases apart): it may be used again in another.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub once_a_phase: BTreeMap<String, String>,
    /// The players who left the game while it ran, in order (from this field's version on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub departed: Vec<Departure>,
    /// The forum the game was opened as a post of (`forum=`, on Discord): the post's tags show
    /// the game's state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forum: Option<String>,
    /// The server (guild) the game was opened on, as `!new` was logged with it (`None`: the
    /// console, or a game logged before the server was kept): ratings are per server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The dice stream's position.
    pub dice_position: u128,
    /// The game's own state (`None` before the start).
    pub state: Option<serde_json::Value>,
}

impl Settings {
    /// The commitment to the game's seed posted at the start: the SHA-256 of its 32 bytes,
    /// followed by the salt's where the GM chose it.
    pub fn commitment(&self) -> String {
        match &self.salt {
            Some(salt) => self.seed.salted_commitment(salt),
            None => self.seed.commitment(),
        }
    }

    /// What the commitment is the SHA-256 of, in words.
    pub fn committed_bytes(&self) -> &'static str {
        match self.salt {
            Some(_) => "the seed's 32 bytes followed by the 32 bytes of its salt, which I drew when the GM chose the seed (not of their hex text)",
            None => "the seed's 32 bytes (not of their hex text)",
        }
    }
}

/// The table's rules revision from which the stand-in has a time of its own
/// ([`GameRecord::stand_in_until`]) and leaves the deadline where it passed, and an order
/// says whether the computer sent it for its silent player.
pub const STAND_IN_APART_FROM: u32 = 6;

impl GameRecord {
    /// Whether the order of `seat` was sent by the computer standing in for its silent
    /// player: as the order says (from rules revision 6 on), or, in older games, while it
    /// stood in.
    pub fn stood_in(&self, seat: Seat) -> bool {
        match self.settings.revision >= STAND_IN_APART_FROM {
            true => self.orders.get(&seat).is_some_and(|order| order.stand_in),
            false => self.standing_in.contains(&seat),
        }
    }

    /// Whether the game waits for a search of its own (then nobody may act in it); a search
    /// the GM asked (a hint) holds nothing.
    pub fn waits_for_search(&self) -> bool {
        self.searches.iter().any(|asked| !asked.by_gm)
    }

    /// When the table must next act on its own for this game's phase: when the computer's
    /// time for the silent players runs out while it stands in for them, else the deadline.
    pub fn due(&self) -> Option<DateTime<Utc>> {
        self.stand_in_until.or(self.deadline)
    }

    /// The seats that should have a private thread and have none yet: every player's under
    /// `orders=thread`, and a player's whose DMs are closed (computers need none).
    pub fn threads_owed(&self) -> Vec<&SeatRecord> {
        if self.status == Status::Over {
            return Vec::new();
        }
        self.seats
            .iter()
            .chain(self.waitlist.iter())
            .filter(|seat| seat.present && seat.computer.is_none() && seat.thread.is_none())
            .filter(|seat| self.settings.orders_in_threads || seat.dms_closed)
            .collect()
    }

    /// The players' private threads: (player's id, thread).
    pub fn threads(&self) -> impl Iterator<Item = (&str, &str)> {
        self.seats
            .iter()
            .chain(self.waitlist.iter())
            .filter(|seat| seat.present)
            .filter_map(|seat| Some((seat.user.id.as_str(), seat.thread.as_deref()?)))
    }

    /// The computer no longer stands in for silent players (the phase changed, the GM gave
    /// them time again, the clock stopped).
    pub fn end_stand_in(&mut self) {
        self.standing_in.clear();
        self.stand_in_until = None;
    }

    /// Whether the GM ended the game (`!end`) before the game itself came to an end: it is
    /// over, though its phase is the one it stood in then.
    pub fn ended_by_gm(&self) -> bool {
        self.status == Status::Over && !matches!(self.phase, Some(Phase::Over { .. }))
    }

    /// The seats the game waits for now: the player whose turn it is, or those whose secret
    /// order is still missing.
    pub fn awaited(&self) -> Vec<Seat> {
        match &self.phase {
            Some(Phase::Turn { seat }) => vec![*seat],
            Some(Phase::Orders { seats, .. }) => seats
                .iter()
                .copied()
                .filter(|seat| !self.orders.contains_key(seat) && !self.excused.contains(seat))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The seats whose move the game waits for from the computer now, with its level: computer
    /// seats, and silent players it stands in for (none while the game waits for a search, is
    /// paused or over).
    pub fn computers_owed(&self) -> Vec<(Seat, ComputerLevel)> {
        if self.status != Status::Running || !self.searches.is_empty() {
            return Vec::new();
        }
        self.awaited()
            .into_iter()
            .filter_map(|seat| {
                let sat = self.seats.get(seat).filter(|sat| sat.present)?;
                let stands_in = self
                    .standing_in
                    .contains(&seat)
                    .then_some(ComputerLevel::Normal);
                sat.computer.or(stands_in).map(|level| (seat, level))
            })
            .collect()
    }

    /// The seat of a present player, by user id or (case-insensitive) name; a computer player
    /// also by its short name (`bot1`).
    pub fn seat_of(&self, who: &str) -> Option<Seat> {
        self.seats.iter().position(|seat| {
            seat.present
                && (seat.user.id == who
                    || seat.user.name.eq_ignore_ascii_case(who)
                    || (seat.user.is_computer()
                        && seat.user.short_name().eq_ignore_ascii_case(who)))
        })
    }

    /// The name of a seat's player, for texts.
    pub fn name(&self, seat: Seat) -> String {
        self.seats
            .get(seat)
            .map(|record| record.user.name.clone())
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    /// Every option the game sees: public options, then the secret setup over them.
    pub fn all_options(&self) -> Options {
        let mut options = self.options.clone();
        options.extend(self.secret_options.clone());
        options
    }
}

/// An optional duration as seconds with a millisecond fraction (`90.25`); whole seconds
/// written by earlier versions read back unchanged.
mod optional_seconds {
    use chrono::Duration;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        duration: &Option<Duration>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match duration {
            Some(duration) => {
                serializer.serialize_some(&(duration.num_milliseconds() as f64 / 1000.0))
            }
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Duration>, D::Error> {
        match Option::<f64>::deserialize(deserializer)? {
            Some(seconds) if seconds.is_finite() && seconds.abs() < 1e15 => {
                Duration::try_milliseconds((seconds * 1000.0).round() as i64)
                    .map(Some)
                    .ok_or_else(|| serde::de::Error::custom("duration out of range"))
            }
            Some(_) => Err(serde::de::Error::custom("duration out of range")),
            None => Ok(None),
        }
    }
}
