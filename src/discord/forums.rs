//! Games as forum posts. A game opened with `forum=#games` lives, until its post exists, at a
//! place of its own the table names (`forum:<forum>:<game>`); its first post there (the
//! sign-up post) becomes the forum post's first message, and the game then lives in the post
//! (the table is told, and its posts not yet delivered follow it). The post's tags show the
//! game's state ("Sign-ups", "Running", "Finished", and the game's name where the forum has
//! such a tag), created in the forum when the bot may manage it; when it may not, the post
//! goes without, and the GM is told once. A post is kept open a week between two posts (the
//! longest Discord allows); an archived one is reopened by the next post.
//!
//! A post is made once: the attempt is counted before the request, so an attempt after a
//! crash or a lost answer first looks for the post among the forum's open threads.

use super::embeds::messages;
use super::rest::{classify, Failure};
use super::{snowflake, Bot};
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

/// What the bot knows of one forum.
#[derive(Clone)]
struct Forum {
    /// Its server.
    server: u64,
    /// Its tags, or `None` when the state tags are missing and the bot may not make them.
    tags: Option<Tags>,
}

/// What the bot knows of forums and their posts.
#[derive(Default)]
pub(super) struct Forums {
    /// Each forum read so far; held while one is read or its tags made, so two games never
    /// make a forum's tags at once.
    known: tokio::sync::Mutex<HashMap<u64, Forum>>,
    /// The tags last applied to each game's post.
    applied: Mutex<HashMap<u64, Vec<u64>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Makes the post in `forum` of the game that lives at `row`'s place, with the row's first
/// message as the post's and the game's tags, and tells the table the game lives there now:
/// the row (with what did not fit in the post's first message) and the game's other posts go
/// to the post from then on.
pub(super) async fn open_post(
    bot: &Bot,
    http: &serenity::Http,
    row: &OutboxRow,
    forum: u64,
) -> Result<Result<(), Failure>, StoreError> {
    let store = bot.service.store();
    let Audience::Channel(place) = &row.audience else {
        return Ok(Err(Failure::Permanent(
            "a forum post goes to a forum".to_string(),
        )));
    };
    let Some(game) = store.game_at(place).await? else {
        return Ok(Err(Failure::Permanent(format!(
            "no game lives at {place} any more"
        ))));
    };
    let known = match forum_of(bot, http, forum, &game).await? {
        Ok(known) => known,
        Err(failure) => return Ok(Err(failure)),
    };
    let name = format!("#{} {} (GM {})", game.id, game.game, game.gm.name);
    let found = match row.attempts {
        0 => None,
        _ => match existing_post(bot, http, &known, forum, &name).await {
            Ok(found) => found,
            Err(failure) => return Ok(Err(failure)),
        },
    };
    let thread = match found {
        Some(thread) => thread,
        None => {
            // Counted before it is made: a retry looks for it first.
            store.retry_later(row.id, Utc::now()).await?;
            let tags = tags_for(bot, &known, &game).await?;
            let mut made = make_post(bot, http, row, forum, &name, &tags).await;
            let refused = matches!(made, Err(Failure::Malformed(_) | Failure::Permanent(_)));
            if refused && !tags.is_empty() {
                // A tag the forum no longer has: read them again, and go without this time.
                bot.forums.known.lock().await.remove(&forum);
                made = make_post(bot, http, row, forum, &name, &[]).await;
            }
            match made {
                Ok(thread) => thread,
                Err(failure) => return Ok(Err(failure)),
            }
        }
    };
    store.parts_sent(row.id, row.parts_sent.max(1)).await?;
    let _turn = bot.commits.turn().await;
    bot.service
        .homed(place, &thread.to_string(), Utc::now())
        .await?;
    bot.committed();
    Ok(Ok(()))
}

/// Makes the post `name` in `forum` with the first message of `row` and `tags`.
async fn make_post(
    bot: &Bot,
    http: &serenity::Http,
    row: &OutboxRow,
    forum: u64,
    name: &str,
    tags: &[u64],
) -> Result<u64, Failure> {
    let Some(first) = messages(row, None).into_iter().next() else {
        return Err(Failure::Permanent("the post has no text".to_string()));
    };
    let mut post = serenity::CreateForumPost::new(name, first.message)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    for tag in tags {
        post = post.add_applied_tag(serenity::ForumTagId::new(*tag));
    }
    bot.delivery.pace.turn(false).await;
    let thread = serenity::ChannelId::new(forum)
        .create_forum_post(http, post)
        .await
        .map_err(|error| classify(&error))?
        .id
        .get();
    lock(&bot.forums.applied).insert(thread, tags.to_vec());
    Ok(thread)
}

/// The game's post named `name` in `forum`, if an earlier attempt made it.
async fn existing_post(
    bot: &Bot,
    http: &serenity::Http,
    known: &Forum,
    forum: u64,
    name: &str,
) -> Result<Option<u64>, Failure> {
    bot.delivery.pace.turn(false).await;
    let active = http
        .get_guild_active_threads(serenity::GuildId::new(known.server))
        .await
        .map_err(|error| classify(&error))?;
    Ok(active
        .threads
        .iter()
        .find(|thread| thread.parent_id.map(|p| p.get()) == Some(forum) && thread.name == name)
        .map(|thread| thread.id.get()))
}

/// After a post in `channel`: the tags of a game's forum post follow the game's state.
pub(super) async fn follow_state(
    bot: &Bot,
    http: &serenity::Http,
    channel: &str,
) -> Result<(), StoreError> {
    let Some(post) = snowflake(channel) else {
        return Ok(());
    };
    let Some(game) = bot.service.store().game_at(channel).await? else {
        return Ok(());
    };
    let Some(forum) = game.forum.as_deref().and_then(snowflake) else {
        return Ok(());
    };
    let known = match forum_of(bot, http, forum, &game).await? {
        Ok(known) => known,
        Err(failure) => {
            warn!(?failure, forum, "a forum could not be read");
            return Ok(());
        }
    };
    let tags = tags_for(bot, &known, &game).await?;
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

/// The tags of `game`'s post in `known`: its state's, and its game's where the forum has one.
/// None when the forum has no state tags and the bot may not make them (the GM is told once).
async fn tags_for(bot: &Bot, known: &Forum, game: &GameRecord) -> Result<Vec<u64>, StoreError> {
    let Some(tags) = &known.tags else {
        let forum = game.forum.as_deref().unwrap_or_default();
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
    Ok(tags
        .iter()
        .filter(|(_, name)| name == state || squeezed(name) == squeezed(&game.game))
        .map(|(id, _)| *id)
        .collect())
}

/// The forum `forum` as `game` needs it: a forum of the game's server, with the state tags
/// made where they are missing and the bot may make them. A channel that is no forum of the
/// server is refused for good, with a sentence for the GM.
async fn forum_of(
    bot: &Bot,
    http: &serenity::Http,
    forum: u64,
    game: &GameRecord,
) -> Result<Result<Forum, Failure>, StoreError> {
    let mut known = bot.forums.known.lock().await;
    let read = match known.get(&forum) {
        Some(read) => read.clone(),
        None => match read_forum(bot, http, forum).await {
            Ok((read, lasting)) => {
                if lasting {
                    known.insert(forum, read.clone());
                }
                read
            }
            Err(failure) => return Ok(Err(failure)),
        },
    };
    let server = game.server.as_deref().and_then(snowflake);
    if server.is_some_and(|server| server != read.server) {
        return Ok(Err(Failure::Permanent(format!(
            "<#{forum}> is a forum of another server"
        ))));
    }
    Ok(Ok(read))
}

/// Reads forum `forum` and makes its missing state tags; with whether what was found is
/// kept (not after a failure that may pass: the next post tries again).
async fn read_forum(
    bot: &Bot,
    http: &serenity::Http,
    forum: u64,
) -> Result<(Forum, bool), Failure> {
    bot.delivery.pace.turn(false).await;
    let channel = match serenity::ChannelId::new(forum).to_channel(http).await {
        Ok(serenity::Channel::Guild(channel)) if channel.kind == serenity::ChannelType::Forum => {
            channel
        }
        Ok(_) => {
            return Err(Failure::Permanent(format!(
                "<#{forum}> is not a forum: a game opens as a post of a forum channel"
            )))
        }
        Err(error) => {
            return Err(match classify(&error) {
                Failure::Permanent(reason) => Failure::Permanent(format!(
                "the forum <#{forum}> cannot be read ({reason}): is it deleted, or hidden from me?"
            )),
                other => other,
            })
        }
    };
    let server = channel.guild_id.get();
    let have = |name: &str| channel.available_tags.iter().any(|tag| tag.name == name);
    let missing: Vec<&str> = STATE_TAGS
        .into_iter()
        .filter(|state| !have(state))
        .collect();
    let names = |tags: &[serenity::ForumTag]| -> Tags {
        tags.iter()
            .map(|tag| (tag.id.get(), tag.name.clone()))
            .collect()
    };
    if missing.is_empty() {
        let tags = Some(names(&channel.available_tags));
        return Ok((Forum { server, tags }, true));
    }
    // The forum's tags are sent whole: those it has unchanged (ids, emoji, moderation), and
    // the missing ones.
    let mut all: Vec<serde_json::Value> = channel
        .available_tags
        .iter()
        .filter_map(|tag| serde_json::to_value(tag).ok())
        .collect();
    all.extend(missing.iter().map(|name| json!({"name": name})));
    bot.delivery.pace.turn(false).await;
    let edited = http
        .edit_channel(
            serenity::ChannelId::new(forum),
            &json!({"available_tags": all}),
            None,
        )
        .await;
    match edited {
        Ok(channel) => {
            let tags = Some(names(&channel.available_tags));
            Ok((Forum { server, tags }, true))
        }
        Err(error) => {
            warn!(%error, forum, "a forum's state tags could not be made");
            match classify(&error) {
                // Not allowed: the posts go without, and the GM is told.
                Failure::Permanent(_) => Ok((Forum { server, tags: None }, true)),
                // It may pass: this post goes with the tags there are, the next tries again.
                _ => {
                    let tags = Some(names(&channel.available_tags));
                    Ok((Forum { server, tags }, false))
                }
            }
        }
    }
}
