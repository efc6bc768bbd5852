//! Catching up after downtime. Discord does not replay to a new gateway session what was sent
//! while the bot was away, so at start-up and after every new session (not a RESUME, which
//! replays the missed events itself) the bot reads, for each channel with a game that is not
//! over and each DM channel of those games' players and GMs, the messages after the last one
//! it applied, and applies them oldest first through the same path as live messages. The
//! message id is the idempotency key, so a message both read back and delivered live is
//! applied once; an order that arrives this way after its phase ended is refused as late.

use super::inbound::{snowflake_at, typed, Held};
use super::{Bot, DiscordError};
use crate::store::Watched;
use poise::serenity_prelude as serenity;
use tracing::{info, warn};

/// Discord's largest page of channel history.
const PAGE: u8 = 100;

/// A channel to read: where, from which message on, and whether it is a server channel.
struct Source {
    channel: serenity::ChannelId,
    after: serenity::MessageId,
    in_server: bool,
}

/// Reads and applies every message the bot missed; returns how many were read. The table is
/// held for the whole catch-up, so live messages arriving meanwhile wait their turn behind
/// the older ones.
pub(super) async fn catch_up(bot: &Bot, http: &serenity::Http) -> Result<usize, DiscordError> {
    let _turn = bot.commits.turn().await;
    let store = bot.service.store();
    let mut sources = Vec::new();
    for watched in store.open_game_channels().await? {
        if let Ok(id) = watched.id.parse::<u64>() {
            sources.push(source(bot, serenity::ChannelId::new(id), &watched, true).await?);
        }
    }
    for watched in store.open_game_people().await? {
        let Ok(user) = watched.id.parse::<u64>() else {
            continue;
        };
        match serenity::UserId::new(user).create_dm_channel(http).await {
            Ok(channel) => sources.push(source(bot, channel.id, &watched, false).await?),
            Err(error) => warn!(user, %error, "a player's direct messages could not be read back"),
        }
    }
    let mut missed: Vec<(serenity::Message, bool)> = Vec::new();
    for source in &sources {
        match read_after(http, source).await {
            Ok(messages) => missed.extend(messages.into_iter().map(|m| (m, source.in_server))),
            Err(error) => {
                warn!(channel = %source.channel, %error, "a channel's history could not be read")
            }
        }
    }
    missed.sort_by_key(|(message, _)| message.id);
    for (message, in_server) in &missed {
        typed(bot, http, message, *in_server, Held::Yes).await?;
    }
    if !missed.is_empty() {
        info!(
            read = missed.len(),
            "caught up with messages sent while the bot was away"
        );
    }
    Ok(missed.len())
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
