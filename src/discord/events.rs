//! Gateway events other than slash commands: typed messages (every `!command`, game action
//! and DM order, the one path for typed text), button presses, and a new session's catch-up;
//! and what to do with the slash commands' errors.
//!
//! Messages reach the table in the order they were sent from a session's first event on.
//! serenity runs each event's handler as a task of its own, which may start in any order, so
//! typed messages are queued by a collector on the shard, which sees the events in the order
//! the gateway delivered them (`inbound::arrived`). A new session (READY) asks for that
//! collector, which serenity puts in place between two events; until then messages still
//! reach the handlers below. Those are never applied on their own: they are kept aside, and
//! so is what the collector sees until the session's catch-up has planned, once the
//! collector is in place and their handlers have had time to run (see [`Collector`]); from
//! then on only what goes to a place not read back yet is kept aside, and the catch-up
//! applies it there in the order sent, with what it reads back, before anything the
//! collector sees there later. One whose handler runs later still is applied by the ticker.

use super::catch_up::catch_up;
use super::inbound::{arrived, edited};
use super::{buttons, Bot, Context, DiscordError};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tracing::{info, warn};

/// The longest a shard's runner waits for the gateway before it looks at what was asked of
/// it, a new collector included (serenity's read timeout): an added collector is in place
/// once an event has passed through it, or at the latest after this.
const RUNNER_WAKES_WITHIN: Duration = Duration::from_millis(600);

/// How long the handlers of messages that came before the collector are given to keep them
/// aside: serenity started them as tasks before the collector was in place, and they only
/// have to note the message, but they may start in any order.
const STRAGGLERS_WITHIN: Duration = Duration::from_millis(250);

/// A session's collector as the catch-up sees it: asked for at `added`, known to be in place
/// once `seen` is notified (an event passed through it; the first notice is kept until the
/// catch-up asks).
pub(super) struct Collector {
    added: Instant,
    seen: Arc<Notify>,
}

impl Collector {
    /// A collector asked for now.
    fn added() -> Collector {
        Collector {
            added: Instant::now(),
            seen: Arc::new(Notify::new()),
        }
    }

    /// When the collector was asked for: as the session's READY was handled.
    pub(super) fn asked_at(&self) -> Instant {
        self.added
    }

    /// Waits until every message that reached the handlers instead of the collector has been
    /// kept aside. serenity adds a collector between two events (or after its read timeout),
    /// so a message the gateway brought meanwhile goes to its handler, as a task that may run
    /// after the collector kept later ones: taken only by the ticker, it would come after
    /// them. So the catch-up takes what was kept aside only once the collector is in place and
    /// such handlers have had time to run.
    pub(super) async fn in_place(&self) {
        let left = RUNNER_WAKES_WITHIN.saturating_sub(self.added.elapsed());
        // Elapsed means the runner's read timeout passed: the collector is in place all the
        // same.
        let _ = tokio::time::timeout(left, self.seen.notified()).await;
        tokio::time::sleep(STRAGGLERS_WITHIN).await;
    }
}

/// The handler of the gateway's events other than slash commands (which poise runs).
pub(super) struct Gateway {
    /// What every handler shares.
    pub(super) bot: Arc<Bot>,
}

#[serenity::async_trait]
impl serenity::EventHandler for Gateway {
    /// A new session of a shard (never a RESUME): from now on the shard's messages are
    /// collected as they arrive, in order; what was sent on that shard while the bot was away
    /// is read back and applied group by group (the games tied by a channel or a player),
    /// each group's before what the collector saw there meanwhile, in the order sent.
    /// Deadlines wait until every shard of this process has done so.
    async fn ready(&self, ctx: serenity::Context, ready: serenity::Ready) {
        let bot = &self.bot;
        let shard = ctx.shard_id.0;
        bot.shard_behind(shard);
        let began = Utc::now();
        // The collector is asked for first thing, to shorten the time in which messages reach
        // the handlers instead; what it sees is kept aside with them until the catch-up has
        // planned, and then while it waits for a place still to be read, so nothing it sees
        // overtakes a message sent before it in the same games.
        let session = bot.kept_aside.open(shard);
        let (arrivals, on) = (bot.clone(), ctx.http.clone());
        let collector = Collector::added();
        let seen = collector.seen.clone();
        ctx.shard
            .add_collector(serenity::CollectorCallback(Box::new(move |event| {
                seen.notify_one();
                if let serenity::Event::MessageCreate(created) = event {
                    arrived(&arrivals, &on, &created.message, shard);
                }
                true
            })));
        let guilds: Vec<serenity::GuildId> = ready.guilds.iter().map(|guild| guild.id).collect();
        let listings = bot.listings.session_began(shard, collector.asked_at());
        let caught_up = catch_up(
            bot,
            &ctx.http,
            session,
            &guilds,
            (began, listings),
            &collector,
        )
        .await;
        // A session another replaced meanwhile: that one's catch-up says when it is done.
        if !bot.kept_aside.opened(session) {
            return;
        }
        bot.shard_caught_up(shard, matches!(caught_up, Ok(true)));
        let took = collector.asked_at().elapsed();
        metrics::histogram!("referee_catch_up_seconds").record(took.as_secs_f64());
        info!(
            shard,
            seconds = took.as_secs_f64(),
            "caught up with the new session"
        );
        if let Err(error) = caught_up {
            warn!(%error, shard, "the catch-up after a new session failed");
        }
    }

    /// A server, with its channels and active threads, as the gateway sends it after READY:
    /// the catch-up lists the server from it instead of asking.
    async fn guild_create(
        &self,
        _ctx: serenity::Context,
        guild: serenity::Guild,
        _is_new: Option<bool>,
    ) {
        self.bot.listings.note(&guild);
    }

    /// A typed message the collector did not queue: it reached the bot before this session's
    /// collector was in place. It is kept aside, and applied with any others kept meanwhile in
    /// the order sent, while the table is held: by the session's catch-up, or, for one whose
    /// handler ran only after that, by the ticker once every shard has caught up. A bot's
    /// message (this one's included) is nobody's command.
    async fn message(&self, ctx: serenity::Context, message: serenity::Message) {
        let bot = &self.bot;
        if message.author.bot || bot.was_collected(message.id.get()) {
            return;
        }
        let place = (message.guild_id.is_some(), None);
        bot.kept_aside.keep(message, place, ctx.shard_id.0);
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
