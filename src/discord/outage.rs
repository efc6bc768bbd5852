//! When the database stops answering (busy past its timeout, away, out of room), the
//! messages the bot received wait in order and are tried again until it answers (see
//! `GroupCommit`). Players would meanwhile hear nothing, so once it has lasted
//! `discord.outage_notice` the places with messages waiting are told, straight through
//! Discord (the outbox is in the database), that nothing is lost; the GMs of the games not
//! over and the admins are told by DM why, and again when it answers. Who the GMs are is
//! read while the database answers, since it cannot be read once it does not.

use super::{snowflake, Bot};
use crate::table::Audience;
use poise::serenity_prelude as serenity;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tracing::warn;

/// How often the stall is looked at.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// How often the GMs of the games not over are read again while the database answers.
const READ_GMS_EVERY: Duration = Duration::from_secs(60);

/// Runs until the process ends: tells the people waiting once per stall that lasts
/// `discord.outage_notice`, and the GMs and admins once more when it ends.
pub(super) async fn watch(bot: Arc<Bot>, http: Arc<serenity::Http>) {
    let mut game_masters: Vec<String> = Vec::new();
    let mut read_at: Option<Instant> = None;
    // The GMs and admins told of the current stall, and since when it lasts.
    let mut told: Option<(Vec<String>, String)> = None;
    loop {
        tokio::time::sleep(LOOK_EVERY).await;
        match bot.commits.stall() {
            None => {
                if let Some((people, since)) = told.take() {
                    let text = format!(
                        "The bot's database answers again (it had not since {since}); the messages that waited are being applied, in order."
                    );
                    tell_by_dm(&http, &people, &text).await;
                }
                if read_at.is_none_or(|at| at.elapsed() >= READ_GMS_EVERY) {
                    read_at = Some(Instant::now());
                    match bot.service.store().open_game_masters().await {
                        Ok(found) => game_masters = found,
                        Err(error) => warn!(%error, "the GMs of the games could not be read"),
                    }
                }
            }
            Some(stall)
                if told.is_none() && stall.since.elapsed() >= bot.settings.outage_notice =>
            {
                let since = chrono::Utc::now()
                    - chrono::Duration::from_std(stall.since.elapsed()).unwrap_or_default();
                let since = since.format("%H:%M:%S UTC").to_string();
                tell_places(&bot, &http, &stall.places, &since).await;
                let people: Vec<String> = game_masters
                    .iter()
                    .chain(&bot.settings.admins)
                    .cloned()
                    .collect::<BTreeSet<String>>()
                    .into_iter()
                    .collect();
                let places = match stall.places.len() {
                    1 => "1 place".to_string(),
                    n => format!("{n} places"),
                };
                let text = format!(
                    "The bot's database has not answered since {since} ({}); messages from {places} are waiting for it, kept in order, and games wait with them: nothing is lost, and deadlines that pass meanwhile fire when it answers.",
                    stall.reason
                );
                tell_by_dm(&http, &people, &text).await;
                told = Some((people, since));
            }
            Some(_) => {}
        }
    }
}

/// Tells each place with messages waiting that the database is not answering and that
/// nothing needs to be sent again.
async fn tell_places(bot: &Bot, http: &serenity::Http, places: &[Audience], since: &str) {
    let waiting = format!(
        "My database has not answered since {since}. The messages sent to me meanwhile are kept, in order, and will be applied and answered as soon as it answers: nothing needs to be sent again."
    );
    for place in places {
        let channel = match place {
            Audience::Channel(id) => id.parse().ok().map(serenity::ChannelId::new),
            Audience::Direct(user) => bot.delivery.dm_channel(user),
        };
        let Some(channel) = channel else {
            continue;
        };
        if let Err(error) = channel.say(http, &waiting).await {
            warn!(%error, %channel, "a channel waiting for the database could not be told");
        }
    }
}

/// Sends `text` by DM to each of `people` (Discord user ids).
async fn tell_by_dm(http: &serenity::Http, people: &[String], text: &str) {
    for person in people {
        let Some(id) = snowflake(person) else {
            continue;
        };
        let sent = match serenity::UserId::new(id).create_dm_channel(http).await {
            Ok(channel) => channel.id.say(http, text).await.map(|_| ()),
            Err(error) => Err(error),
        };
        if let Err(error) = sent {
            warn!(%error, person, "a GM or admin could not be told about the database");
        }
    }
}
