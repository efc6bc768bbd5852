//! Opening a player's private thread (see `table::private_threads`): a private thread of the
//! game's channel (of the channel a game's thread belongs to), kept open a week between posts,
//! with the player added. Where the bot may not open one (no Create Private Threads, or a
//! game in a forum post, whose forum holds no private threads) the player is told once, in
//! the game's channel, how to send orders instead. A failure that may pass is tried again
//! after a doubling wait; a player whose threads keep being lost gets no more than
//! [`MOST_OPENED`] in one run of the bot.

use super::rest::{classify, Failure};
use super::{snowflake, Bot};
use crate::table::{Audience, ThreadJob};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};
use tracing::warn;

/// The most private threads opened for one player in one game in one run of the bot: a
/// thread that is lost as soon as it is opened (a permission missing for posting in threads)
/// must not make the bot open threads forever.
const MOST_OPENED: u32 = 3;
/// The first wait after a failure that may pass (doubled for each further one, to an hour).
const FIRST_WAIT: Duration = Duration::from_secs(5);

/// The private threads this run of the bot opened, or tried to, for each game and player.
#[derive(Default)]
pub(super) struct Openings(Mutex<HashMap<(i64, String), Tries>>);

/// What was tried for one player in one game.
#[derive(Default)]
struct Tries {
    opened: u32,
    failed: u32,
    not_before: Option<Instant>,
    given_up: bool,
}

impl Openings {
    /// Whether `job` is to be tried now (not given up, not waiting after a failure).
    pub(super) fn due(&self, job: &ThreadJob) -> bool {
        let tries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        tries
            .get(&(job.game, job.user.id.clone()))
            .is_none_or(|tries| {
                !tries.given_up && tries.not_before.is_none_or(|at| at <= Instant::now())
            })
    }

    fn note(&self, job: &ThreadJob, note: impl FnOnce(&mut Tries)) -> u32 {
        let mut tries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = tries.entry((job.game, job.user.id.clone())).or_default();
        note(entry);
        entry.opened
    }
}

/// Opens `job`'s thread and tells the table; when it cannot be opened for good (or too many
/// were opened already), tells the player how to send orders instead, once.
pub(super) async fn open(bot: &Bot, http: &serenity::Http, job: &ThreadJob, openings: &Openings) {
    if openings.note(job, |_| {}) >= MOST_OPENED {
        openings.note(job, |tries| tries.given_up = true);
        tell_no_thread(bot, job).await;
        return;
    }
    let thread = match make(bot, http, job).await {
        Ok(thread) => thread,
        Err(failure @ (Failure::Passing(_) | Failure::RateLimited { .. })) => {
            warn!(?failure, game = job.game, user = %job.user.id, "a private thread could not be opened; trying again later");
            openings.note(job, |tries| {
                let wait = FIRST_WAIT.saturating_mul(2u32.saturating_pow(tries.failed.min(10)));
                tries.failed += 1;
                tries.not_before = Some(Instant::now() + wait.min(Duration::from_secs(3600)));
            });
            return;
        }
        Err(failure) => {
            warn!(?failure, game = job.game, user = %job.user.id, "a private thread could not be opened");
            openings.note(job, |tries| tries.given_up = true);
            tell_no_thread(bot, job).await;
            return;
        }
    };
    let recorded = {
        let _turn = bot.commits.turn().await;
        bot.service
            .thread_opened(
                job.game,
                &job.user.id,
                &thread.get().to_string(),
                Utc::now(),
            )
            .await
    };
    match recorded {
        Ok(()) => {
            openings.note(job, |tries| tries.opened += 1);
            bot.committed();
        }
        Err(error) => {
            warn!(%error, "a private thread's opening could not be recorded; it is deleted and tried again");
            remove(bot, http, thread).await;
        }
    }
}

/// Tells the player, once, in the game's channel, that they get no private thread and how
/// to send their orders instead.
async fn tell_no_thread(bot: &Bot, job: &ThreadJob) {
    let player = format!("<@{}>", job.user.id);
    let text = match job.dms_closed {
        true => format!(
            "{player}: I cannot send you direct messages, and I may not open a private thread for you here, so send your secret orders for game #{} in this channel with `/order`: only you see my answer. (Opening your DMs to this server's members lets me write to you.)",
            job.game
        ),
        false => format!(
            "{player}: I may not open a private thread for you here, so send me your secret orders for game #{} by direct message, or in this channel with `/order`: only you see my answer.",
            job.game
        ),
    };
    let told = bot
        .service
        .answer_once(
            &format!("no-thread-{}-{}", job.game, job.user.id),
            &Audience::Channel(job.channel.clone()),
            &text,
            Utc::now(),
        )
        .await;
    match told {
        Ok(()) => bot.committed(),
        Err(error) => warn!(%error, "the player could not be told how to send orders"),
    }
}

/// Makes the private thread and adds the player (a thread the player could not be added to
/// is deleted again).
async fn make(
    bot: &Bot,
    http: &serenity::Http,
    job: &ThreadJob,
) -> Result<serenity::ChannelId, Failure> {
    let home = snowflake(&job.channel)
        .ok_or_else(|| Failure::Permanent(format!("the game lives at {} for now", job.channel)))?;
    let user = snowflake(&job.user.id)
        .ok_or_else(|| Failure::Permanent(format!("'{}' is no Discord user", job.user.id)))?;
    let parent = parent_of(bot, http, serenity::ChannelId::new(home)).await?;
    let name = format!("{}: game #{}", job.user.name, job.game);
    bot.delivery.pace.turn(false).await;
    let thread = parent
        .create_thread(
            http,
            serenity::CreateThread::new(name)
                .kind(serenity::ChannelType::PrivateThread)
                .invitable(false)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
        )
        .await
        .map_err(|error| classify(&error))?;
    bot.delivery.pace.turn(false).await;
    let added = thread
        .id
        .add_thread_member(http, serenity::UserId::new(user))
        .await;
    if let Err(error) = added {
        remove(bot, http, thread.id).await;
        return Err(classify(&error));
    }
    Ok(thread.id)
}

/// Deletes a private thread the bot made and could not use (best effort: the log says when
/// it stays).
async fn remove(bot: &Bot, http: &serenity::Http, thread: serenity::ChannelId) {
    bot.delivery.pace.turn(false).await;
    if let Err(error) = thread.delete(http).await {
        warn!(%error, %thread, "an unused private thread could not be deleted");
    }
}

/// Where a private thread for a game living at `home` goes: `home`, or the channel a thread
/// belongs to; a forum takes none.
async fn parent_of(
    bot: &Bot,
    http: &serenity::Http,
    home: serenity::ChannelId,
) -> Result<serenity::ChannelId, Failure> {
    bot.delivery.pace.turn(false).await;
    let channel = match home.to_channel(http).await.map_err(|e| classify(&e))? {
        serenity::Channel::Guild(channel) => channel,
        _ => {
            return Err(Failure::Permanent(
                "a game's channel is on a server".to_string(),
            ))
        }
    };
    let thread = matches!(
        channel.kind,
        serenity::ChannelType::PublicThread | serenity::ChannelType::PrivateThread
    );
    let Some(parent) = channel.parent_id.filter(|_| thread) else {
        return Ok(home);
    };
    bot.delivery.pace.turn(false).await;
    match parent.to_channel(http).await.map_err(|e| classify(&e))? {
        serenity::Channel::Guild(channel) if channel.kind == serenity::ChannelType::Forum => Err(
            Failure::Permanent("a forum holds no private threads".to_string()),
        ),
        _ => Ok(parent),
    }
}
