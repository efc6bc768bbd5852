//! Catching up after downtime. Discord does not replay to a new gateway session what was sent
//! while the bot was away, so at start-up and after every new session (not a RESUME, which
//! replays the missed events itself) the bot reads, for each channel with a game that is not
//! over (or ended within `database.keep_message_ids`), each other server channel with
//! messages newer than the last the bot saw in that server (a `!new` typed in a fresh
//! channel), and each DM channel of the open games' players and GMs, the messages after the
//! last one it applied, and applies them oldest first through the same path as live messages,
//! together with those that reached the bot before the session's queue was in place (see
//! `events`). The message id is the idempotency key, so a message both read back and
//! delivered live is applied once; an order that arrives this way after its phase ended is
//! refused as late; a message the history gives edited is answered, never applied as if its
//! new text had been sent at its time.
//!
//! With several shards each new session reads what its own shard carries: the channels of
//! the servers Discord sends on that shard, and (on shard 0, which carries them) the direct
//! messages. A process holding only some shards thus never reads back what another process
//! receives live.

use super::events::Collector;
use super::inbound::{snowflake_at, typed, Held};
use super::kept_aside::Kept;
use super::{snowflake, Bot, DiscordError};
use crate::store::Watched;
use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;
use std::collections::HashSet;
use tracing::{info, warn};

/// Discord's largest page of channel history.
const PAGE: u8 = 100;

/// How far before a session began a server the bot never saw is read back: Discord's clock,
/// which dates the messages, may run a little behind ours.
const SESSION_MARGIN: chrono::Duration = chrono::Duration::seconds(10);

/// A channel to read: where, from which message on, whether it is a server channel and on
/// which server, where known (a message read back from history does not say).
struct Source {
    channel: serenity::ChannelId,
    after: serenity::MessageId,
    in_server: bool,
    server: Option<u64>,
}

/// Reads and applies every message the bot missed on `shard`, whose servers are `guilds`, in
/// a session that began at `began`, with the messages kept aside until `collector` is in
/// place. The caller holds the table for the whole catch-up, so live messages arriving
/// meanwhile wait their turn behind the older ones.
pub(super) async fn catch_up(
    bot: &Bot,
    http: &serenity::Http,
    shard: u32,
    guilds: &[serenity::GuildId],
    began: DateTime<Utc>,
    collector: &Collector,
) -> Result<(), DiscordError> {
    let store = bot.service.store();
    let now = Utc::now();
    let mut sources = Vec::new();
    for watched in store.game_channels(now).await? {
        let Some(id) = snowflake(&watched.id) else {
            continue;
        };
        let channel = serenity::ChannelId::new(id);
        if on_shard(bot, http, channel, shard).await {
            let mut source = source(bot, channel, &watched, true).await?;
            source.server = bot.servers.lock().await.get(&id).copied().flatten();
            sources.push(source);
        }
    }
    let known: HashSet<serenity::ChannelId> = sources.iter().map(|source| source.channel).collect();
    for guild in guilds {
        sources.extend(quiet_channels(bot, http, *guild, &known, now, began).await?);
    }
    // Discord sends direct messages on shard 0.
    let people = match shard {
        0 => store.open_game_people().await?,
        _ => Vec::new(),
    };
    for watched in people {
        let Some(user) = snowflake(&watched.id) else {
            continue;
        };
        match serenity::UserId::new(user).create_dm_channel(http).await {
            Ok(channel) => sources.push(source(bot, channel.id, &watched, false).await?),
            Err(error) => warn!(user, %error, "a player's direct messages could not be read back"),
        }
    }
    let mut missed: Vec<Kept> = Vec::new();
    for source in &sources {
        match read_after(http, source).await {
            Ok(messages) => missed.extend(
                messages
                    .into_iter()
                    .map(|m| (m, (source.in_server, source.server), shard)),
            ),
            Err(error) => {
                warn!(channel = %source.channel, %error, "a channel's history could not be read")
            }
        }
    }
    // What reached the handlers before the session's collector did is applied in its place
    // (and that copy, as it arrived, rather than the history's, which may be edited since).
    collector.in_place().await;
    missed.splice(0..0, bot.kept_aside.take_opened(shard));
    missed.sort_by_key(|(message, _, _)| message.id);
    missed.dedup_by_key(|(message, _, _)| message.id);
    apply_in_order(bot, http, missed).await?;
    Ok(())
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

/// The channels and active threads of `guild` without a game to read them for that hold
/// messages the bot never saw (a `!new` typed while it was away). The bot claims every message it sees in a server,
/// so the newest it applied there marks when it last saw the server: a channel whose last
/// message is newer holds messages it missed, read from that mark on (and no further back
/// than message ids are kept). A server where the bot never applied a message is read from a
/// little before the session began (`began`): what was typed there as the bot connected. One
/// request lists the server's channels; only channels with missed messages are read.
async fn quiet_channels(
    bot: &Bot,
    http: &serenity::Http,
    guild: serenity::GuildId,
    known: &HashSet<serenity::ChannelId>,
    now: DateTime<Utc>,
    began: DateTime<Utc>,
) -> Result<Vec<Source>, DiscordError> {
    let channels = match guild.channels(http).await {
        Ok(channels) => channels,
        Err(error) => {
            warn!(%guild, %error, "a server's channels could not be listed; messages typed there in channels without a game are not read back now");
            return Ok(Vec::new());
        }
    };
    // Threads are not among a server's channels: its active ones are listed apart (one more
    // request), so a game opened in a thread while the bot was away is read back too.
    let threads = match guild.get_active_threads(http).await {
        Ok(data) => data.threads,
        Err(error) => {
            warn!(%guild, %error, "a server's active threads could not be listed; messages typed in threads without a game are not read back now");
            Vec::new()
        }
    };
    let places: Vec<(serenity::ChannelId, Option<serenity::MessageId>)> = channels
        .into_values()
        .chain(threads)
        .map(|channel| (channel.id, channel.last_message_id))
        .collect();
    let store = bot.service.store();
    let ids: Vec<String> = places.iter().map(|(id, _)| id.get().to_string()).collect();
    let seen = store.last_position_among(&ids).await?;
    let mark = match seen.and_then(|position| u64::try_from(position).ok()) {
        Some(seen) => seen.max(snowflake_at(store.read_back_from(now))),
        None => snowflake_at(began - SESSION_MARGIN),
    }
    .max(1);
    Ok(places
        .into_iter()
        .filter(|(channel, last)| {
            !known.contains(channel) && last.is_some_and(|last| last.get() > mark)
        })
        .map(|(channel, _)| Source {
            channel,
            after: serenity::MessageId::new(mark),
            in_server: true,
            server: Some(guild.get()),
        })
        .collect())
}

/// Whether `channel`'s messages come on `shard`: always when this process holds every shard;
/// otherwise by its server (asked of Discord once per channel). A channel whose server
/// cannot be learnt is left to the next session.
async fn on_shard(
    bot: &Bot,
    http: &serenity::Http,
    channel: serenity::ChannelId,
    shard: u32,
) -> bool {
    let held = bot.settings.shards;
    if held.all() {
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

/// Where to read `channel` from: after the last message applied from it, or else from the
/// opening of the oldest game it concerns.
async fn source(
    bot: &Bot,
    channel: serenity::ChannelId,
    watched: &Watched,
    in_server: bool,
) -> Result<Source, DiscordError> {
    let last = bot
        .service
        .store()
        .last_position(&channel.get().to_string())
        .await?;
    let after = last
        .and_then(|position| u64::try_from(position).ok())
        .unwrap_or_else(|| snowflake_at(watched.since))
        .max(1);
    Ok(Source {
        channel,
        after: serenity::MessageId::new(after),
        in_server,
        server: None,
    })
}

/// Every message of a channel after a given one, page by page.
async fn read_after(
    http: &serenity::Http,
    source: &Source,
) -> Result<Vec<serenity::Message>, serenity::Error> {
    let mut all = Vec::new();
    let mut after = source.after;
    loop {
        let page = source
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
