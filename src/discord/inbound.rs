//! From Discord to the table: who is speaking (id, display name, admin powers), the text as
//! the table reads it, and one message applied at a time in order of arrival. Every typed
//! message, live or read back after downtime, goes through [`typed`]: the table reads it as
//! the console would (commands, game actions, secret orders by DM).

use super::Bot;
use crate::store::{OutboxRow, StoreError};
use crate::table::{Admission, Committed, Envelope, Inbound, Receipt, Submission, User};
use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tracing::{info_span, warn, Instrument};

/// Discord's epoch (2015-01-01) in Unix milliseconds: snowflake ids count from it.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// When a message or interaction was created, read from its snowflake id.
pub(super) fn sent_at(id: u64) -> Option<DateTime<Utc>> {
    let millis = i64::try_from(id >> 22).ok()? + DISCORD_EPOCH_MS;
    DateTime::from_timestamp_millis(millis)
}

/// The smallest snowflake of an instant: messages after it were sent after that instant.
pub(super) fn snowflake_at(at: DateTime<Utc>) -> u64 {
    u64::try_from(at.timestamp_millis() - DISCORD_EPOCH_MS).unwrap_or(0) << 22
}

/// The table's user for a Discord user: the id, and the name shown in game texts (the
/// server nickname, else the display name, else the user name).
pub(super) fn user(author: &serenity::User, nick: Option<&str>) -> User {
    let name = nick
        .or(author.global_name.as_deref())
        .unwrap_or(&author.name)
        .to_string();
    User {
        id: author.id.get().to_string(),
        name,
    }
}

/// Mentions (`<@123>`, `<@!123>`) become the bare user id, which the table matches against
/// seats (`!kick @bob` names bob by id).
pub(super) fn plain_mentions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<@") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let after = after.strip_prefix('!').unwrap_or(after);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with('>') {
            out.push_str(&after[..digits]);
            rest = &after[digits + 1..];
        } else {
            out.push_str("<@");
            rest = &rest[at + 2..];
        }
    }
    out.push_str(rest);
    out
}

/// A typed message as the table reads it: where it sits and when it was sent, and its
/// words in a server channel (`in_server`, on `server` where the message does not say) or by
/// DM; `None` for a bot's message (this one's included), which the table ignores. A player's
/// DM also shows the bot where to answer that player.
fn read_typed(
    bot: &Bot,
    msg: &serenity::Message,
    in_server: bool,
    server: Option<u64>,
) -> Option<(Envelope, Inbound)> {
    if msg.author.bot {
        return None;
    }
    if !in_server {
        bot.delivery
            .learn_dm_channel(msg.author.id.get(), msg.channel_id);
    }
    let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
    let who = user(&msg.author, nick);
    let text = plain_mentions(&msg.content);
    let channel = msg.channel_id.get().to_string();
    let inbound = if in_server {
        Inbound::Channel {
            channel: channel.clone(),
            admin: bot.is_admin(msg.author.id),
            user: who,
            text,
        }
    } else {
        Inbound::Direct { user: who, text }
    };
    let envelope = Envelope {
        id: msg.id.get().to_string(),
        place: i64::try_from(msg.id.get())
            .ok()
            .map(|position| (channel, position)),
        sent: sent_at(msg.id.get()),
        mentioned: msg
            .mentions
            .iter()
            .map(|mentioned| {
                let nick = mentioned.member.as_ref().and_then(|m| m.nick.as_deref());
                user(mentioned, nick)
            })
            .collect(),
        server: msg
            .guild_id
            .map(|guild| guild.get())
            .or(server)
            .filter(|_| in_server)
            .map(|server| server.to_string()),
        // A message read back from the history after downtime comes edited, if it was.
        edited: msg
            .edited_timestamp
            .and_then(|at| DateTime::from_timestamp(at.unix_timestamp(), 0)),
    };
    Some((envelope, inbound))
}

/// A message just arrived on the gateway, seen in the order the gateway delivered it (by a
/// collector on its shard, which serenity calls before it hands the event to a task of its
/// own, where tasks on several threads may start in any order): it is queued for the table
/// at once (kept aside instead while its session is opening, see `events`), so messages are
/// applied in their order of arrival, and its answer is awaited on a task of its own. The
/// message's own event then finds it collected and does nothing more.
pub(super) fn arrived(
    bot: &Arc<Bot>,
    http: &Arc<serenity::Http>,
    msg: &serenity::Message,
    shard: u32,
) {
    let in_server = msg.guild_id.is_some();
    let Some((envelope, inbound)) = read_typed(bot, msg, in_server, None) else {
        return;
    };
    if !bot.collect(msg.id.get())
        || bot
            .kept_aside
            .keep_while_opening(msg, (in_server, None), shard)
    {
        return;
    }
    // A table that cannot keep up (its database is away) holds the gateway back here.
    while bot.commits.is_full() {
        tokio::task::block_in_place(|| std::thread::sleep(std::time::Duration::from_millis(20)));
    }
    let span = message_span(msg, in_server);
    let admission = admission(bot, &envelope, &inbound);
    let submission = Submission {
        envelope,
        inbound,
        answers_itself: false,
        admission,
    };
    let ticket = bot.commits.enqueue(submission, Utc::now());
    let (bot, http, msg) = (bot.clone(), http.clone(), msg.clone());
    tokio::spawn(
        async move {
            let applied = match bot.commits.wait(ticket).await {
                Ok(committed) => after(&bot, &http, &msg, committed.receipt).await,
                Err(error) => Err(error),
            };
            bot.committed();
            if let Err(error) = applied {
                warn!(%error, "a message could not be applied");
            }
        }
        .instrument(span),
    );
}

fn message_span(msg: &serenity::Message, in_server: bool) -> tracing::Span {
    if in_server {
        info_span!("channel message", id = %msg.id, channel = %msg.channel_id)
    } else {
        info_span!("direct message", id = %msg.id, user = %msg.author.id)
    }
}

/// Applies one typed message: in a server channel (`in_server`, on `server` where the
/// message does not say, as a message read back from history does not) or by DM, read back after
/// downtime, or live when it was not queued on arrival. Messages of bots, this one included,
/// are ignored. A secret order typed in a game channel is deleted where the bot may, and the
/// channel warned. An error means the message was not applied.
pub(super) async fn typed(
    bot: &Bot,
    http: &serenity::Http,
    msg: &serenity::Message,
    (in_server, server): super::Place,
    held: Held,
) -> Result<(), StoreError> {
    let Some((envelope, inbound)) = read_typed(bot, msg, in_server, server) else {
        return Ok(());
    };
    async {
        let (receipt, _) = submit(bot, &envelope, inbound, false, held).await?;
        // Applied: what follows it failing (the warning about an exposed order) is logged.
        if let Err(error) = after(bot, http, msg, receipt).await {
            warn!(%error, "a secret order typed in a channel could not be deleted or warned about");
        }
        Ok(())
    }
    .instrument(message_span(msg, in_server))
    .await
}

/// An edit of a message. The table reads each message as it was sent, never its edits (an
/// order edited after its round resolved, or after another replaced it, could not mean what
/// the player thinks), so an edited command or order is answered once, saying so: the edit
/// changes nothing, and a new message does. Edits of chatter, and Discord's own updates of a
/// message (a link's preview), get nothing.
pub(super) async fn edited(
    bot: &Bot,
    event: &serenity::MessageUpdateEvent,
) -> Result<(), StoreError> {
    let (Some(author), Some(content), Some(_)) =
        (&event.author, &event.content, event.edited_timestamp)
    else {
        return Ok(());
    };
    let in_server = event.guild_id.is_some();
    if author.bot || (in_server && !content.trim_start().starts_with(&bot.prefix)) {
        return Ok(());
    }
    let who = user(author, None);
    let (to, text) = match in_server {
        true => (
            crate::table::Audience::Channel(event.channel_id.get().to_string()),
            crate::table::edit_ignored(content, Some(&who.name)),
        ),
        false => (
            crate::table::Audience::Direct(who.id),
            crate::table::edit_ignored(content, None),
        ),
    };
    bot.service
        .answer_once(&format!("edit-{}", event.id), &to, &text, Utc::now())
        .await?;
    bot.committed();
    Ok(())
}

/// What follows an applied message: a secret order typed in a game channel is deleted
/// where the bot may, and the channel warned.
async fn after(
    bot: &Bot,
    http: &serenity::Http,
    msg: &serenity::Message,
    receipt: Receipt,
) -> Result<(), StoreError> {
    if receipt.exposed_order {
        let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
        let who = user(&msg.author, nick);
        let channel = msg.channel_id.get().to_string();
        let deleted = msg.channel_id.delete_message(http, msg.id).await.is_ok();
        bot.service
            .warn_exposed_order(&channel, &who, deleted, Utc::now())
            .await?;
        bot.committed();
    }
    Ok(())
}

/// Whether a message's sender is within their limit of commands, judged by when it was sent:
/// every direct message, every `!command`, and every line beginning with a game's action
/// word (which the player to move gets answered) counts; other chatter in a channel is free.
fn admission(bot: &Bot, envelope: &Envelope, inbound: &Inbound) -> Admission {
    let (user, counts) = match inbound {
        Inbound::Direct { user, .. } => (user, true),
        Inbound::Channel { user, text, .. } => {
            let text = text.trim_start();
            let first = text.split_whitespace().next().unwrap_or_default();
            let counts = text.starts_with(&bot.prefix) || bot.service.catalogue().is_action(first);
            (user, counts)
        }
    };
    if !counts {
        return Admission::Taken;
    }
    let sent = envelope.sent.unwrap_or_else(Utc::now);
    bot.floodgate
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .admit(&user.id, sent)
}

/// Whether the caller already holds the table's lock (a catch-up applies many messages in
/// one turn).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Held {
    /// Take the lock for this message.
    No,
    /// The caller holds it.
    Yes,
}

/// Applies one inbound message (once per id), possibly in one commit with others queued
/// meanwhile, and returns what became of it once that commit is durable. With
/// `answers_itself`, the outbox rows it queued come back too and are kept from the worker: the
/// caller answers with them itself and then marks them delivered or releases them.
pub(super) async fn submit(
    bot: &Bot,
    envelope: &Envelope,
    inbound: Inbound,
    answers_itself: bool,
    held: Held,
) -> Result<(Receipt, Vec<OutboxRow>), StoreError> {
    let admission = admission(bot, envelope, &inbound);
    let committed = match held {
        Held::No => {
            let submission = Submission {
                envelope: envelope.clone(),
                inbound,
                answers_itself,
                admission,
            };
            let ticket = bot.commits.enqueue(submission, Utc::now());
            bot.commits.wait(ticket).await?
        }
        // A catch-up's typed messages: the outbox worker answers them.
        Held::Yes => {
            let submission = Submission {
                envelope: envelope.clone(),
                inbound,
                answers_itself: false,
                admission,
            };
            let mut results = bot
                .commits
                .apply_held(std::slice::from_ref(&submission), Utc::now())
                .await;
            results.pop().unwrap_or_else(|| Ok(Committed::default()))?
        }
    };
    let rows = match bot.service.store().undelivered_rows(&committed.posts).await {
        Ok(rows) => rows,
        Err(error) => {
            // The caller cannot answer with them: the outbox worker delivers them.
            let _ = bot.release(&committed.posts).await;
            return Err(error);
        }
    };
    bot.committed();
    Ok((committed.receipt, rows))
}

/// How often delivered posts older than the retention setting lose their pictures.
const FORGET_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Whether every gateway shard of this process holds a session: otherwise messages may be
/// sent that the bot cannot see yet (the new session's catch-up, or Discord's replay after a
/// RESUME, brings them).
pub(super) async fn sessions_up(bot: &Bot, shards: &serenity::ShardManager) -> bool {
    let runners = shards.runners.lock().await;
    let held = bot.settings.shards;
    (held.first..=held.last).all(|shard| {
        runners
            .get(&serenity::ShardId(shard))
            .is_some_and(|runner| runner.stage == serenity::ConnectionStage::Connected)
    })
}

/// Fires due deadlines and reminders every `tick`, between inbound messages, only while every
/// shard holds a session and has caught up with what was sent before it (an order sent while
/// the bot was down, or while a session was lost, is applied before the deadline it was sent
/// for fires); and every hour drops the pictures of old posts.
pub(super) async fn ticker(
    bot: Arc<Bot>,
    http: Arc<serenity::Http>,
    tick: std::time::Duration,
    shards: Arc<serenity::ShardManager>,
) {
    let mut interval = tokio::time::interval(tick.max(std::time::Duration::from_millis(100)));
    let mut forgotten: Option<std::time::Instant> = None;
    let mut marked: Option<std::time::Instant> = None;
    // Since when every shard has been seen up and caught up, tick after tick.
    let mut up_since: Option<std::time::Instant> = None;
    loop {
        interval.tick().await;
        if !bot.caught_up.load(Ordering::SeqCst) || !sessions_up(&bot, &shards).await {
            up_since = None;
            continue;
        }
        let up = *up_since.get_or_insert_with(std::time::Instant::now);
        if forgotten.is_none_or(|at| at.elapsed() >= FORGET_EVERY) {
            forgotten = Some(std::time::Instant::now());
            if let Err(error) = bot.service.store().prune(Utc::now()).await {
                warn!(%error, "old pictures and message ids could not be dropped");
            }
        }
        let fired = {
            let _turn = bot.commits.turn().await;
            // A message kept aside whose handler ran after its session's catch-up.
            let kept = super::catch_up::apply_kept_aside(&bot, &http).await;
            if let Err(error) = &kept {
                warn!(%error, "a message kept aside could not be applied; it is tried again");
            }
            // Nothing queued or kept while the turn is held: every message that reached the
            // bot is applied, so every one sent IN_FLIGHT ago or earlier is, once the shards
            // have been up that long (a resumed session's missed events come meanwhile).
            if kept.is_ok()
                && bot.commits.is_empty()
                && up.elapsed() >= IN_FLIGHT.to_std().unwrap_or_default()
                && marked.is_none_or(|at| at.elapsed() >= MARK_EVERY)
            {
                marked = Some(std::time::Instant::now());
                mark_caught_up(&bot, Utc::now()).await;
            }
            bot.service.fire_due(Utc::now()).await
        };
        match fired {
            Ok(0) => {}
            Ok(_) => bot.committed(),
            Err(error) => warn!(%error, "deadlines could not be fired"),
        }
    }
}

/// How long a message may take to reach the bot once sent: Discord's gateway delivers
/// within this.
const IN_FLIGHT: chrono::Duration = chrono::Duration::seconds(10);

/// How often the shards' marks move on.
const MARK_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Moves the mark of every shard of this process whose latest catch-up read everything to
/// [`IN_FLIGHT`] before `now`: every message sent on it before that reached the bot and was
/// applied (the caller holds the table, with nothing queued or kept aside). A catch-up reads
/// no place whose last message is the bot's own post made before the mark.
async fn mark_caught_up(bot: &Bot, now: DateTime<Utc>) {
    let Ok(mark) = i64::try_from(snowflake_at(now - IN_FLIGHT)) else {
        return;
    };
    let total = bot.settings.shards.total;
    for shard in bot.wholly_caught_up() {
        if let Err(error) = bot.service.store().mark_caught_up(shard, total, mark).await {
            warn!(%error, shard, "the shard's caught-up mark could not be written");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_become_ids() {
        assert_eq!(plain_mentions("!kick <@123>"), "!kick 123");
        assert_eq!(plain_mentions("!replace <@!1> <@22>"), "!replace 1 22");
        assert_eq!(plain_mentions("a <@x> <@"), "a <@x> <@");
    }

    #[test]
    fn snowflakes_carry_their_time() {
        // Discord's documented example: 175928847299117063 was created 2016-04-30 11:18:25.796 UTC.
        let at = sent_at(175_928_847_299_117_063).unwrap();
        assert_eq!(at.to_rfc3339(), "2016-04-30T11:18:25.796+00:00");
        assert_eq!(sent_at(snowflake_at(at)), Some(at));
        assert!(snowflake_at(at) <= 175_928_847_299_117_063);
    }
}
