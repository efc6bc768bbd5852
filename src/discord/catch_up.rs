//! Catching up after downtime. Discord does not replay to a new gateway session what was sent
//! while the bot was away, so at start-up and after every new session (not a RESUME, which
//! replays the missed events itself) the bot reads, for each channel with a game that is not
//! over (or ended within `database.keep_message_ids`), each other server channel with
//! messages newer than the last the bot saw in that server (a `!new` typed in a fresh
//! channel), and each DM channel of the open games' players and GMs, the messages after the
//! last one it applied, and applies them oldest first through the same path as live messages,
//! together with those kept aside for those places meanwhile (see `events` and
//! `kept_aside`). The message id is the idempotency key, so a message both read back and
//! delivered live is applied once; an order that arrives this way after its phase ended is
//! refused as late; a message the history gives edited is answered, never applied as if its
//! new text had been sent at its time.
//!
//! It does so without holding the table, so a restart on a big shard costs players little:
//! - games tied by a channel or a player are read back and applied together, a few groups side
//!   by side at the bot's pace, while live messages to games already read are answered; a
//!   live message to a place not read back yet waits for it and has it read next;
//! - a server's channels, each with its last message, come from the gateway (GUILD_CREATE),
//!   asked for only when they do not come;
//! - a place whose last message is known (from that listing, or from opening a DM channel) is
//!   not read when nothing came after what was applied there, or when that last message is
//!   the bot's own post made before the shard's mark (the bot keeps the id of its newest post
//!   in each channel, and notes every ten seconds, while nothing waits to be applied, that
//!   every message sent on a shard until ten seconds before was applied; a catch-up that
//!   could not read everything stops the mark until one that can).
//!
//! With several shards each new session reads what its own shard carries: the channels of
//! the servers Discord sends on that shard, and (on shard 0, which carries them) the direct
//! messages. A process holding only some shards thus never reads back what another process
//! receives live.

use super::events::Collector;
use super::inbound::{snowflake_at, typed, Held};
use super::kept_aside::{Awaited, Kept, Session, Source};
use super::{snowflake, Bot, DiscordError};
use crate::store::Tie;
use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::task::JoinSet;
use tracing::{info, warn};

/// Discord's largest page of channel history.
const PAGE: u8 = 100;

/// How far before a session began a server the bot never saw is read back: Discord's clock,
/// which dates the messages, may run a little behind ours.
const SESSION_MARGIN: chrono::Duration = chrono::Duration::seconds(10);

/// How many games (or servers) are read back side by side: enough to keep the bot's pace
/// busy while each request waits for its answer.
const SIDE_BY_SIDE: usize = 8;

/// How long after a session began a server's channels are awaited from the gateway (Discord
/// sends each server, with its channels, right after READY) before they are asked for.
const LISTING_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// How long before a session's READY was handled a server's channels may have come and still
/// count as this session's: serenity hands each event to a task of its own, so the
/// GUILD_CREATEs that follow READY may be handled first. Older ones belong to an earlier
/// session and may be stale.
const LISTING_SKEW: std::time::Duration = std::time::Duration::from_secs(5);

/// A server's channels and active threads, each with its last message's id.
type Listing = Vec<(serenity::ChannelId, Option<serenity::MessageId>)>;

/// The servers' channels as the gateway sent them (GUILD_CREATE), with when each came, so a
/// catch-up lists a server without a request, and reads no channel whose last message it
/// knows already.
#[derive(Default)]
pub(super) struct Listings(Mutex<Listed>);

#[derive(Default)]
struct Listed {
    by_server: HashMap<u64, (std::time::Instant, Listing)>,
    /// Each channel's last message, by channel.
    last: HashMap<u64, (std::time::Instant, Option<serenity::MessageId>)>,
    /// When each shard's latest session's READY was handled.
    sessions: HashMap<u32, std::time::Instant>,
}

impl Listings {
    fn lock(&self) -> std::sync::MutexGuard<'_, Listed> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes `guild`'s channels and active threads, as the gateway sent them now.
    pub(super) fn note(&self, guild: &serenity::Guild) {
        let now = std::time::Instant::now();
        let places: Listing = guild
            .channels
            .values()
            .chain(&guild.threads)
            .map(|channel| (channel.id, channel.last_message_id))
            .collect();
        let mut listed = self.lock();
        for (channel, last) in &places {
            listed.last.insert(channel.get(), (now, *last));
        }
        listed.by_server.insert(guild.id.get(), (now, places));
    }

    /// A session of `shard` whose READY was handled at `at` begins; whether its listings can
    /// be told from those of the session before (which began long enough before it).
    pub(super) fn session_began(&self, shard: u32, at: std::time::Instant) -> bool {
        let mut listed = self.lock();
        let before = listed.sessions.insert(shard, at);
        before.is_none_or(|before| at.duration_since(before) > 2 * LISTING_SKEW)
    }

    /// `guild`'s listing, if it came for the session whose READY was handled at `session`.
    fn get(&self, guild: u64, session: std::time::Instant) -> Option<Listing> {
        let listed = self.lock();
        let (at, places) = listed.by_server.get(&guild)?;
        (*at + LISTING_SKEW >= session).then(|| places.clone())
    }

    /// `channel`'s last message as this session's listing gave it (the inner `None`: the
    /// channel holds none); `None` when it is not known.
    fn last_of(
        &self,
        channel: u64,
        session: std::time::Instant,
    ) -> Option<Option<serenity::MessageId>> {
        let listed = self.lock();
        let (at, last) = listed.last.get(&channel)?;
        (*at + LISTING_SKEW >= session).then_some(*last)
    }
}

/// What a catch-up knows before it reads a place: when its session's READY was handled,
/// whether the servers' listings may be trusted for this session (not when the session
/// before began too short a while ago: a listing may then be that one's), and the shard's
/// mark (see `inbound::ticker`): every message sent on it before that was applied.
#[derive(Clone, Copy)]
struct Known {
    session: std::time::Instant,
    listings: bool,
    mark: Option<u64>,
}

/// A place to read, with from when it matters, and whether it is read at all (the people of
/// a game over are not: they only tie what they send to its channel).
#[derive(Clone, Copy)]
struct Planned {
    source: Source,
    since: DateTime<Utc>,
    read: bool,
}

/// A channel to read: where, from which message on, whether it is a server channel and on
/// which server, where known (a message read back from history does not say).
struct Read {
    channel: serenity::ChannelId,
    after: serenity::MessageId,
    in_server: bool,
    server: Option<u64>,
}

/// What a catch-up does next: read back a group of places (the games tied by a channel or a
/// player, whose messages are applied together in the order sent), or list a server for
/// channels without a game that hold missed messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Step {
    Group(usize),
    Server(u64),
}

/// Reads and applies every message the bot missed on the shard of `session`, whose servers
/// are `guilds`, in a session that began at `began`, with the messages kept aside until
/// `collector` is in place; `listings` says whether the servers' listings may be trusted.
/// The table is not held meanwhile: once the places to read are known, a live message goes
/// to the table at once unless it, or an earlier one bound to it (the same games, the same
/// sender), waits for a place still to be read, which is then read next. Places are read in
/// groups: the games tied together by a channel or a player, whose missed and kept messages
/// are applied together in the order sent, so each game takes its messages in that order;
/// games apart may take theirs in any order between them. Returns whether every planned
/// place was read (a place that could not be, or a session another replaced, makes it
/// `false`).
pub(super) async fn catch_up(
    bot: &Arc<Bot>,
    http: &Arc<serenity::Http>,
    session: Session,
    guilds: &[serenity::GuildId],
    (began, listings): (DateTime<Utc>, bool),
    collector: &Collector,
) -> Result<bool, DiscordError> {
    let store = bot.service.store();
    let shard = session.shard;
    let total = bot.settings.shards.total;
    let known = Known {
        session: collector.asked_at(),
        listings,
        mark: store
            .caught_up_mark(shard, total)
            .await?
            .and_then(|mark| u64::try_from(mark).ok()),
    };
    let mut groups = groups(store.catch_up_ties(Utc::now()).await?, shard);
    // What reached the handlers before the session's collector did is kept aside by now.
    collector.in_place().await;
    let games: Arc<HashSet<Source>> = Arc::new(
        groups
            .iter()
            .flatten()
            .map(|planned| planned.source)
            .collect(),
    );
    let mut found: HashMap<Source, usize> = HashMap::new();
    for (index, group) in groups.iter().enumerate() {
        found.extend(group.iter().map(|planned| (planned.source, index)));
    }
    let servers = guilds.iter().map(|guild| guild.get()).collect();
    let mut failed = release(bot, http, || {
        bot.kept_aside.planned(session, found.clone(), servers)
    })
    .await
    .err();
    let mut whole = true;
    // Servers first: listed from the gateway they cost no request, and direct messages wait
    // for them.
    let mut steps: VecDeque<Step> = guilds
        .iter()
        .map(|guild| Step::Server(guild.get()))
        .collect();
    steps.extend((0..groups.len()).map(Step::Group));
    let mut started = HashSet::new();
    let mut side = JoinSet::new();
    loop {
        // A session another replaced reads no more: the new one reads it all again.
        while side.len() < SIDE_BY_SIDE && bot.kept_aside.is_current(session) {
            let Some(step) = next(bot, shard, &mut steps, &started, &found) else {
                break;
            };
            started.insert(step);
            let (bot, http, games) = (bot.clone(), http.clone(), games.clone());
            let group = match step {
                Step::Group(index) => groups.get(index).cloned().unwrap_or_default(),
                Step::Server(_) => Vec::new(),
            };
            side.spawn(async move {
                match step {
                    Step::Group(_) => read_group(&bot, &http, (session, known), &group)
                        .await
                        .map(|whole| (Vec::new(), whole)),
                    Step::Server(server) => {
                        list_server(&bot, &http, (session, server), &games, (began, known)).await
                    }
                }
            });
        }
        let Some(done) = side.join_next().await else {
            break;
        };
        match done {
            // A server's channels with missed messages: each is read back next, on its own.
            Ok(Ok((quiet, read))) => {
                whole &= read;
                for planned in quiet {
                    found.insert(planned.source, groups.len());
                    steps.push_front(Step::Group(groups.len()));
                    groups.push(vec![planned]);
                }
            }
            Ok(Err(error)) => failed = failed.or(Some(error)),
            Err(error) => {
                warn!(%error, "a part of the catch-up stopped");
                whole = false;
            }
        }
    }
    // What is still kept (a handler that ran late) goes in the order sent.
    let current = bot.kept_aside.is_current(session);
    let last = release(bot, http, || bot.kept_aside.take_opened(session))
        .await
        .err();
    match failed.or(last) {
        Some(error) => Err(error),
        None => Ok(whole && current),
    }
}

/// The places to read on `shard`, in groups: the games tied by a shared channel or person
/// (union of the games' places), each place with the oldest time it matters to a game that
/// reads it. Discord sends direct messages on shard 0 only, so other shards have no person.
fn groups(ties: Vec<Tie>, shard: u32) -> Vec<Vec<Planned>> {
    let ties: Vec<(i64, Planned)> = ties
        .into_iter()
        .filter(|tie| !tie.person || shard == 0)
        .filter_map(|tie| {
            let id = snowflake(&tie.watched.id)?;
            let source = match tie.person {
                true => Source::Person(id),
                false => Source::Channel(id),
            };
            Some((
                tie.game,
                Planned {
                    source,
                    since: tie.watched.since,
                    read: tie.read,
                },
            ))
        })
        .collect();
    // Games and places as one union-find: games first, then each place once.
    let mut index: HashMap<Source, usize> = HashMap::new();
    let mut games: HashMap<i64, usize> = HashMap::new();
    for (game, _) in &ties {
        let next = games.len();
        games.entry(*game).or_insert(next);
    }
    for (_, planned) in &ties {
        let next = games.len() + index.len();
        index.entry(planned.source).or_insert(next);
    }
    let mut parent: Vec<usize> = (0..games.len() + index.len()).collect();
    fn root(parent: &mut [usize], mut at: usize) -> usize {
        while parent[at] != at {
            parent[at] = parent[parent[at]];
            at = parent[at];
        }
        at
    }
    for (game, planned) in &ties {
        let (a, b) = (games[game], index[&planned.source]);
        let (a, b) = (root(&mut parent, a), root(&mut parent, b));
        parent[a] = b;
    }
    // A place is read if any of its games reads it, from the oldest of those games on.
    let mut merged: HashMap<Source, Planned> = HashMap::new();
    for (_, planned) in &ties {
        merged
            .entry(planned.source)
            .and_modify(|place| match (place.read, planned.read) {
                (false, true) => *place = *planned,
                (true, false) => {}
                _ => place.since = place.since.min(planned.since),
            })
            .or_insert(*planned);
    }
    let mut by_root: HashMap<usize, Vec<Planned>> = HashMap::new();
    let mut sources: Vec<(&Source, &usize)> = index.iter().collect();
    sources.sort();
    for (source, at) in sources {
        let group = root(&mut parent, *at);
        if let Some(planned) = merged.get(source) {
            by_root.entry(group).or_default().push(*planned);
        }
    }
    let mut groups: Vec<Vec<Planned>> = by_root.into_values().collect();
    groups.sort_by_key(|group| group.first().map(|planned| planned.source));
    groups
}

/// The next step: the place or server the first message kept aside waits for; else the next
/// in line.
fn next(
    bot: &Bot,
    shard: u32,
    steps: &mut VecDeque<Step>,
    started: &HashSet<Step>,
    found: &HashMap<Source, usize>,
) -> Option<Step> {
    let first = match bot.kept_aside.awaited(shard) {
        Some(Awaited::Source(source)) => found.get(&source).map(|index| Step::Group(*index)),
        Some(Awaited::Server(server)) => Some(Step::Server(server)),
        // The servers come first in line anyway.
        Some(Awaited::Servers) | None => None,
    };
    if let Some(step) = first.filter(|step| !started.contains(step)) {
        return Some(step);
    }
    while let Some(step) = steps.pop_front() {
        if !started.contains(&step) {
            return Some(step);
        }
    }
    None
}

/// Reads back every place of a group; what was missed there joins what is kept aside, and
/// what may go then is applied, in the order sent, the table held only for that. Returns
/// whether every place was read; the group is settled whatever failed, so nothing waits
/// for it to the end of the catch-up.
async fn read_group(
    bot: &Bot,
    http: &serenity::Http,
    (session, known): (Session, Known),
    group: &[Planned],
) -> Result<bool, DiscordError> {
    let mut missed: Vec<Kept> = Vec::new();
    let mut whole = true;
    let mut failed = None;
    for planned in group {
        let read = match place(bot, http, (session.shard, known), planned).await {
            Ok(ToRead::Read(read)) => read,
            Ok(ToRead::Nothing) => continue,
            Ok(ToRead::Unreadable) => {
                whole = false;
                continue;
            }
            Err(error) => {
                failed = Some(error);
                break;
            }
        };
        match read_after(bot, http, &read).await {
            Ok(messages) => missed.extend(
                messages
                    .into_iter()
                    // The bot's own posts are nobody's command.
                    .filter(|message| !message.author.bot)
                    .map(|m| (m, (read.in_server, read.server), session.shard)),
            ),
            Err(error) => {
                whole = false;
                warn!(channel = %read.channel, %error, "a channel's history could not be read")
            }
        }
    }
    let sources: Vec<Source> = group.iter().map(|planned| planned.source).collect();
    release(bot, http, || {
        bot.kept_aside.settle(session, &sources, missed)
    })
    .await?;
    match failed {
        Some(error) => Err(error),
        None => Ok(whole),
    }
}

/// Takes the table, then the messages kept aside that `take` lets go, and applies them in
/// order: anything queued meanwhile comes after them.
async fn release(
    bot: &Bot,
    http: &serenity::Http,
    take: impl FnOnce() -> Vec<Kept>,
) -> Result<(), DiscordError> {
    let _turn = bot.commits.turn().await;
    apply_in_order(bot, http, take()).await
}

/// Applies `messages` in order, the table held by the caller. A message that could not be
/// applied stops the rest, which are kept aside with it, so none is applied before it: the
/// ticker tries them again.
async fn apply_in_order(
    bot: &Bot,
    http: &serenity::Http,
    messages: Vec<Kept>,
) -> Result<(), DiscordError> {
    let count = messages.len();
    let mut messages = messages.into_iter();
    while let Some((message, place, shard)) = messages.next() {
        if let Err(error) = typed(bot, http, &message, place, Held::Yes).await {
            bot.kept_aside.keep(message, place, shard);
            messages.for_each(|(message, place, shard)| bot.kept_aside.keep(message, place, shard));
            return Err(error.into());
        }
    }
    if count > 0 {
        info!(
            read = count,
            "caught up with messages sent while the bot was away"
        );
    }
    Ok(())
}

/// Applies the messages kept aside (see `events`) on shards whose session is open, in the
/// order sent, the table held by the caller.
pub(super) async fn apply_kept_aside(bot: &Bot, http: &serenity::Http) -> Result<(), DiscordError> {
    apply_in_order(bot, http, bot.kept_aside.take_open()).await
}

/// Lists `server`'s channels and active threads (as the gateway sent them, or by asking) and
/// returns those without a game (not among `games`) that hold messages the bot never saw (a
/// `!new` typed while it was away), with whether the server could be listed; what was kept
/// aside in its other channels is applied. The bot claims every message it sees in a server,
/// so the newest it applied there marks when it last saw the server: a channel whose last
/// message is newer holds messages it missed, read from that mark on (and no further back
/// than message ids are kept). A server where the bot never applied a message is read from
/// a little before the session began (`began`): what was typed there as the bot connected.
/// The server counts as listed whatever failed, so nothing waits for it to the end.
async fn list_server(
    bot: &Bot,
    http: &serenity::Http,
    (session, server): (Session, u64),
    games: &HashSet<Source>,
    (began, known): (DateTime<Utc>, Known),
) -> Result<(Vec<Planned>, bool), DiscordError> {
    let listing = match known.listings {
        true => listed(bot, session.shard, server, known.session).await,
        false => None,
    };
    let (places, whole) = match listing {
        Some(places) => (places, true),
        None => asked(bot, http, serenity::GuildId::new(server)).await,
    };
    let quiet = quiet_channels(bot, places, games, began).await;
    let sources: Vec<Source> = match &quiet {
        Ok(quiet) => quiet.iter().map(|planned| planned.source).collect(),
        Err(_) => Vec::new(),
    };
    release(bot, http, || {
        bot.kept_aside.server_listed(session, server, &sources)
    })
    .await?;
    Ok((quiet?, whole))
}

/// Among a server's `places`, the channels without a game (not among `games`) whose last
/// message is newer than the mark of the server (see [`list_server`]), each to be read from
/// that mark.
async fn quiet_channels(
    bot: &Bot,
    places: Listing,
    games: &HashSet<Source>,
    began: DateTime<Utc>,
) -> Result<Vec<Planned>, DiscordError> {
    let store = bot.service.store();
    let now = Utc::now();
    let ids: Vec<String> = places.iter().map(|(id, _)| id.get().to_string()).collect();
    let seen = store.last_position_among(&ids).await?;
    let mark = match seen.and_then(|position| u64::try_from(position).ok()) {
        Some(seen) => seen.max(snowflake_at(store.read_back_from(now))),
        None => snowflake_at(began - SESSION_MARGIN),
    }
    .max(1);
    let from = super::inbound::sent_at(mark).unwrap_or(began);
    // A game's channel is read with its game, whatever the listing says.
    Ok(places
        .into_iter()
        .filter(|(channel, last)| {
            !games.contains(&Source::Channel(channel.get()))
                && last.is_some_and(|last| last.get() > mark)
        })
        .map(|(channel, _)| Planned {
            source: Source::Channel(channel.get()),
            since: from,
            read: true,
        })
        .collect())
}

/// `server`'s channels and threads as the gateway sent them for the session whose READY was
/// handled at `session`, waited for until a little after; `None` when they did not come, or when a message kept aside waits for
/// them (asking is quicker than waiting then).
async fn listed(
    bot: &Bot,
    shard: u32,
    server: u64,
    session: std::time::Instant,
) -> Option<Listing> {
    loop {
        if let Some(places) = bot.listings.get(server, session) {
            return Some(places);
        }
        let awaited = bot.kept_aside.awaited(shard) == Some(Awaited::Server(server));
        if awaited || session.elapsed() >= LISTING_WAIT {
            return None;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// `server`'s channels and active threads, asked of Discord (two requests), and whether both
/// answered; what cannot be listed is left out, with a warning.
async fn asked(bot: &Bot, http: &serenity::Http, guild: serenity::GuildId) -> (Listing, bool) {
    bot.delivery.pace.turn(false).await;
    let channels = match guild.channels(http).await {
        Ok(channels) => channels,
        Err(error) => {
            warn!(%guild, %error, "a server's channels could not be listed; messages typed there in channels without a game are not read back now");
            return (Vec::new(), false);
        }
    };
    // Threads are not among a server's channels: its active ones are listed apart (one more
    // request), so a game opened in a thread while the bot was away is read back too.
    bot.delivery.pace.turn(false).await;
    let (threads, whole) = match guild.get_active_threads(http).await {
        Ok(data) => (data.threads, true),
        Err(error) => {
            warn!(%guild, %error, "a server's active threads could not be listed; messages typed in threads without a game are not read back now");
            (Vec::new(), false)
        }
    };
    let places = channels
        .into_values()
        .chain(threads)
        .map(|channel| (channel.id, channel.last_message_id))
        .collect();
    (places, whole)
}

/// Whether `channel`'s messages come on `shard`: always when the bot has one shard; otherwise
/// by its server (asked of Discord once per channel). A channel whose server
/// cannot be learnt is left to the next session.
async fn on_shard(
    bot: &Bot,
    http: &serenity::Http,
    channel: serenity::ChannelId,
    shard: u32,
) -> bool {
    let held = bot.settings.shards;
    if held.total <= 1 {
        return true;
    }
    let mut servers = bot.servers.lock().await;
    let server = match servers.get(&channel.get()) {
        Some(server) => *server,
        None => match channel.to_channel(http).await {
            Ok(found) => {
                let server = found.guild().map(|channel| channel.guild_id.get());
                servers.insert(channel.get(), server);
                server
            }
            Err(error) => {
                warn!(%channel, %error, "the server of a game channel could not be learnt; its history is not read back now");
                return false;
            }
        },
    };
    server.is_some_and(|server| held.of_guild(server) == shard)
}

/// What a catch-up does with a planned place.
enum ToRead {
    /// Reads it.
    Read(Read),
    /// Has nothing to read there.
    Nothing,
    /// Cannot read it now (its DM channel could not be opened).
    Unreadable,
}

/// Where to read a planned place from: its channel (a person's DM channel, known or opened),
/// after the last message applied from it, or from the oldest time it matters if that is
/// later; nothing when it is not read (a person of a game over), not this shard's to read, or
/// its last message is known and needs no reading (see [`needs_reading`]).
async fn place(
    bot: &Bot,
    http: &serenity::Http,
    (shard, known): (u32, Known),
    planned: &Planned,
) -> Result<ToRead, DiscordError> {
    if !planned.read {
        return Ok(ToRead::Nothing);
    }
    let (channel, in_server, last) = match planned.source {
        Source::Channel(id) => {
            let channel = serenity::ChannelId::new(id);
            if !on_shard(bot, http, channel, shard).await {
                return Ok(ToRead::Nothing);
            }
            let last = match known.listings {
                true => bot.listings.last_of(id, known.session),
                false => None,
            };
            (channel, true, last)
        }
        Source::Person(user) => match bot.delivery.dm_channel(&user.to_string()) {
            Some(channel) => (channel, false, None),
            // Opening the DM channel tells its last message too.
            None => {
                bot.delivery.pace.turn(false).await;
                match serenity::UserId::new(user).create_dm_channel(http).await {
                    Ok(channel) => {
                        bot.delivery.learn_dm_channel(user, channel.id);
                        (channel.id, false, Some(channel.last_message_id))
                    }
                    Err(error) => {
                        warn!(user, %error, "a player's direct messages could not be read back");
                        return Ok(ToRead::Unreadable);
                    }
                }
            }
        },
    };
    let store = bot.service.store();
    let id = channel.get().to_string();
    let after = store
        .last_position(&id)
        .await?
        .and_then(|position| u64::try_from(position).ok())
        .unwrap_or(0)
        .max(snowflake_at(planned.since))
        .max(1);
    if let Some(last) = last {
        let posted = store
            .newest_posted(&id)
            .await?
            .and_then(|message| u64::try_from(message).ok());
        if !needs_reading(last.map(|id| id.get()), after, posted, known.mark) {
            return Ok(ToRead::Nothing);
        }
    }
    let server = match in_server {
        true => bot
            .servers
            .lock()
            .await
            .get(&channel.get())
            .copied()
            .flatten(),
        false => None,
    };
    Ok(ToRead::Read(Read {
        channel,
        after: serenity::MessageId::new(after),
        in_server,
        server,
    }))
}

/// Whether a channel whose last message is `last` (`None`: it has none) must be read after
/// message `after`: not when nothing came after it, nor when the last message is the bot's
/// own post (`posted`, the newest it knows there) made before the shard's `mark` (every
/// message sent on the shard before the mark reached the bot and was applied, so what was
/// sent there before that post was).
fn needs_reading(last: Option<u64>, after: u64, posted: Option<u64>, mark: Option<u64>) -> bool {
    let Some(last) = last else {
        return false;
    };
    if last <= after {
        return false;
    }
    match (posted, mark) {
        (Some(posted), Some(mark)) => !(last <= posted && posted < mark),
        _ => true,
    }
}

/// Every message of a channel after a given one, page by page, each page at the bot's pace.
async fn read_after(
    bot: &Bot,
    http: &serenity::Http,
    read: &Read,
) -> Result<Vec<serenity::Message>, serenity::Error> {
    let mut all = Vec::new();
    let mut after = read.after;
    loop {
        bot.delivery.pace.turn(false).await;
        let page = read
            .channel
            .messages(http, serenity::GetMessages::new().after(after).limit(PAGE))
            .await?;
        let full = page.len() == usize::from(PAGE);
        match page.iter().map(|message| message.id).max() {
            Some(last) => after = last,
            None => break,
        }
        all.extend(page);
        if !full {
            break;
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Watched;

    fn tie(game: i64, id: u64, person: bool, minute: i64) -> Tie {
        Tie {
            read: true,
            game,
            watched: Watched {
                id: id.to_string(),
                since: DateTime::from_timestamp(minute * 60, 0).unwrap_or_default(),
            },
            person,
        }
    }

    fn sources(groups: &[Vec<Planned>]) -> Vec<Vec<Source>> {
        groups
            .iter()
            .map(|group| group.iter().map(|planned| planned.source).collect())
            .collect()
    }

    #[test]
    fn games_sharing_a_player_are_read_back_together_and_others_apart() {
        // Games 1 and 2 share player 7; game 3 stands alone; game 4 (over) has its channel only.
        let ties = vec![
            tie(1, 100, false, 5),
            tie(1, 7, true, 5),
            tie(1, 8, true, 5),
            tie(2, 200, false, 9),
            tie(2, 7, true, 9),
            tie(3, 300, false, 1),
            tie(3, 9, true, 1),
            tie(4, 400, false, 2),
        ];
        let groups = groups(ties.clone(), 0);
        assert_eq!(
            sources(&groups),
            [
                vec![
                    Source::Channel(100),
                    Source::Channel(200),
                    Source::Person(7),
                    Source::Person(8)
                ],
                vec![Source::Channel(300), Source::Person(9)],
                vec![Source::Channel(400)],
            ]
        );
        // Player 7 is read from the opening of the older of their games.
        let seven = groups[0]
            .iter()
            .find(|planned| planned.source == Source::Person(7));
        assert_eq!(seven.map(|planned| planned.since.timestamp()), Some(5 * 60));
        // Another shard carries no direct messages: its games stand apart.
        assert_eq!(
            sources(&super::groups(ties, 1)),
            [
                vec![Source::Channel(100)],
                vec![Source::Channel(200)],
                vec![Source::Channel(300)],
                vec![Source::Channel(400)],
            ]
        );
    }

    #[test]
    fn a_channel_is_read_unless_its_last_message_is_known_and_old_enough() {
        let second = 1_000u64 << 22;
        let at = |seconds: u64| seconds * second;
        // Nothing in it, or nothing after what was applied there.
        assert!(!needs_reading(None, at(5), None, None));
        assert!(!needs_reading(Some(at(5)), at(5), None, Some(at(100))));
        // A message after it that is not the bot's own.
        assert!(needs_reading(
            Some(at(7)),
            at(5),
            Some(at(6)),
            Some(at(100))
        ));
        // The bot's own post last, before the shard's mark: nothing missed.
        assert!(!needs_reading(
            Some(at(6)),
            at(5),
            Some(at(6)),
            Some(at(100))
        ));
        // The bot's own post last but after the mark: a message sent just before it may have
        // been on its way when the bot stopped.
        assert!(needs_reading(
            Some(at(101)),
            at(5),
            Some(at(101)),
            Some(at(100))
        ));
        // Nothing known of the bot's posts or no mark: read.
        assert!(needs_reading(Some(at(6)), at(5), None, Some(at(100))));
        assert!(needs_reading(Some(at(6)), at(5), Some(at(6)), None));
    }
}
