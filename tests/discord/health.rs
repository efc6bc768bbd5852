//! The operator's listener of the real binary (`health.listen`): `/healthz` says 503 with
//! its reasons while Discord does not answer (no gateway session, posts refused and waiting
//! beyond `health.outbox_limit`) and 200 once it answers again; `/metrics` counts the posts
//! delivered, the retries and the messages applied; while another program holds the
//! database's lock, `/healthz` still answers within a second, with one reason; `referee
//! health --url` takes `host:port`.

use crate::bot::{fresh_database, Bot, Db, Settings};
use crate::fake::FakeDiscord;
use crate::{ALICE, BOB, CHANNEL};
use sqlx::Row;
use std::time::Duration;

/// A free port on the loopback address, for the bot's listener.
fn free_address() -> String {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    socket.local_addr().unwrap().to_string()
}

/// The status and body of GET `url`.
async fn get(url: &str) -> (u16, String) {
    let answer = reqwest::get(url).await.unwrap();
    (answer.status().as_u16(), answer.text().await.unwrap())
}

/// Asks `url` until its status is `status` and its body passes `says` (up to `limit`);
/// returns the body.
async fn until(url: &str, status: u16, says: impl Fn(&str) -> bool, limit: Duration) -> String {
    let until = std::time::Instant::now() + limit;
    let mut last = (0, String::new());
    while std::time::Instant::now() < until {
        if let Ok(answer) = reqwest::get(url).await {
            last = (
                answer.status().as_u16(),
                answer.text().await.unwrap_or_default(),
            );
            if last.0 == status && says(&last.1) {
                return last.1;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} did not answer {status} as expected within {limit:?}; last: {last:?}");
}

/// Asks `healthz` until it answers `200 ok` (up to `limit`).
async fn until_well(healthz: &str, limit: Duration) {
    until(healthz, 200, |body| body == "ok\n", limit).await;
}

/// `referee health` (what Docker's HEALTHCHECK runs) asking the bot listening on
/// `address`: whether it succeeded, and what it printed.
fn referee_health(address: &str) -> (bool, String) {
    let (well, said, _) = referee_health_with(&[], &[("REFEREE_HEALTH_LISTEN", address)]);
    (well, said)
}

/// `referee health` with `args` and `env`: whether it succeeded, its output and its errors.
fn referee_health_with(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("health")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The sum of a metric's samples (every label set) in Prometheus' text format.
fn sample(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .filter(|line| {
            line.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(' ') || rest.starts_with('{'))
        })
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// How many posts the bot's database marks delivered.
async fn delivered_rows(path: &std::path::Path) -> f64 {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}?mode=ro", path.display()))
        .await
        .unwrap();
    let row = sqlx::query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NOT NULL")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    row.get::<i64, _>(0) as f64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_says_503_while_discord_does_not_answer_and_200_when_it_is_back() {
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let mut db = Db::at(&path);
    let address = free_address();
    let bot = Bot::start_with_env(
        &fake,
        &path,
        Settings::default(),
        &[
            ("REFEREE_HEALTH_LISTEN", &address),
            ("REFEREE_HEALTH_OUTBOX_LIMIT", "2s"),
        ],
    );
    let (healthz, metrics) = (
        format!("http://{address}/healthz"),
        format!("http://{address}/metrics"),
    );
    fake.wait_ready().await;
    until_well(&healthz, Duration::from_secs(20)).await;

    // A game opened and joined: the posts go out, and /metrics counts each delivered.
    fake.say(ALICE, Some(CHANNEL), "!new tag");
    let joined = fake.say(BOB, Some(CHANNEL), "!join");
    db.settled(&fake, joined).await;
    let (status, counted) = get(&metrics).await;
    assert_eq!(status, 200);
    let delivered = delivered_rows(&path).await;
    assert!(delivered >= 3.0, "{delivered}");
    assert_eq!(
        sample(&counted, "referee_posts_delivered_total"),
        delivered,
        "{counted}"
    );
    assert_eq!(sample(&counted, "referee_messages_applied_total"), 2.0);
    assert_eq!(sample(&counted, "referee_gateway_connected"), 1.0);
    // The session's catch-up is done, and how long it took is timed.
    assert_eq!(sample(&counted, "referee_caught_up"), 1.0);
    assert!(
        counted.contains("referee_catch_up_seconds_count 1"),
        "{counted}"
    );
    assert_eq!(sample(&counted, "referee_games"), 1.0);
    assert!(
        counted.contains("referee_games{state=\"signup\"} 1"),
        "{counted}"
    );
    assert_eq!(sample(&counted, "referee_outbox_backlog"), 0.0);

    // Discord stops answering: posts are refused, and the gateway drops the session and
    // grants no new one.
    fake.fail_next_posts(1_000_000, 502);
    let asked = fake.say(ALICE, Some(CHANNEL), "!who");
    for _ in 0..500 {
        if db.applied(asked).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    fake.hold_sessions(true);
    fake.invalidate_session();
    let unwell = until(
        &healthz,
        503,
        |body| {
            body.contains(
                "the Discord gateway is not connected: a shard of this process has no session\n",
            ) && body.contains("the oldest of 1 undelivered posts has waited")
                && body.contains("(limit 2 seconds)\n")
        },
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(unwell.lines().count(), 2, "{unwell}");
    let (well, said) = referee_health(&address);
    assert!(
        !well && said.contains("the Discord gateway is not connected"),
        "{said}"
    );
    let (_, counted) = get(&metrics).await;
    assert_eq!(sample(&counted, "referee_gateway_connected"), 0.0);
    assert_eq!(sample(&counted, "referee_outbox_backlog"), 1.0);
    assert!(sample(&counted, "referee_delivery_retries_total") >= 1.0);
    assert!(sample(&counted, "referee_outbox_oldest_seconds") >= 2.0);

    // Discord is back: the session returns, the post goes out, and all is well again.
    fake.fail_next_posts(0, 502);
    fake.hold_sessions(false);
    until_well(&healthz, Duration::from_secs(40)).await;
    assert_eq!(referee_health(&address), (true, "ok\n".to_string()));
    fake.wait_post("the answer to !who", |post| {
        post.channel == CHANNEL && post.content.starts_with("Game #1")
    })
    .await;
    let (_, counted) = get(&metrics).await;
    assert_eq!(
        sample(&counted, "referee_posts_delivered_total"),
        delivered_rows(&path).await
    );
    assert_eq!(sample(&counted, "referee_gateway_connected"), 1.0);
    assert_eq!(db.stop_and_replay(bot).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_within_a_second_while_another_program_holds_the_database() {
    use sqlx::Connection;
    let fake = FakeDiscord::start().await;
    let (_dir, path) = fresh_database();
    let address = free_address();
    let bot = Bot::start_with_env(
        &fake,
        &path,
        Settings::default(),
        &[("REFEREE_HEALTH_LISTEN", &address)],
    );
    let healthz = format!("http://{address}/healthz");
    fake.wait_ready().await;
    until_well(&healthz, Duration::from_secs(20)).await;
    // `host:port` is where the bot listens, as an operator types it.
    let port = address.rsplit(':').next().unwrap();
    let (well, said, err) = referee_health_with(&["--url", &format!("localhost:{port}")], &[]);
    assert!(well, "{said}{err}");
    assert_eq!(said, "ok\n");

    // Another program takes SQLite's write lock and keeps it (past database.busy_timeout).
    let mut holder = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut holder)
        .await
        .unwrap();
    for _ in 0..3 {
        let asked = std::time::Instant::now();
        let (status, body) = get(&healthz).await;
        let took = asked.elapsed();
        assert!(took < Duration::from_secs(1), "answered after {took:?}");
        assert_eq!(status, 503);
        assert_eq!(body, "the database did not answer within 0.8 seconds\n");
    }
    let asked = std::time::Instant::now();
    let (well, said, err) = referee_health_with(&["--url", &address], &[]);
    assert!(!well);
    assert_eq!(said, "the database did not answer within 0.8 seconds\n");
    assert_eq!(
        err.trim(),
        format!(
            "referee: the bot is not well (503 Service Unavailable from http://{address}/healthz)"
        )
    );
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );

    // The lock let go: all is well again.
    sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    holder.close().await.unwrap();
    until_well(&healthz, Duration::from_secs(20)).await;
    bot.stop();
}

#[test]
fn referee_health_refuses_an_address_it_cannot_ask_in_one_sentence() {
    let (well, _, err) = referee_health_with(&["--url", "ftp://localhost:9898"], &[]);
    assert!(!well);
    assert_eq!(
        err.trim(),
        "referee: --url takes host:port, like localhost:9898, or a URL like http://localhost:9898/healthz; got 'ftp://localhost:9898'"
    );
    // Nothing listens there.
    let address = free_address();
    let (well, _, err) = referee_health_with(&["--url", &address], &[]);
    assert!(!well);
    assert_eq!(
        err.trim(),
        format!("referee: nothing answers at http://{address}/healthz; is `referee run` running, with health.listen at that address?")
    );
}
