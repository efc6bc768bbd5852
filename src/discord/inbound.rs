//! From Discord to the table: who is speaking (id, display name, admin powers), the text as
//! the table reads it, and one message applied at a time in order of arrival.

use super::Bot;
use crate::store::{OutboxRow, StoreError};
use crate::table::{Inbound, User};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tracing::warn;

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

/// Applies one inbound message (once per `id`) and returns the outbox rows it queued. With
/// `reserve`, those rows are kept from the worker: the caller answers with them itself and
/// then marks them delivered or releases them.
pub(super) async fn submit(
    bot: &Bot,
    id: &str,
    inbound: Inbound,
    reserve: bool,
) -> Result<Vec<OutboxRow>, StoreError> {
    let store = bot.service.store();
    let rows = {
        let _turn = bot.table.lock().await;
        let before = store.last_outbox_id().await?;
        bot.service.handle(id, &inbound, Utc::now()).await?;
        let rows = store.undelivered_after(before).await?;
        if reserve {
            let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
            bot.reserve(&ids);
        }
        rows
    };
    bot.wake.notify_one();
    Ok(rows)
}

/// Fires due deadlines and reminders every `tick`, between inbound messages.
pub(super) async fn ticker(bot: Arc<Bot>, tick: std::time::Duration) {
    let mut interval = tokio::time::interval(tick.max(std::time::Duration::from_millis(100)));
    loop {
        interval.tick().await;
        let fired = {
            let _turn = bot.table.lock().await;
            bot.service.fire_due(Utc::now()).await
        };
        match fired {
            Ok(0) => {}
            Ok(_) => bot.wake.notify_one(),
            Err(error) => warn!(%error, "deadlines could not be fired"),
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
}
