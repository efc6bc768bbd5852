//! The serenity adapter: gateway events become the table's inbound messages (`inbound`,
//! `events`, `commands`, `buttons`), and the outbox becomes Discord messages with embeds,
//! pictures and buttons (`outbox`, `embeds`). Everything about games stays in the table.

mod background;
mod buttons;
mod catch_up;
mod commands;
mod delivered;
mod embeds;
mod events;
mod forums;
mod health;
mod inbound;
mod kept_aside;
mod outage;
mod outbox;
mod pace;
mod private_threads;
mod rest;
mod searches;

pub use embeds::split_text;
pub use rest::{classify, Failure};

use crate::config::{DiscordSettings, HealthSettings};
use crate::store::StoreError;
use crate::table::{GroupCommit, Service};
use chrono::Utc;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use thiserror::Error;
use tracing::{info, warn};

/// Why the bot stopped or could not start.
#[derive(Debug, Error)]
pub enum DiscordError {
    /// Discord refused the token.
    #[error("Discord rejected the bot token in DISCORD_TOKEN; copy it again from the Developer Portal (Bot > Reset Token)")]
    TokenRejected,
    /// Discord (or the configured API address) could not be reached.
    #[error("cannot reach Discord at {url}: {reason}")]
    Unreachable {
        /// Where the bot tried.
        url: String,
        /// What failed.
        reason: String,
    },
    /// The gateway connection ended with an error.
    #[error("the Discord gateway connection failed: {0}")]
    Gateway(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A Discord request failed.
    #[error("a Discord request failed: {0}")]
    Serenity(#[from] serenity::Error),
    /// The health listener (`health.listen`) could not be set up.
    #[error("health.listen: {0}")]
    Health(String),
}

/// What every handler shares: the table, the settings, and the locks that keep order.
pub struct Bot {
    service: Service,
    settings: DiscordSettings,
    prefix: String,
    /// The queue in front of the table: inbound messages are applied in order of arrival,
    /// those that wait meanwhile sharing one commit; its turn is also taken to fire deadlines
    /// and to apply a search's verdict. It holds the rows an interaction answers itself.
    commits: GroupCommit,
    /// What the outbox's deliverers share: one lane per audience, the pace, the pictures
    /// being drawn, the DM channels known.
    delivery: outbox::Delivery,
    /// Wakes the outbox worker when something was queued.
    wake: tokio::sync::Notify,
    /// Wakes the searches worker when something was committed.
    searches_wake: tokio::sync::Notify,
    /// Set at shutdown: the worker ends after its current pass.
    stopping: std::sync::atomic::AtomicBool,
    /// Set while every shard of this process has caught up with its latest session (at
    /// start-up and after every new session): deadlines fire only then.
    caught_up: std::sync::atomic::AtomicBool,
    /// The shards whose latest catch-up is done, each with whether it read every place it
    /// planned (only then may its mark move on: see [`inbound::ticker`]).
    shards_caught_up: std::sync::Mutex<std::collections::HashMap<u32, bool>>,
    /// Each account's limit of commands.
    floodgate: std::sync::Mutex<crate::table::Floodgate>,
    /// Messages queued for the table as they arrived ([`inbound::arrived`]), until their
    /// own event comes and finds them there.
    collected: std::sync::Mutex<std::collections::HashSet<u64>>,
    /// Messages that cannot go to the queue yet (a new session's first ones, or ones a
    /// catch-up could not apply), until they are applied with the table held.
    kept_aside: kept_aside::KeptAside,
    /// The servers' channels as the gateway sent them, for the catch-up.
    listings: catch_up::Listings,
    /// The server of each game channel looked up so far (`None`: not a server channel), to
    /// know which shard's catch-up reads it.
    servers: tokio::sync::Mutex<std::collections::HashMap<u64, Option<u64>>>,
    /// Posts go out through here.
    rest: rest::Rest,
    /// What the bot knows of forums, whose posts are games.
    forums: forums::Forums,
    /// This database's name, which makes its posts' nonces its own.
    instance: String,
}

/// Where a message was posted, as the table is told: in a server channel (and on which
/// server, where the message does not say, as one read back from history does not), or by DM.
type Place = (bool, Option<u64>);

/// The poise context of a command.
type Context<'a> = poise::Context<'a, Arc<Bot>, DiscordError>;

impl Bot {
    /// Whether `user` has GM powers everywhere by the settings.
    fn is_admin(&self, user: serenity::UserId) -> bool {
        let id = user.get().to_string();
        self.settings.admins.contains(&id)
    }

    /// Something was committed: posts to deliver, perhaps a search to run.
    fn committed(&self) {
        self.wake.notify_one();
        self.searches_wake.notify_one();
    }

    /// Notes message `id` as queued on arrival: `false` when it already was.
    fn collect(&self, id: u64) -> bool {
        self.collected
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id)
    }

    /// Whether message `id` was queued on arrival (its event then has nothing to do); the
    /// note is taken away.
    fn was_collected(&self, id: u64) -> bool {
        self.collected
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&id)
    }

    /// Notes that `shard` has a new session whose catch-up is still to come: deadlines wait
    /// for it.
    fn shard_behind(&self, shard: u32) {
        self.shards_caught_up
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&shard);
        self.caught_up
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// Notes that `shard` has caught up with its new session, having read every place it
    /// planned or not (`whole`); once every shard of this process has, deadlines may fire.
    fn shard_caught_up(&self, shard: u32, whole: bool) {
        let mut done = self
            .shards_caught_up
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        done.insert(shard, whole);
        let held = self.settings.shards;
        if (held.first..=held.last).all(|shard| done.contains_key(&shard)) {
            self.caught_up
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// The shards of this process whose latest catch-up read every place it planned.
    fn wholly_caught_up(&self) -> Vec<u32> {
        let done = self
            .shards_caught_up
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut shards: Vec<u32> = done
            .iter()
            .filter(|(_, whole)| **whole)
            .map(|(shard, _)| *shard)
            .collect();
        shards.sort_unstable();
        shards
    }

    /// Hands rows an interaction answered (or failed to) over to the outbox worker (and, on
    /// PostgreSQL, to the other processes' workers).
    async fn release(&self, ids: &[i64]) -> Result<(), StoreError> {
        self.commits.release(ids);
        let released = self.service.store().unhold_posts(ids, Utc::now()).await;
        self.wake.notify_one();
        released
    }

    /// After an interaction's answer: marks the rows it carried (`answered`) delivered, tried
    /// a few times while the database does not take it, and releases every row it held
    /// (`held`) whatever happened, so the sender's and the channel's posts never stop behind
    /// them. A row that could not be marked goes out again as a post: a repeat is better
    /// than a lane stopped until the next start.
    async fn answered(&self, answered: &[i64], held: &[i64]) -> Result<(), StoreError> {
        let mut failed = Ok(());
        for id in answered {
            let mut wait = std::time::Duration::from_millis(50);
            for attempt in 1..=MARK_ATTEMPTS {
                match self.service.store().delivered(*id, Utc::now()).await {
                    Ok(()) => break,
                    Err(error) if attempt < MARK_ATTEMPTS => {
                        warn!(%error, row = id, "an answered post could not be marked delivered; trying again");
                        tokio::time::sleep(wait).await;
                        wait *= 2;
                    }
                    Err(error) => {
                        warn!(%error, row = id, "an answered post could not be marked delivered; it goes out again as a post");
                        if failed.is_ok() {
                            failed = Err(error);
                        }
                    }
                }
            }
        }
        let released = self.release(held).await;
        failed.and(released)
    }
}

/// How many times an interaction's answered row is marked delivered before it is left to the
/// outbox worker.
const MARK_ATTEMPTS: u32 = 4;

/// The Discord id (a snowflake: never 0) `text` holds, if it holds one.
fn snowflake(text: &str) -> Option<u64> {
    text.parse().ok().filter(|id| *id != 0)
}

/// Checks the token with Discord before connecting, so a wrong one ends in one sentence.
async fn check_token(
    http: &serenity::Http,
    settings: &DiscordSettings,
) -> Result<serenity::CurrentUser, DiscordError> {
    match http.get_current_user().await {
        Ok(user) => Ok(user),
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)))
            if response.status_code.as_u16() == 401 =>
        {
            Err(DiscordError::TokenRejected)
        }
        Err(error) => Err(DiscordError::Unreachable {
            url: settings
                .api_url
                .clone()
                .unwrap_or_else(|| "https://discord.com".to_string()),
            reason: error.to_string(),
        }),
    }
}

/// Plays every game on Discord until SIGTERM or Ctrl-C: connects, registers the slash
/// commands, applies messages, fires deadlines, delivers the outbox; on a signal it stops
/// taking messages, lets the message in flight finish, flushes the outbox and returns.
pub async fn run(
    service: Service,
    settings: DiscordSettings,
    health: &HealthSettings,
    token: &str,
    tick: std::time::Duration,
) -> Result<(), DiscordError> {
    // Whatever is typed in a channel on Discord, everyone there reads; forums take games.
    let service = service.on_discord();
    let listener = health::bind(health).await?;
    let rest = rest::Rest::new(settings.api_url.clone(), settings.request_timeout);
    let http = rest.serenity_http(token);
    let me = check_token(&http, &settings).await?;
    info!(bot = %me.name, "the token is accepted");
    let prefix = service.defaults().prefix.clone();
    let instance = service.store().instance().await?;
    let delivery = outbox::Delivery::new(settings.requests_per_second);
    let flood = service.defaults().flood;
    let bot = Arc::new(Bot {
        commits: GroupCommit::new(service.clone()),
        service,
        settings,
        prefix,
        delivery,
        wake: tokio::sync::Notify::new(),
        searches_wake: tokio::sync::Notify::new(),
        stopping: std::sync::atomic::AtomicBool::new(false),
        caught_up: std::sync::atomic::AtomicBool::new(false),
        shards_caught_up: std::sync::Mutex::new(std::collections::HashMap::new()),
        floodgate: std::sync::Mutex::new(crate::table::Floodgate::new(flood.0, flood.1)),
        collected: std::sync::Mutex::new(std::collections::HashSet::new()),
        kept_aside: kept_aside::KeptAside::default(),
        listings: catch_up::Listings::default(),
        servers: tokio::sync::Mutex::new(std::collections::HashMap::new()),
        rest,
        forums: forums::Forums::default(),
        instance,
    });
    // GUILDS brings the servers' channels and threads (THREAD_CREATE, THREAD_UPDATE, the
    // thread lists): without it Discord sends none of them.
    let intents = serenity::GatewayIntents::GUILDS
        | serenity::GatewayIntents::GUILD_MESSAGES
        | serenity::GatewayIntents::DIRECT_MESSAGES
        | serenity::GatewayIntents::MESSAGE_CONTENT;
    // Poise runs the slash commands only: typed text, every `!word` included, reaches the
    // table through one path (`events`), as on the console.
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        prefix_options: poise::PrefixFrameworkOptions {
            prefix: None,
            mention_as_prefix: false,
            ..Default::default()
        },
        on_error: |error| Box::pin(events::on_error(error)),
        initialize_owners: false,
        ..Default::default()
    };
    let setup_bot = bot.clone();
    let framework = poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                // Without slash commands the bot still plays by prefix commands and DMs.
                if let Err(error) =
                    commands::register(ctx, framework, &setup_bot.settings.guilds).await
                {
                    warn!(%error, "the slash commands could not be registered");
                }
                info!(bot = %ready.user.name, "connected to Discord");
                Ok(setup_bot)
            })
        })
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .event_handler(events::Gateway { bot: bot.clone() })
        .await?;
    let shards = client.shard_manager.clone();
    let http = client.http.clone();
    let worker = tokio::spawn(outbox::worker(bot.clone(), http.clone()));
    let ticker = tokio::spawn(inbound::ticker(
        bot.clone(),
        http.clone(),
        tick,
        shards.clone(),
    ));
    let searching = tokio::spawn(searches::worker(bot.clone(), http.clone()));
    let outage = tokio::spawn(outage::watch(bot.clone(), http.clone()));
    let listening =
        listener.map(|listener| tokio::spawn(health::serve(listener, bot.clone(), shards.clone())));
    let held = bot.settings.shards;
    info!(
        first = held.first,
        last = held.last,
        total = held.total,
        "connecting the gateway shards"
    );
    let ended = tokio::select! {
        // serenity starts the end of this range too: first..last is first to last, included.
        ended = client.start_shard_range(held.first..held.last, held.total) => Some(ended),
        () = shutdown_signal() => None,
    };
    info!("stopping: no new messages are taken");
    shards.shutdown_all().await;
    ticker.abort();
    // A search under way is run again at the next start: its game keeps it asked.
    searching.abort();
    outage.abort();
    if let Some(listening) = listening {
        listening.abort();
    }
    // The batch in flight finishes: the turn is free only after its commit (or, when the
    // database does not take it, after the try under way: its messages are read back at the
    // next start).
    bot.commits.stop();
    let table = bot.commits.turn().await;
    bot.stopping
        .store(true, std::sync::atomic::Ordering::SeqCst);
    bot.wake.notify_one();
    drop(table);
    // The worker ends after the pass it is in; then what can be delivered is flushed.
    let _ = worker.await;
    outbox::flush(&bot, &http).await;
    if let Err(error) = bot.service.store().release_leases().await {
        warn!(%error, "the leases on the outbox could not be given up; they run out by themselves");
    }
    bot.service.store().close().await;
    match ended {
        Some(Err(serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication))) => {
            Err(DiscordError::TokenRejected)
        }
        Some(Err(error)) => {
            warn!(%error, "the gateway connection ended");
            Err(DiscordError::Gateway(error.to_string()))
        }
        _ => Ok(()),
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
