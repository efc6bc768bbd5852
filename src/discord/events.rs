//! Gateway events other than slash commands: typed messages (every `!command`, game action
//! and DM order, the one path for typed text), button presses, and a new session's catch-up;
//! and what to do with the slash commands' errors.
//!
//! Messages reach the table in the order they were sent from a session's first event on.
//! serenity runs each event's handler as a task of its own, which may start in any order, so
//! typed messages are queued by a collector on the shard, which sees the events in the order
//! the gateway delivered them (`inbound::arrived`). A new session (READY) installs that
//! collector; until its handler has run, messages still reach the handlers below: those are
//! never applied on their own, but kept aside and applied in the order sent, with what the
//! session's catch-up reads back, while the table is held, before anything queued after
//! them (one whose handler runs later still is applied by the ticker).

use super::catch_up::catch_up;
use super::inbound::{arrived, edited};
use super::{buttons, Bot, Context, DiscordError};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use tracing::warn;

/// The handler of the gateway's events other than slash commands (which poise runs).
pub(super) struct Gateway {
    /// What every handler shares.
    pub(super) bot: Arc<Bot>,
}

#[serenity::async_trait]
impl serenity::EventHandler for Gateway {
    /// A new session of a shard (never a RESUME): from now on the shard's messages are queued
    /// as they arrive, in order; what was sent on that shard while the bot was away, and what
    /// reached the handlers before the queue was in place, is read back and applied first.
    /// Deadlines wait until every shard of this process has done so.
    async fn ready(&self, ctx: serenity::Context, ready: serenity::Ready) {
        let bot = &self.bot;
        let shard = ctx.shard_id.0;
        bot.shard_behind(shard);
        let began = Utc::now();
        // Held from before the queue is in place until the catch-up is applied, so nothing
        // queued meanwhile overtakes a message sent before it.
        let turn = bot.commits.turn().await;
        let (arrivals, on) = (bot.clone(), ctx.http.clone());
        ctx.shard
            .add_collector(serenity::CollectorCallback(Box::new(move |event| {
                if let serenity::Event::MessageCreate(created) = event {
                    arrived(&arrivals, &on, &created.message);
                }
                true
            })));
        let guilds: Vec<serenity::GuildId> = ready.guilds.iter().map(|guild| guild.id).collect();
        let caught_up = catch_up(bot, &ctx.http, shard, &guilds, began).await;
        drop(turn);
        bot.shard_caught_up(shard);
        if let Err(error) = caught_up {
            warn!(%error, shard, "the catch-up after a new session failed");
        }
    }

    /// A typed message the collector did not queue: it reached the bot before this session's
    /// collector was in place. It is kept aside, and applied with any others kept meanwhile in
    /// the order sent, while the table is held: by the session's catch-up, or, for one whose
    /// handler ran only after that, by the ticker once every shard has caught up. A bot's
    /// message (this one's included) is nobody's command.
    async fn message(&self, _ctx: serenity::Context, message: serenity::Message) {
        let bot = &self.bot;
        if message.author.bot || bot.was_collected(message.id.get()) {
            return;
        }
        let place = (message.guild_id.is_some(), None);
        bot.keep_aside(message, place);
    }

    /// An edited message is answered, not read again.
    async fn message_update(
        &self,
        _ctx: serenity::Context,
        _old: Option<serenity::Message>,
        _new: Option<serenity::Message>,
        event: serenity::MessageUpdateEvent,
    ) {
        if let Err(error) = edited(&self.bot, &event).await {
            warn!(%error, "an edit could not be answered");
        }
    }

    /// A button press is applied as the command it offers.
    async fn interaction_create(&self, ctx: serenity::Context, interaction: serenity::Interaction) {
        if let serenity::Interaction::Component(press) = interaction {
            if let Err(error) = buttons::press(&self.bot, &ctx, &press).await {
                warn!(%error, "a button press could not be handled");
            }
        }
    }
}

/// A slash command's errors never stop the bot: they are logged, and the user gets one
/// sentence, never poise's own error text.
pub(super) async fn on_error(error: poise::FrameworkError<'_, Arc<Bot>, DiscordError>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            warn!(%error, command = %ctx.command().name, "a command failed");
            tell(
                ctx,
                format!(
                    "Something went wrong on my side with `/{}`, so it may not have been applied; \
                     check with `{}status` and try again. The GM can find the details in the bot's log.",
                    ctx.command().name,
                    ctx.data().prefix
                ),
            )
            .await;
        }
        other => {
            warn!(error = %other, "a Discord event failed");
            if let Some(ctx) = other.ctx() {
                let prefix = &ctx.data().prefix;
                let name = &ctx.command().name;
                tell(
                    ctx,
                    format!("I could not read that `/{name}`; `{prefix}help {name}` shows how to write it."),
                )
                .await;
            }
        }
    }
}

/// Says `text` privately to the user whose slash command failed.
async fn tell(ctx: Context<'_>, text: String) {
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(error) = ctx.send(reply).await {
        warn!(%error, "the user could not be told that a command failed");
    }
}
