//! The outbox worker: delivers committed rows in order per audience, retries errors that can
//! pass (5xx, network) with a doubling wait and rate limits after the wait Discord names,
//! gives up on permanent ones with a log line and a note to the GM, and marks each row
//! delivered once. A DM refused because the player's DMs are closed (50007) becomes a notice
//! in the game channel.
//!
//! Exactly once, and where it is only at least once: every part of a row is posted with a
//! nonce made of this database's name, the row and the part, and `enforce_nonce`, so a post
//! that reached Discord before the bot could mark it (a crash, a lost answer) is not created
//! again when it is retried: Discord answers with the message it already has. Discord keeps
//! nonces for a few minutes only, so a post retried after a longer outage may appear twice;
//! and an answer given on an interaction cannot carry a nonce, so if the bot dies between
//! answering a slash command and marking its rows, those rows are posted again by the worker.

use super::embeds::messages;
use super::rest::{classify, Failure};
use super::Bot;
use crate::picture::png_from_svg;
use crate::store::{OutboxPost, OutboxRow, StoreError};
use crate::table::Audience;
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tracing::{info_span, warn, Instrument};

/// The longest wait between two attempts.
const MAX_WAIT: Duration = Duration::from_secs(600);
/// How many rows one pass reads.
const BATCH: i64 = 200;

/// What the deliverer remembers between passes.
#[derive(Default)]
pub(super) struct Delivery {
    /// Each user's DM channel, once opened.
    dm_channels: HashMap<u64, serenity::ChannelId>,
    /// Users whose game channels were told that their DMs are closed (until a DM gets through).
    told_dms_closed: HashSet<String>,
}

/// Runs until shutdown: a pass whenever something was queued, and at least every second
/// (for retries that come due).
pub(super) async fn worker(bot: Arc<Bot>, http: Arc<serenity::Http>) {
    loop {
        tokio::select! {
            () = bot.wake.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
        if bot.stopping.load(Ordering::SeqCst) {
            return;
        }
        if let Err(error) = pass(&bot, &http, false).await {
            warn!(%error, "the outbox could not be read");
        }
    }
}

/// At shutdown: one last try for every queued row, waiting for a retry or not (what still
/// fails stays queued for the next start).
pub(super) async fn flush(bot: &Bot, http: &serenity::Http) {
    for _ in 0..5 {
        match pass(bot, http, true).await {
            Ok(0) => return,
            Ok(_) => {}
            Err(error) => {
                warn!(%error, "the outbox could not be flushed");
                return;
            }
        }
    }
}

/// One pass over the queue, oldest first. An audience whose oldest row is waiting (for a
/// retry unless `now_or_never`, or for an interaction answering it) holds back its later
/// rows. Returns how many rows were delivered.
async fn pass(bot: &Bot, http: &serenity::Http, now_or_never: bool) -> Result<usize, StoreError> {
    let mut delivery = bot.delivery.lock().await;
    let store = bot.service.store();
    let rows = {
        let _turn = bot.commits.turn().await;
        store.undelivered(BATCH).await?
    };
    let mut held: HashSet<Audience> = HashSet::new();
    let mut delivered = 0;
    for row in rows {
        let now = Utc::now();
        let waiting = row.next_attempt > now && !now_or_never;
        if held.contains(&row.audience) || bot.commits.is_held(row.id) || waiting {
            held.insert(row.audience.clone());
            continue;
        }
        let span = info_span!("deliver", row = row.id, attempt = row.attempts + 1);
        let sent = send(bot, http, &mut delivery.dm_channels, &row)
            .instrument(span)
            .await;
        match sent {
            Ok(()) => {
                store.delivered(row.id, Utc::now()).await?;
                if let Audience::Direct(user) = &row.audience {
                    delivery.told_dms_closed.remove(user);
                }
                delivered += 1;
            }
            Err(Sent::Store(error)) => return Err(error),
            Err(Sent::Failed(Failure::RateLimited { wait, global })) => {
                warn!(
                    row = row.id,
                    wait_ms = wait.as_millis() as u64,
                    global,
                    "rate limited; trying again after Discord's wait"
                );
                let at = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
                store.wait_until(row.id, at).await?;
                held.insert(row.audience.clone());
                if global {
                    break;
                }
            }
            Err(Sent::Failed(Failure::Passing(reason)))
                if row.attempts + 1 < i64::from(bot.settings.attempts) =>
            {
                let wait = backoff(bot.settings.retry, row.attempts);
                warn!(row = row.id, %reason, wait_ms = wait.as_millis() as u64, "delivery failed; trying again later");
                let at = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
                store.retry_later(row.id, at).await?;
                held.insert(row.audience.clone());
            }
            Err(Sent::Failed(failure)) => give_up(bot, &row, &failure, &mut delivery).await?,
        }
    }
    Ok(delivered)
}

/// The wait before attempt `attempts + 2`: `first`, doubled for every earlier attempt.
fn backoff(first: Duration, attempts: i64) -> Duration {
    let doublings = u32::try_from(attempts.clamp(0, 16)).unwrap_or(16);
    first
        .saturating_mul(2u32.saturating_pow(doublings))
        .min(MAX_WAIT)
}

/// Why a row was not sent.
enum Sent {
    Failed(Failure),
    Store(StoreError),
}

/// Where a row goes on Discord: its channel, or the user's DM channel (opened once).
async fn target(
    http: &serenity::Http,
    dm_channels: &mut HashMap<u64, serenity::ChannelId>,
    audience: &Audience,
) -> Result<serenity::ChannelId, Failure> {
    match audience {
        Audience::Channel(id) => id
            .parse()
            .map(serenity::ChannelId::new)
            .map_err(|_| Failure::Permanent(format!("'{id}' is not a Discord channel id"))),
        Audience::Direct(id) => {
            let user: u64 = id
                .parse()
                .map_err(|_| Failure::Permanent(format!("'{id}' is not a Discord user id")))?;
            if let Some(channel) = dm_channels.get(&user) {
                return Ok(*channel);
            }
            let channel = serenity::UserId::new(user)
                .create_dm_channel(http)
                .await
                .map_err(|error| classify(&error))?
                .id;
            dm_channels.insert(user, channel);
            Ok(channel)
        }
    }
}

/// Posts the parts of `row` not sent yet, each with its nonce, recording each part sent.
async fn send(
    bot: &Bot,
    http: &serenity::Http,
    dm_channels: &mut HashMap<u64, serenity::ChannelId>,
    row: &OutboxRow,
) -> Result<(), Sent> {
    let channel = target(http, dm_channels, &row.audience)
        .await
        .map_err(Sent::Failed)?;
    let png = match &row.svg {
        Some(svg) => match png_from_svg(svg) {
            Ok(png) => Some(png),
            Err(error) => {
                warn!(row = row.id, %error, "the board picture could not be drawn; sent without it");
                None
            }
        },
        None => None,
    };
    let done = usize::try_from(row.parts_sent).unwrap_or(0);
    for (index, part) in messages(row, png).into_iter().enumerate().skip(done) {
        let nonce = serenity::Nonce::String(format!("{}-{}-{index}", bot.instance, row.id));
        let message = part.message.nonce(nonce).enforce_nonce(true);
        bot.rest
            .post(http, channel, message, part.files)
            .await
            .map_err(Sent::Failed)?;
        let sent = i64::try_from(index + 1).unwrap_or(i64::MAX);
        bot.service
            .store()
            .parts_sent(row.id, sent)
            .await
            .map_err(Sent::Store)?;
    }
    Ok(())
}

/// Gives a row up: a log line, and a note for the people concerned. A DM refused because
/// DMs are closed becomes a notice in each of the player's game channels (with `/order` as
/// the way in); any other failure becomes a DM to the GM of the game concerned (unless the
/// failed row was a DM to that GM). Closed DMs are announced once per player until a DM to
/// the player gets through again.
async fn give_up(
    bot: &Bot,
    row: &OutboxRow,
    failure: &Failure,
    delivery: &mut Delivery,
) -> Result<(), StoreError> {
    let reason = match failure {
        Failure::Passing(reason) => format!(
            "still failing after {} attempts: {reason}",
            row.attempts + 1
        ),
        Failure::DmsClosed => {
            "the user does not accept direct messages (Discord error 50007)".to_string()
        }
        Failure::RateLimited { wait, .. } => {
            format!("rate limited for {} s", wait.as_secs_f64())
        }
        Failure::Permanent(reason) => reason.clone(),
    };
    warn!(row = row.id, audience = ?row.audience, %reason, "gave up delivering a message");
    let store = bot.service.store();
    store.give_up(row.id, &reason).await?;
    if let (Audience::Direct(user), Failure::DmsClosed) = (&row.audience, failure) {
        if !delivery.told_dms_closed.insert(user.clone()) {
            return Ok(());
        }
    }
    let _turn = bot.commits.turn().await;
    let mut tx = store.begin().await?;
    let games = match &row.audience {
        Audience::Channel(channel) => match tx.game_in_channel(channel).await {
            Ok(game) => game.into_iter().collect(),
            Err(_) => Vec::new(),
        },
        Audience::Direct(user) => {
            let mut games = Vec::new();
            for id in tx.games_of_user(user).await? {
                if let Ok(Some(game)) = tx.game(id).await {
                    games.push(game);
                }
            }
            games
        }
    };
    let now = Utc::now();
    for game in games {
        let record = &game.record;
        match (&row.audience, failure) {
            (Audience::Direct(user), Failure::DmsClosed) => {
                let text = format!(
                    "<@{user}>: I cannot send you direct messages (your DMs are closed to me), so I could not give you a message about game #{}. Send your orders here with `/order`, like `/order bid 12`: only you will see my answer.",
                    record.id
                );
                let to = Audience::Channel(record.channel.clone());
                tx.write(None, &[OutboxPost::text(&to, &text)], now).await?;
            }
            (Audience::Direct(user), _) if *user == record.gm.id => {}
            (audience, _) => {
                let place = match audience {
                    Audience::Channel(channel) => format!("<#{channel}>"),
                    Audience::Direct(user) => format!("<@{user}> by direct message"),
                };
                let text = format!(
                    "Game #{}: I gave up delivering a message to {place}: {reason}.",
                    record.id
                );
                let to = Audience::Direct(record.gm.id.clone());
                tx.write(None, &[OutboxPost::text(&to, &text)], now).await?;
            }
        }
    }
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_ten_minutes() {
        let first = Duration::from_secs(2);
        assert_eq!(backoff(first, 0), Duration::from_secs(2));
        assert_eq!(backoff(first, 3), Duration::from_secs(16));
        assert_eq!(backoff(first, 40), MAX_WAIT);
    }
}
