//! Games as forum posts. A game opened with `forum=#games` lives, until its post exists, at a
//! place of its own the table names (`forum:<forum>:<game>`); its first post there (the
//! sign-up post) becomes the forum post's first message, and the game then lives in the post
//! (the table is told, and its posts not yet delivered follow it). The post's tags show the
//! game's state ("Sign-ups", "Running", "Finished", and the game's name where the forum has
//! such a tag), created in the forum when the bot may manage it; when it may not, the post
//! goes without, and the GM is told once. A post is kept open a week between two posts (the
//! longest Discord allows); an archived one is reopened by the next post.

use super::embeds::messages;
use super::rest::{classify, Failure};
use super::Bot;
use crate::store::{OutboxRow, StoreError};
use crate::table::{Audience, GameRecord, Status};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use tracing::warn;

/// The tag of each state of a game, as a forum shows it.
const STATE_TAGS: [&str; 3] = ["Sign-ups", "Running", "Finished"];

/// A forum's tags: id and name.
type Tags = Vec<(u64, String)>;

/// What the bot knows of forums and their posts.
#[derive(Default)]
pub(super) struct Forums {
    /// Each forum's tags, or `None` when the bot may not make the ones it needs.
    tags: Mutex<HashMap<u64, Option<Tags>>>,
    /// The tags last applied to each game's post.
    applied: Mutex<HashMap<u64, Vec<u64>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The forum a place the table names for a game opened as a forum post (`forum:<id>:<game>`)
/// belongs to; `None` for any other place.
pub(super) fn forum_of(place: &str) -> Option<u64> {
    place
        .strip_prefix("forum:")?
        .split(':')
        .next()?
        .parse()
        .ok()
}

/// Makes the post of the game that lives at `row`'s place (see [`forum_of`]) in `forum`, with
/// the row as its first message and the game's tags, and tells the table the game lives
/// there now.
pub(super) async fn open_post(
    bot: &Bot,
    http: &serenity::Http,
    row: &OutboxRow,
    forum: u64,
) -> Result<Result<(), Failure>, StoreError> {
    let Audience::Channel(place) = &row.audience else {
        return Ok(Err(Failure::Permanent(
            "a forum post goes to a forum".to_string(),
        )));
    };
    let Some(game) = bot.service.store().game_at(place).await? else {
        return Ok(Err(Failure::Permanent(format!(
            "no game lives at {place} any more"
        ))));
    };
    let mut parts = messages(row, None).into_iter();
    let Some(first) = parts.next() else {
        return Ok(Ok(()));
    };
    let tags = tags_for(bot, http, forum, &game).await?;
    let name = format!("#{} {} (GM {})", game.id, game.game, game.gm.name);
    let mut post = serenity::CreateForumPost::new(name, first.message)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    for tag in &tags {
        post = post.add_applied_tag(serenity::ForumTagId::new(*tag));
    }
    bot.delivery.pace.turn(false).await;
    let thread = match serenity::ChannelId::new(forum)
        .create_forum_post(http, post)
        .await
    {
        Ok(thread) => thread.id,
        Err(error) => return Ok(Err(classify(&error))),
    };
    lock(&bot.forums.applied).insert(thread.get(), tags);
    bot.service.store().parts_sent(row.id, 1).await?;
    // What did not fit the first message follows in the post.
    for part in parts {
        bot.delivery.pace.turn(false).await;
        if let Err(failure) = bot.rest.post(http, thread, part.message, part.files).await {
            warn!(
                ?failure,
                "the rest of a forum post's first message could not be posted"
            );
        }
    }
    bot.service
        .homed(place, &thread.get().to_string(), Utc::now())
        .await?;
    Ok(Ok(()))
}

/// After a post in `channel`: the tags of a game's forum post follow the game's state.
pub(super) async fn follow_state(
    bot: &Bot,
    http: &serenity::Http,
    channel: &str,
) -> Result<(), StoreError> {
    let Ok(post) = channel.parse::<u64>() else {
        return Ok(());
    };
    let Some(game) = bot.service.store().game_at(channel).await? else {
        return Ok(());
    };
    let Some(forum) = game
        .forum
        .as_deref()
        .and_then(|forum| forum.parse::<u64>().ok())
    else {
        return Ok(());
    };
    let tags = tags_for(bot, http, forum, &game).await?;
    if lock(&bot.forums.applied).get(&post) == Some(&tags) {
        return Ok(());
    }
    bot.delivery.pace.turn(false).await;
    let edited = serenity::ChannelId::new(post)
        .edit_thread(
            http,
            serenity::EditThread::new()
                .applied_tags(tags.iter().map(|tag| serenity::ForumTagId::new(*tag))),
        )
        .await;
    match edited {
        Ok(_) => {
            lock(&bot.forums.applied).insert(post, tags);
        }
        Err(error) => warn!(%error, post, "a forum post's tags could not be changed"),
    }
    Ok(())
}

/// The tags of `game`'s post in `forum`: its state's, and its game's where the forum has one.
/// None when the forum has no state tags and the bot may not make them (the GM is told once).
async fn tags_for(
    bot: &Bot,
    http: &serenity::Http,
    forum: u64,
    game: &GameRecord,
) -> Result<Vec<u64>, StoreError> {
    let Some(known) = forum_tags(bot, http, forum).await else {
        let text = format!(
            "Game #{}: I may not make the tags \"Sign-ups\", \"Running\" and \"Finished\" in the forum <#{forum}>, so its post shows no state. Give me Manage Channels there (Manage Threads to tag posts others opened) to have them.",
            game.id
        );
        bot.service
            .answer_once(
                &format!("forum-tags-{forum}-{}", game.id),
                &Audience::Direct(game.gm.id.clone()),
                &text,
                Utc::now(),
            )
            .await?;
        bot.committed();
        return Ok(Vec::new());
    };
    let state = match game.status {
        Status::SignUp => STATE_TAGS[0],
        Status::Running | Status::Paused { .. } => STATE_TAGS[1],
        Status::Over => STATE_TAGS[2],
    };
    let squeezed = |name: &str| {
        name.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase()
    };
    Ok(known
        .iter()
        .filter(|(_, name)| name == state || squeezed(name) == squeezed(&game.game))
        .map(|(id, _)| *id)
        .collect())
}

/// The forum's tags, the state tags made when missing; `None` when they are missing and the
/// bot may not make them (or the forum cannot be read).
async fn forum_tags(bot: &Bot, http: &serenity::Http, forum: u64) -> Option<Vec<(u64, String)>> {
    if let Some(known) = lock(&bot.forums.tags).get(&forum) {
        return known.clone();
    }
    bot.delivery.pace.turn(false).await;
    let read = match serenity::ChannelId::new(forum).to_channel(http).await {
        Ok(serenity::Channel::Guild(channel)) => Some(channel.available_tags),
        Ok(_) => None,
        Err(error) => {
            warn!(%error, forum, "a forum's tags could not be read");
            return None;
        }
    };
    let mut tags: Tags = read
        .unwrap_or_default()
        .into_iter()
        .map(|tag| (tag.id.get(), tag.name))
        .collect();
    let missing: Vec<&str> = STATE_TAGS
        .iter()
        .copied()
        .filter(|state| !tags.iter().any(|(_, name)| name == state))
        .collect();
    let made = if missing.is_empty() {
        Some(tags)
    } else {
        // The forum's tags are sent whole (those it has, with their ids, so they stay).
        let mut all: Vec<serde_json::Value> = tags
            .iter()
            .map(|(id, name)| json!({"id": id.to_string(), "name": name}))
            .collect();
        all.extend(missing.iter().map(|name| json!({"name": name})));
        bot.delivery.pace.turn(false).await;
        match http
            .edit_channel(
                serenity::ChannelId::new(forum),
                &json!({"available_tags": all}),
                None,
            )
            .await
        {
            Ok(channel) => {
                tags = channel
                    .available_tags
                    .into_iter()
                    .map(|tag| (tag.id.get(), tag.name))
                    .collect();
                Some(tags)
            }
            Err(error) => {
                warn!(%error, forum, "a forum's state tags could not be made");
                None
            }
        }
    };
    lock(&bot.forums.tags).insert(forum, made.clone());
    made
}
