//! The operator's listener (`health.listen`): `/healthz` for a health check (Docker's
//! HEALTHCHECK, an uptime monitor) and `/metrics` for a dashboard, in Prometheus' text
//! format. The code counts and times what happens where it happens (the `metrics` macros:
//! messages applied, refusals, posts delivered, retries, rate-limit waits, resolution and
//! drawing times); the gateway's state and what the database holds (games by state, the
//! outbox's backlog) are read at each request.

use super::inbound::sessions_up;
use super::{Bot, DiscordError};
use crate::config::HealthSettings;
use crate::duration::format_duration;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use chrono::Utc;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use poise::serenity_prelude as serenity;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tracing::warn;

/// The bounds of the timing histograms, in seconds: from a millisecond (a resolution) to
/// half a minute (a rate-limit wait).
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// How long a health check (and each gauge of `/metrics`) waits for the database before it
/// says it did not answer: `/healthz` answers within a second whatever the database does
/// (a lock another program holds, a stalled disk), well before a health checker gives up.
const DATABASE_WAIT: Duration = Duration::from_millis(800);

/// The listener, bound, with the handle that renders the metrics recorded since.
pub(super) struct Listener {
    socket: TcpListener,
    metrics: PrometheusHandle,
    outbox_limit: Duration,
}

/// Binds `health.listen`, if set, before the bot connects (an address it cannot listen on
/// stops it at once, saying so), and from then on records the code's metrics.
pub(super) async fn bind(settings: &HealthSettings) -> Result<Option<Listener>, DiscordError> {
    let Some(address) = settings.listen else {
        return Ok(None);
    };
    let socket = TcpListener::bind(address)
        .await
        .map_err(|error| DiscordError::Health(format!("cannot listen on {address}: {error}")))?;
    let metrics = PrometheusBuilder::new()
        .set_buckets(BUCKETS)
        .map_err(|error| DiscordError::Health(error.to_string()))?
        .install_recorder()
        .map_err(|error| DiscordError::Health(error.to_string()))?;
    describe();
    Ok(Some(Listener {
        socket,
        metrics,
        outbox_limit: settings.outbox_limit,
    }))
}

/// The help lines of the metrics the code records.
fn describe() {
    use metrics::{describe_counter, describe_histogram, Unit};
    describe_counter!(
        "referee_messages_applied_total",
        "Messages and commands applied (each once), refused ones included"
    );
    describe_counter!(
        "referee_refusals_total",
        "Messages and commands refused (bad input, an illegal move, not allowed)"
    );
    describe_counter!(
        "referee_posts_delivered_total",
        "Posts delivered to Discord, by audience (channel or dm)"
    );
    describe_counter!(
        "referee_delivery_retries_total",
        "Deliveries that failed for a passing reason and wait to be tried again"
    );
    describe_counter!(
        "referee_posts_given_up_total",
        "Posts given up after their attempts or for good (the GM is told)"
    );
    describe_histogram!(
        "referee_rate_limit_wait_seconds",
        Unit::Seconds,
        "Waits Discord asked for with a 429 (its count is the number of 429s)"
    );
    describe_histogram!(
        "referee_resolution_seconds",
        Unit::Seconds,
        "Time the table took to apply an input that resolved a round or a turn"
    );
    describe_histogram!(
        "referee_render_seconds",
        Unit::Seconds,
        "Time to draw a board picture from SVG to PNG"
    );
    describe_histogram!(
        "referee_catch_up_seconds",
        Unit::Seconds,
        "Time a new gateway session took to read back and apply what was sent while the bot was away"
    );
}

/// What the listener's answers read.
struct Watch {
    bot: Arc<Bot>,
    shards: Arc<serenity::ShardManager>,
    metrics: PrometheusHandle,
    outbox_limit: Duration,
}

/// Serves `/healthz` and `/metrics` until the process ends.
pub(super) async fn serve(listener: Listener, bot: Arc<Bot>, shards: Arc<serenity::ShardManager>) {
    let watch = Arc::new(Watch {
        bot,
        shards,
        metrics: listener.metrics,
        outbox_limit: listener.outbox_limit,
    });
    let app = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .with_state(watch);
    if let Err(error) = axum::serve(listener.socket, app).await {
        warn!(%error, "the health listener stopped");
    }
}

/// 200 "ok", or 503 with one line per reason the bot is not well.
async fn healthz(State(watch): State<Arc<Watch>>) -> (StatusCode, String) {
    let problems = problems(&watch).await;
    match problems.is_empty() {
        true => (StatusCode::OK, "ok\n".to_string()),
        false => (
            StatusCode::SERVICE_UNAVAILABLE,
            problems
                .iter()
                .map(|problem| format!("{problem}\n"))
                .collect(),
        ),
    }
}

/// Why the bot is not well: a shard without a gateway session, a database that takes no
/// write, a post waiting longer than `health.outbox_limit`.
async fn problems(watch: &Watch) -> Vec<String> {
    let mut problems = Vec::new();
    if !sessions_up(&watch.bot, &watch.shards).await {
        problems.push(
            "the Discord gateway is not connected: a shard of this process has no session"
                .to_string(),
        );
    }
    let store = watch.bot.service.store();
    let now = Utc::now();
    // Both reads under one wait: a database that does not answer is one reason, said once.
    let database =
        in_time(async { tokio::join!(store.prove_writable(now), store.outbox_backlog()) });
    let (writable, backlog) = match database.await {
        Ok(answers) => answers,
        Err(waited) => {
            problems.push(format!("the database did not answer within {waited}"));
            return problems;
        }
    };
    if let Err(error) = writable {
        problems.push(format!("the database does not take writes: {error}"));
    }
    match backlog {
        Ok(backlog) => {
            let waited = backlog
                .oldest
                .map(|oldest| now - oldest)
                .unwrap_or_default();
            let limit = chrono::Duration::from_std(watch.outbox_limit).unwrap_or_default();
            if waited > limit {
                problems.push(format!(
                    "the oldest of {} undelivered posts has waited {} (limit {})",
                    backlog.posts,
                    format_duration(waited),
                    format_duration(limit)
                ));
            }
        }
        Err(error) => problems.push(format!("the outbox cannot be read: {error}")),
    }
    problems
}

/// `work`'s answer, or how long it was waited for in vain.
async fn in_time<T>(work: impl Future<Output = T>) -> Result<T, String> {
    tokio::time::timeout(DATABASE_WAIT, work)
        .await
        .map_err(|_| format!("{:.1} seconds", DATABASE_WAIT.as_secs_f64()))
}

/// The metrics in Prometheus' text format, with the gauges read now: the gateway, whether
/// every shard has caught up with what was sent while it was away, the games by state, the outbox's backlog and its oldest post's age.
async fn metrics(State(watch): State<Arc<Watch>>) -> impl IntoResponse {
    let connected = sessions_up(&watch.bot, &watch.shards).await;
    metrics::gauge!("referee_gateway_connected").set(f64::from(u8::from(connected)));
    let caught_up = watch
        .bot
        .caught_up
        .load(std::sync::atomic::Ordering::SeqCst);
    metrics::gauge!("referee_caught_up").set(f64::from(u8::from(caught_up)));
    let store = watch.bot.service.store();
    if let Ok(Ok(games)) = in_time(store.games_by_status()).await {
        for state in ["signup", "running", "paused", "over"] {
            let count = games
                .iter()
                .find(|(status, _)| status == state)
                .map_or(0, |(_, count)| *count);
            metrics::gauge!("referee_games", "state" => state).set(count as f64);
        }
    }
    if let Ok(Ok(backlog)) = in_time(store.outbox_backlog()).await {
        let age = backlog.oldest.map_or(0.0, |oldest| {
            (Utc::now() - oldest).num_milliseconds() as f64 / 1000.0
        });
        metrics::gauge!("referee_outbox_backlog").set(backlog.posts as f64);
        metrics::gauge!("referee_outbox_oldest_seconds").set(age.max(0.0));
    }
    watch.metrics.run_upkeep();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        watch.metrics.render(),
    )
}
