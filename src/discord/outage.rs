//! When the database stops answering (busy past its timeout, away, out of room), the
//! messages the bot received wait in order and are tried again until it answers (see
//! `GroupCommit`). Players would meanwhile hear nothing, so once it has lasted a minute the
//! places with messages waiting are told, straight through Discord (the outbox is in the
//! database), that nothing is lost, and the admins by DM why.

use super::Bot;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;
use tracing::warn;

/// How long the database may stall before the people waiting are told.
const TELL_AFTER: Duration = Duration::from_secs(60);
/// How often the stall is looked at.
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// Runs until the process ends: tells the places waiting once per stall of a minute or more.
pub(super) async fn watch(bot: Arc<Bot>, http: Arc<serenity::Http>) {
    let mut told = false;
    loop {
        tokio::time::sleep(LOOK_EVERY).await;
        match bot.commits.stall() {
            None => told = false,
            Some(stall) if !told && stall.since.elapsed() >= TELL_AFTER => {
                told = true;
                let since = chrono::Utc::now()
                    - chrono::Duration::from_std(stall.since.elapsed()).unwrap_or_default();
                tell(&bot, &http, &stall.places, &stall.reason, since).await;
            }
            Some(_) => {}
        }
    }
}

/// Tells each place with messages waiting, and each admin, that the database is not
/// answering.
async fn tell(
    bot: &Bot,
    http: &serenity::Http,
    places: &[crate::table::Audience],
    reason: &str,
    since: chrono::DateTime<chrono::Utc>,
) {
    let since = since.format("%H:%M:%S UTC");
    let waiting = format!(
        "My database has not answered since {since}. The messages sent to me meanwhile are kept, in order, and will be applied and answered as soon as it answers: nothing needs to be sent again."
    );
    for place in places {
        let channel = match place {
            crate::table::Audience::Channel(id) => id.parse().ok().map(serenity::ChannelId::new),
            crate::table::Audience::Direct(user) => bot.delivery.dm_channel(user),
        };
        let Some(channel) = channel else {
            continue;
        };
        if let Err(error) = channel.say(http, &waiting).await {
            warn!(%error, %channel, "a channel waiting for the database could not be told");
        }
    }
    let admins = format!(
        "The bot's database has not answered since {since} ({reason}); messages from {} places are waiting for it, kept in order.",
        places.len()
    );
    for admin in &bot.settings.admins {
        let Ok(id) = admin.parse::<u64>() else {
            continue;
        };
        let sent = match serenity::UserId::new(id).create_dm_channel(http).await {
            Ok(channel) => channel.id.say(http, &admins).await.map(|_| ()),
            Err(error) => Err(error),
        };
        if let Err(error) = sent {
            warn!(%error, admin, "an admin could not be told the database is not answering");
        }
    }
}
