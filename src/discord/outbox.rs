//! The outbox deliverers: committed rows go out side by side across audiences (a lane for
//! each channel and each player's direct messages), in order within an audience, so no
//! channel's posts wait for another's (nor for its picture: each is drawn at a low
//! priority, one per core but one, while its lane gives its room to others), and players'
//! direct messages have room of their own, so a receipt waits for no channel. The rows sent
//! are noted delivered together ([`Notes`]). All lanes together keep the bot's pace
//! ([`Pace`]), direct messages first. A lane
//! retries errors that can pass (5xx, network) with a doubling wait and rate limits after
//! the wait Discord names, sends a post Discord refused as malformed again as plain text,
//! gives up on permanent errors with a log line and a note to the GM, and marks each row
//! delivered once. A DM refused because the player's DMs are closed (50007) gets the player
//! a private thread in each of their games. A post to an archived thread reopens it; the
//! first post of a game opened as a forum post makes the post.
//!
//! Exactly once, and where it is only at least once: every part of a row is posted with a
//! nonce made of this database's name, the row and the part, and `enforce_nonce`, so a post
//! that reached Discord before the bot could mark it (a crash, a lost answer) is not created
//! again when it is retried: Discord answers with the message it already has. Discord keeps
//! nonces for a few minutes only, so a post retried after a longer outage may appear twice;
//! and an answer given on an interaction cannot carry a nonce, so if the bot dies between
//! answering a slash command and marking its rows, those rows are posted again by the worker.

use super::background::at_low_priority;
use super::delivered::Notes;
use super::embeds::messages;
use super::forums;
use super::pace::Pace;
use super::rest::{classify, Failure};
use super::{snowflake, Bot};
use crate::picture::{png_from_svg, PictureError};
use crate::store::{Delivered, OutboxPost, OutboxRow, StoreError, DMS_CLOSED};
use crate::table::{gave_up_channel, gave_up_direct, Audience};
use chrono::{DateTime, Utc};
use poise::serenity_prelude as serenity;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tracing::{info_span, warn, Instrument};

/// The longest wait between two attempts.
const MAX_WAIT: Duration = Duration::from_secs(600);
/// The most channels delivered to side by side. A channel's lane may read posts with their
/// pictures' SVG, so this bounds what the lanes hold.
const CHANNEL_LANES: usize = 64;
/// The most players' direct messages delivered to side by side. A receipt is small, and its
/// lane spends most of its time waiting for Discord's answer: when a thousand games resolved
/// at once, 64 lanes for every audience kept the receipts sent in that second waiting up to
/// a second (issue 53's load row).
const DIRECT_LANES: usize = 192;
/// How many times as long as its last look for due posts the worker waits before the next.
const SCAN_GAPS: u32 = 3;
/// The longest the worker waits between two looks: a look that waited for the database
/// behind a long batch of the table's is no measure of its own cost.
const MAX_SCAN_GAP: Duration = Duration::from_millis(50);
/// How many of its posts a lane reads at once.
const LANE_BATCH: i64 = 20;

/// What the deliverers share.
pub(super) struct Delivery {
    /// Each user's DM channel, once known: from a DM the user sent, or opened once.
    dm_channels: Mutex<HashMap<u64, serenity::ChannelId>>,
    /// The audiences a lane is delivering to now: one lane per audience keeps its order.
    busy: Mutex<HashSet<Audience>>,
    /// Room for the channels' lanes that run at once.
    channel_lanes: Semaphore,
    /// Room for the direct messages' lanes that run at once.
    direct_lanes: Semaphore,
    /// Room for the lanes' pictures drawn at once: one per core but one (at least one), so
    /// on a machine of several cores drawing leaves one to the rest.
    drawing: Semaphore,
    /// The posts sent, noted delivered together.
    notes: Notes,
    /// The bot's pace towards Discord.
    pub(super) pace: Pace,
}

impl Delivery {
    /// Deliverers making at most `requests_per_second` requests a second.
    pub(super) fn new(requests_per_second: u32) -> Delivery {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Delivery {
            dm_channels: Mutex::new(HashMap::new()),
            busy: Mutex::new(HashSet::new()),
            channel_lanes: Semaphore::new(CHANNEL_LANES),
            direct_lanes: Semaphore::new(DIRECT_LANES),
            drawing: Semaphore::new(cores.saturating_sub(1).max(1)),
            notes: Notes::default(),
            pace: Pace::new(requests_per_second),
        }
    }

    /// Notes the DM channel of `user`, seen on a direct message the user sent, so answers go
    /// there without a request to open it.
    pub(super) fn learn_dm_channel(&self, user: u64, channel: serenity::ChannelId) {
        lock(&self.dm_channels).insert(user, channel);
    }

    /// The room of the lanes delivering to `audience`'s kind.
    fn lanes(&self, audience: &Audience) -> &Semaphore {
        match audience {
            Audience::Channel(_) => &self.channel_lanes,
            Audience::Direct(_) => &self.direct_lanes,
        }
    }

    /// The DM channel of the user with id `user`, if it is known.
    pub(super) fn dm_channel(&self, user: &str) -> Option<serenity::ChannelId> {
        let user: u64 = user.parse().ok()?;
        lock(&self.dm_channels).get(&user).copied()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs until shutdown: opens lanes whenever something was queued, and about every second
/// (for retries that come due); at shutdown waits for the lanes running.
///
/// Looking for the audiences with posts due reads every queued post. Under a burst the wakes
/// come faster than that read of thousands of posts takes, and reads back to back would hold
/// the one database connection the lanes and the table need; so a read waits
/// [`SCAN_GAPS`] times as long as the last one took, up to [`MAX_SCAN_GAP`] (the wakes
/// meanwhile make one).
pub(super) async fn worker(bot: Arc<Bot>, http: Arc<serenity::Http>) {
    let mut lanes = JoinSet::new();
    let mut gap = Duration::ZERO;
    loop {
        tokio::select! {
            () = bot.wake.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
        tokio::time::sleep(gap).await;
        while lanes.try_join_next().is_some() {}
        if bot.stopping.load(Ordering::SeqCst) {
            break;
        }
        let started = std::time::Instant::now();
        if let Err(error) = open_lanes(&bot, &http, &mut lanes, Some(Utc::now())).await {
            warn!(%error, "the outbox could not be read");
        }
        gap = (started.elapsed() * SCAN_GAPS).min(MAX_SCAN_GAP);
    }
    while lanes.join_next().await.is_some() {}
}

/// At shutdown: one last try for every queued row, due or not (what still fails stays
/// queued for the next start).
pub(super) async fn flush(bot: &Arc<Bot>, http: &Arc<serenity::Http>) {
    for _ in 0..5 {
        let mut lanes = JoinSet::new();
        match open_lanes(bot, http, &mut lanes, None).await {
            Ok(0) => return,
            Ok(_) => while lanes.join_next().await.is_some() {},
            Err(error) => {
                warn!(%error, "the outbox could not be flushed");
                return;
            }
        }
    }
}

/// Starts a lane for every audience with a post due at `due` (every post when `None`) that
/// has none running; returns how many were started.
async fn open_lanes(
    bot: &Arc<Bot>,
    http: &Arc<serenity::Http>,
    lanes: &mut JoinSet<()>,
    due: Option<DateTime<Utc>>,
) -> Result<usize, StoreError> {
    let audiences = bot.service.store().due_audiences(due).await?;
    let mut opened = 0;
    for audience in audiences {
        if !lock(&bot.delivery.busy).insert(audience.clone()) {
            continue;
        }
        let (bot, http) = (bot.clone(), http.clone());
        let span = info_span!("lane", audience = ?audience);
        lanes.spawn(
            async move {
                if let Err(error) = lane(&bot, &http, &audience, due.is_none()).await {
                    warn!(%error, "a lane of the outbox stopped");
                }
                lock(&bot.delivery.busy).remove(&audience);
                // A post queued while the lane was finishing found it busy: look again.
                bot.wake.notify_one();
            }
            .instrument(span),
        );
        opened += 1;
    }
    Ok(opened)
}

/// Delivers `audience`'s posts in order until those it read are out (a post queued after its
/// last read wakes the worker, which opens the lane again once this one ends) or the next
/// must wait (for a retry unless `now_or_never`, for an interaction answering it, or because
/// another process took the audience's lease meanwhile).
///
/// A post with a picture is drawn with the lane's room given back, so lanes waiting for
/// their turn to draw hold up no other audience's posts (a receipt waits for no board); the
/// lane then reads its posts again, since they may have changed meanwhile (a game moved to
/// another channel takes its posts along), and keeps only the drawn picture.
async fn lane(
    bot: &Bot,
    http: &serenity::Http,
    audience: &Audience,
    now_or_never: bool,
) -> Result<(), StoreError> {
    let Ok(mut room) = bot.delivery.lanes(audience).acquire().await else {
        return Ok(());
    };
    let store = bot.service.store();
    // The picture drawn for the post numbered so, while the lane read its posts again.
    let mut drawn: Option<(i64, Option<Vec<u8>>)> = None;
    'rows: loop {
        let rows = store.undelivered_of(audience, LANE_BATCH).await?;
        // Fewer rows than asked for are all there were: once they are out the lane ends
        // without reading again (a post queued meanwhile wakes the worker at its end).
        let all = rows.len() < usize::try_from(LANE_BATCH).unwrap_or(usize::MAX);
        if rows.is_empty() {
            return Ok(());
        }
        let mut rows = rows.into_iter();
        while let Some(row) = rows.next() {
            let waiting = row.next_attempt > Utc::now() && !now_or_never;
            if bot.commits.is_held(row.id) || waiting {
                return Ok(());
            }
            let png = match drawn.take() {
                Some((id, png)) if id == row.id => png,
                _ if row.svg.is_none() || forum_of_row(&row).is_some() => None,
                _ => {
                    // Nothing read is kept while the picture waits its turn to be drawn.
                    drop(rows);
                    drop(room);
                    drawn = Some((row.id, draw(bot, &row).await));
                    let Ok(again) = bot.delivery.lanes(audience).acquire().await else {
                        return Ok(());
                    };
                    room = again;
                    continue 'rows;
                }
            };
            if !store.renew_lease(audience).await? {
                return Ok(());
            }
            match deliver(bot, http, row, png).await? {
                Flow::Next => {}
                Flow::Reread => continue 'rows,
                Flow::Stop => return Ok(()),
            }
        }
        if all {
            return Ok(());
        }
    }
}

/// The forum whose game post `row` opens, if it opens one (that first message carries no
/// picture).
fn forum_of_row(row: &OutboxRow) -> Option<u64> {
    match &row.audience {
        Audience::Channel(place) => crate::table::forum_of_place(place),
        Audience::Direct(_) => None,
    }
}

/// What a lane does after one row.
enum Flow {
    /// Goes on with the next row: this one was delivered or given up.
    Next,
    /// Reads its rows again: this one changed and goes out again at once.
    Reread,
    /// Stops: this row waits (for a retry), and the rows after it with it.
    Stop,
}

/// Delivers one row (with its picture drawn, if it has one), or schedules it again, or gives
/// it up.
async fn deliver(
    bot: &Bot,
    http: &serenity::Http,
    row: OutboxRow,
    png: Option<Vec<u8>>,
) -> Result<Flow, StoreError> {
    let store = bot.service.store();
    let span = info_span!("deliver", row = row.id, attempt = row.attempts + 1);
    let forum = forum_of_row(&row);
    let sent = match forum {
        // A game opened as a forum post: its first post makes the post.
        Some(forum) => match forums::open_post(bot, http, &row, forum)
            .instrument(span)
            .await
        {
            Ok(made) => made.map(|()| None).map_err(Sent::Failed),
            Err(error) => Err(Sent::Store(error)),
        },
        None => send(bot, http, &row, png).instrument(span).await.map(Some),
    };
    match sent {
        // The game's posts, this one with them, went to its new post: none is left here.
        Ok(None) => Ok(Flow::Reread),
        Ok(Some(post)) => {
            bot.delivery.notes.note(store, post).await?;
            if let Audience::Channel(channel) = &row.audience {
                forums::follow_state(bot, http, channel).await?;
            }
            let audience = match row.audience {
                Audience::Channel(_) => "channel",
                Audience::Direct(_) => "dm",
            };
            metrics::counter!("referee_posts_delivered_total", "audience" => audience).increment(1);
            Ok(Flow::Next)
        }
        Err(Sent::Store(error)) => Err(error),
        Err(Sent::Failed(Failure::RateLimited { wait, global })) => {
            warn!(
                row = row.id,
                wait_ms = wait.as_millis() as u64,
                global,
                "rate limited; trying again after Discord's wait"
            );
            metrics::histogram!("referee_rate_limit_wait_seconds").record(wait.as_secs_f64());
            if global {
                bot.delivery.pace.pause(wait);
            }
            let at = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
            store.wait_until(row.id, at).await?;
            Ok(Flow::Stop)
        }
        Err(Sent::Failed(Failure::ThreadArchived))
            if row.attempts + 1 < i64::from(bot.settings.attempts) =>
        {
            bot.delivery.pace.turn(false).await;
            match reopen(http, &row.audience).await {
                // The thread is open again: the post goes now (counted as an attempt, so a
                // thread archived again and again is given up in the end).
                Ok(()) => {
                    store.retry_later(row.id, Utc::now()).await?;
                    Ok(Flow::Reread)
                }
                Err(Failure::Passing(reason)) => {
                    let wait = backoff(bot.settings.retry, row.attempts);
                    warn!(row = row.id, %reason, "an archived thread could not be reopened; trying again later");
                    let at = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
                    store.retry_later(row.id, at).await?;
                    Ok(Flow::Stop)
                }
                Err(failure) => {
                    metrics::counter!("referee_posts_given_up_total").increment(1);
                    give_up(bot, &row, &failure).await?;
                    Ok(Flow::Next)
                }
            }
        }
        Err(Sent::Failed(Failure::Malformed(reason)))
            if row.svg.is_some() || row.card.is_some() =>
        {
            warn!(row = row.id, %reason, "Discord refused the post as malformed; sending its text alone");
            store.strip_to_text(row.id).await?;
            Ok(Flow::Reread)
        }
        Err(Sent::Failed(Failure::Passing(reason)))
            if row.attempts + 1 < i64::from(bot.settings.attempts) =>
        {
            let wait = backoff(bot.settings.retry, row.attempts);
            metrics::counter!("referee_delivery_retries_total").increment(1);
            warn!(row = row.id, %reason, wait_ms = wait.as_millis() as u64, "delivery failed; trying again later");
            let at = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
            store.retry_later(row.id, at).await?;
            Ok(Flow::Stop)
        }
        Err(Sent::Failed(failure)) => {
            metrics::counter!("referee_posts_given_up_total").increment(1);
            give_up(bot, &row, &failure).await?;
            Ok(Flow::Next)
        }
    }
}

/// Reopens the archived thread a post goes to (Discord archives a thread nobody wrote in for
/// a while: a game's long deadline is enough). A thread a moderator locked stays closed: the
/// refusal says so, and the GM is told.
async fn reopen(http: &serenity::Http, audience: &Audience) -> Result<(), Failure> {
    let Audience::Channel(id) = audience else {
        return Err(Failure::Permanent(
            "a direct message is no thread".to_string(),
        ));
    };
    let thread = snowflake(id)
        .ok_or_else(|| Failure::Permanent(format!("'{id}' is not a Discord channel id")))?;
    serenity::ChannelId::new(thread)
        .edit_thread(http, serenity::EditThread::new().archived(false))
        .await
        .map(drop)
        .map_err(|error| match classify(&error) {
            Failure::Permanent(reason) => Failure::Permanent(format!(
                "the thread is archived and I may not reopen it (locked by a moderator?): {reason}"
            )),
            other => other,
        })
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

/// Where a row goes on Discord: its channel, or the user's DM channel (opened once, unless
/// the user's own DM showed it).
async fn target(
    bot: &Bot,
    http: &serenity::Http,
    audience: &Audience,
) -> Result<serenity::ChannelId, Failure> {
    match audience {
        Audience::Channel(id) => snowflake(id)
            .map(serenity::ChannelId::new)
            .ok_or_else(|| Failure::Permanent(format!("'{id}' is not a Discord channel id"))),
        Audience::Direct(id) => {
            let user = snowflake(id)
                .ok_or_else(|| Failure::Permanent(format!("'{id}' is not a Discord user id")))?;
            if let Some(channel) = lock(&bot.delivery.dm_channels).get(&user) {
                return Ok(*channel);
            }
            bot.delivery.pace.turn(true).await;
            let channel = serenity::UserId::new(user)
                .create_dm_channel(http)
                .await
                .map_err(|error| classify(&error))?
                .id;
            bot.delivery.learn_dm_channel(user, channel);
            Ok(channel)
        }
    }
}

/// The board picture of a row as PNG, drawn at a low priority when its turn comes (see
/// [`Delivery::drawing`]); `None` when it cannot be drawn, and the post goes without it.
async fn draw(bot: &Bot, row: &OutboxRow) -> Option<Vec<u8>> {
    let svg = row.svg.clone()?;
    let _room = bot.delivery.drawing.acquire().await.ok()?;
    png_or_warning(row.id, at_low_priority(move || timed_png(&svg)).await)
}

/// The board picture of a row as PNG, drawn at once on the blocking pool at the usual
/// priority: for a slash command's answer, which Discord waits only seconds for, so it never
/// queues behind the lanes' pictures. `None` when it cannot be drawn.
pub(super) async fn draw_at_once(row: &OutboxRow) -> Option<Vec<u8>> {
    let svg = row.svg.clone()?;
    png_or_warning(
        row.id,
        tokio::task::spawn_blocking(move || timed_png(&svg)).await,
    )
}

/// Draws `svg` as PNG, timing it.
fn timed_png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let started = std::time::Instant::now();
    let png = png_from_svg(svg);
    metrics::histogram!("referee_render_seconds").record(started.elapsed().as_secs_f64());
    png
}

/// The PNG drawn for row `id`, or `None` with a log line saying why there is none.
fn png_or_warning(
    id: i64,
    drawn: Result<Result<Vec<u8>, PictureError>, impl std::fmt::Display>,
) -> Option<Vec<u8>> {
    match drawn {
        Ok(Ok(png)) => Some(png),
        Ok(Err(error)) => {
            warn!(row = id, %error, "the board picture could not be drawn; sent without it");
            None
        }
        Err(error) => {
            warn!(row = id, %error, "drawing the board picture failed; sent without it");
            None
        }
    }
}

/// Posts the parts of `row` not sent yet, each with its nonce, recording each part sent but
/// the last; returns what to note of the row once it is sent whole.
async fn send(
    bot: &Bot,
    http: &serenity::Http,
    row: &OutboxRow,
    png: Option<Vec<u8>>,
) -> Result<Delivered, Sent> {
    let channel = target(bot, http, &row.audience)
        .await
        .map_err(Sent::Failed)?;
    let urgent = matches!(row.audience, Audience::Direct(_));
    let done = usize::try_from(row.parts_sent).unwrap_or(0);
    let store = bot.service.store();
    let parts = messages(row, png);
    let count = parts.len();
    let mut newest = None;
    for (index, part) in parts.into_iter().enumerate().skip(done) {
        let nonce = serenity::Nonce::String(format!("{}-{}-{index}", bot.instance, row.id));
        let message = part.message.nonce(nonce).enforce_nonce(true);
        bot.delivery.pace.turn(urgent).await;
        newest = bot
            .rest
            .post(http, channel, message, part.files)
            .await
            .map_err(Sent::Failed)?;
        // The last part is noted with the row's delivery.
        if index + 1 < count {
            let sent = i64::try_from(index + 1).unwrap_or(i64::MAX);
            store.parts_sent(row.id, sent).await.map_err(Sent::Store)?;
        }
    }
    // The row's last part is the newest message of the bot's there (a part missed here only
    // makes a catch-up read that channel).
    Ok(Delivered {
        id: row.id,
        parts: i64::try_from(count).unwrap_or(i64::MAX).max(row.parts_sent),
        posted: newest
            .and_then(|id| i64::try_from(id).ok())
            .map(|message| (channel.get().to_string(), message)),
    })
}

/// Gives a row up: a log line, and what follows for the people concerned. A DM refused
/// because DMs are closed makes the player owed a private thread in each of their games (see
/// `private_threads`), where it is sent again; a post a player's private thread no longer
/// takes goes to them by DM instead (and the thread is forgotten); any other failure becomes
/// a DM to the GM of the game concerned (unless the failed row was a DM to that GM), with the
/// way to move a game whose home is gone.
async fn give_up(bot: &Bot, row: &OutboxRow, failure: &Failure) -> Result<(), StoreError> {
    let reason = match failure {
        Failure::Passing(reason) => format!(
            "still failing after {} attempts: {reason}",
            row.attempts + 1
        ),
        Failure::DmsClosed => DMS_CLOSED.to_string(),
        Failure::ThreadArchived => "the thread is archived (Discord error 50083)".to_string(),
        Failure::RateLimited { wait, .. } => {
            format!("rate limited for {} s", wait.as_secs_f64())
        }
        Failure::Malformed(reason) | Failure::Permanent(reason) => reason.clone(),
    };
    warn!(row = row.id, audience = ?row.audience, %reason, "gave up delivering a message");
    let store = bot.service.store();
    let now = Utc::now();
    let mut tx = store.begin().await?;
    // A private thread refusing for good (deleted, locked) is lost to its player.
    let owner = match (&row.audience, failure) {
        (Audience::Channel(channel), Failure::Permanent(_) | Failure::ThreadArchived) => {
            tx.thread_owner(channel).await?
        }
        _ => None,
    };
    tx.rollback().await?;
    let _turn = bot.commits.turn().await;
    if let (Some((game, user)), Audience::Channel(thread)) = (owner, &row.audience) {
        // This row and the thread's others go by DM instead.
        return bot.service.thread_lost(game, &user, thread, now).await;
    }
    store.give_up(row.id, &reason).await?;
    if let (Audience::Direct(user), Failure::DmsClosed) = (&row.audience, failure) {
        return bot.service.dms_closed(user, now).await;
    }
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
    for game in games {
        let record = &game.record;
        let text = match &row.audience {
            Audience::Direct(user) if *user == record.gm.id => continue,
            Audience::Direct(user) => gave_up_direct(record.id, user, &reason),
            Audience::Channel(channel) => gave_up_channel(record.id, channel, &reason, &bot.prefix),
        };
        let to = Audience::Direct(record.gm.id.clone());
        tx.write(None, &[OutboxPost::text(&to, &text)], now).await?;
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
