//! The `referee` command: the Discord bot, the console table, the transcript runner, replay,
//! export and the audit page.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use referee::config::{self, Config};
use referee::local::{Clock, Runner};
use referee::store::Store;
use referee::table::audit::{audit_page, export, replay, AuditError};
use referee::table::{Catalogue, Service};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// A game master for play-by-post games.
#[derive(Parser)]
#[command(name = "referee", version, about)]
struct Cli {
    /// A settings file giving some or all settings over the built-in defaults
    /// (config/default.toml, compiled in); REFEREE_* variables still apply over both.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays every game on Discord (the bot token comes from DISCORD_TOKEN).
    Run {
        /// The SQLite file (default: the configured database, referee.db).
        #[arg(long)]
        db: Option<PathBuf>,
        /// How many gateway shards the bot has across its processes (default: discord.shards).
        #[arg(long)]
        shards: Option<i64>,
        /// The shards this process connects, FIRST..LAST (both included) or one number
        /// (default: discord.shard_ids, or all of them).
        #[arg(long, value_name = "FIRST..LAST")]
        shard_ids: Option<String>,
    },
    /// A table on the console, typed live in the transcript format, on a SQLite file.
    Local {
        /// The SQLite file (default: the configured database, referee.db).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Where board pictures are written.
        #[arg(long, default_value = "pictures")]
        pictures: PathBuf,
    },
    /// Plays a transcript on a manual clock and prints everything the bot says.
    Script {
        /// The transcript file.
        file: PathBuf,
        /// Keep the games in this SQLite file (default: an in-memory database).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Where board pictures and files are written (default: drawn but not kept).
        #[arg(long)]
        pictures: Option<PathBuf>,
        /// The manual clock's start, in UTC.
        #[arg(long, default_value = "2026-01-01T00:00:00Z")]
        start: String,
    },
    /// Rebuilds a game from its seed and inputs and checks every event and the final state.
    Replay {
        /// The game's number.
        game: i64,
        /// The SQLite file (default: the configured database).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Works every result and rating out again from the finished games' logs (each game
    /// replayed, rated per server and game in the order the games ended), replacing those
    /// kept: what the live table updated as games ended, from the log alone.
    Ratings {
        /// Rebuild them (the only thing this command does; it asks to be told so).
        #[arg(long, required = true)]
        rebuild: bool,
        /// The SQLite file (default: the configured database).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Solves a Short Circuit position (the rules page's text format): prints `completable`
    /// with a witness board, `impossible`, or `undecided` when the budget runs out first.
    Solve {
        /// The position file.
        file: PathBuf,
        /// How long the solver may think, such as `500ms`, `5s`, `2m` or `1h`.
        #[arg(long, default_value = "1m")]
        budget: String,
    },
    /// Writes a game's audit page: one HTML file where the reader's browser checks the seed
    /// against its commitment and re-derives every roll (only what is public while the game
    /// runs).
    Audit {
        /// The game's number.
        game: i64,
        /// The SQLite file (default: the configured database).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The HTML file to write.
        #[arg(long)]
        html: PathBuf,
    },
    /// Writes a consistent copy of a SQLite database to FILE (safe while the bot runs), checks
    /// it (SQLite's integrity check and a replay of every game in it) and says so.
    Backup {
        /// The backup file to write (it must not exist yet).
        file: PathBuf,
        /// The SQLite file to back up (default: the configured database).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Asks the running bot's health listener (`health.listen`) whether it is well: prints
    /// its answer, and fails unless it is (Docker's HEALTHCHECK runs this).
    Health {
        /// Where to ask: host:port (like localhost:9898) or a URL (default: health.listen).
        #[arg(long)]
        url: Option<String>,
    },
    /// Prints a game as JSON: the public view, or everything with --secret.
    Export {
        /// The game's number.
        game: i64,
        /// The SQLite file (default: the configured database).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Include the seed, the orders and the inputs (for the GM and for debugging).
        #[arg(long)]
        secret: bool,
    },
}

fn settings(path: Option<&PathBuf>) -> Result<Config> {
    let file = match path {
        Some(path) => Some((
            path.display().to_string(),
            std::fs::read_to_string(path).map_err(|error| {
                anyhow::anyhow!(
                    "cannot read the settings file {}: {}",
                    path.display(),
                    error.kind()
                )
            })?,
        )),
        None => None,
    };
    let file = file
        .as_ref()
        .map(|(name, text)| (name.as_str(), text.as_str()));
    Ok(config::load(file, std::env::vars())?)
}

fn sqlite_url(db: &std::path::Path) -> String {
    format!("sqlite://{}", db.display())
}

/// How a command uses the database.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Plays games: the file is created and migrated if needed.
    Play,
    /// Writes to an existing file (`ratings --rebuild`): migrated if needed, never created.
    Existing,
    /// Only reads an existing file (replay, export): nothing is created or written.
    Read,
}

/// Reads `referee solve --budget`: a duration in the players' words, or milliseconds (`500ms`).
fn solve_budget(text: &str) -> Option<std::time::Duration> {
    match text.trim().strip_suffix("ms") {
        Some(millis) => millis
            .trim()
            .parse()
            .ok()
            .map(std::time::Duration::from_millis),
        None => referee::duration::parse_duration(text)?.to_std().ok(),
    }
}

/// Solves `position` on a thread of its own and waits at most `limit` for the answer (the
/// position text of `referee solve`); `None` when the time runs out first (the thread is left
/// to end with the process).
fn solve_within_time(
    position: referee::games::short_circuit::Position,
    limit: std::time::Duration,
) -> Option<String> {
    let (answer, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let solution = referee::games::short_circuit::solve(&position.grid, &position.supply);
        let _ = answer.send(solution.to_text());
    });
    received.recv_timeout(limit).ok()
}

/// Writes `text` to standard output; a reader that stopped reading (`referee solve f | head -1`)
/// is not an error.
fn print_tolerating_closed_pipe(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => Ok(result?),
    }
}

async fn service(config: &Config, url: Option<String>, access: Access) -> Result<Service> {
    let mut store_settings = config.store.clone();
    if let Some(url) = url {
        store_settings.url = url;
    }
    let store = match access {
        Access::Play => Store::open(&store_settings).await?,
        Access::Existing => Store::open_existing(&store_settings).await?,
        Access::Read => Store::open_read_only(&store_settings).await?,
    };
    Ok(Service::new(
        store,
        Catalogue::standard(),
        config.table.clone(),
    ))
}

// A thread per core: posts to many channels go out side by side while the table applies
// messages (in their order of arrival: the Discord adapter queues each as the gateway
// delivers it); pictures are drawn and computers think on threads of their own at the
// a low priority, so they take what the table and the lanes leave.
#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let config = match settings(cli.config.as_ref()) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("referee: {}", sentence(&error));
            std::process::exit(1);
        }
    };
    start_logging(config.log_format);
    if let Err(error) = run(cli, config).await {
        eprintln!("referee: {}", sentence(&error));
        std::process::exit(1);
    }
}

/// Log lines go to standard error, as text or as JSON objects (`log.format`); `REFEREE_LOG`
/// chooses which (warnings and errors unless it says otherwise).
fn start_logging(format: config::LogFormat) {
    let lines = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("REFEREE_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr);
    match format {
        config::LogFormat::Text => lines.init(),
        config::LogFormat::Json => lines.json().init(),
    }
}

/// An error and its causes in one line, each said once: a cause whose words the line holds
/// already (the store's errors quote the database's, which quote SQLite's) adds nothing.
fn sentence(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// How long `referee health` waits for the bot's answer (which comes within a second).
const HEALTH_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The address `referee health --url` asks: `host:port` (or `host:port/path`) as
/// `http://host:port/healthz` (or that path), a whole http or https URL as it is.
fn health_target(given: &str) -> Result<reqwest::Url> {
    let given = given.trim();
    let with_scheme = match given.contains("://") {
        true => given.to_string(),
        false => format!("http://{given}"),
    };
    let parsed = reqwest::Url::parse(&with_scheme)
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some());
    let Some(mut url) = parsed else {
        let shown: String = given.chars().filter(|c| !c.is_control()).take(80).collect();
        bail!("--url takes host:port, like localhost:9898, or a URL like http://localhost:9898/healthz; got '{shown}'");
    };
    if url.path() == "/" {
        url.set_path("/healthz");
    }
    Ok(url)
}

/// The health check's address on this machine: `health.listen`, asked on the loopback
/// address when it listens on every address.
fn health_url(config: &Config) -> Result<reqwest::Url> {
    let Some(listen) = config.health.listen else {
        bail!("health.listen is not set, so the bot serves no health check; set it (like REFEREE_HEALTH_LISTEN=127.0.0.1:9898) or give --url");
    };
    let host = match listen.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    health_target(&std::net::SocketAddr::new(host, listen.port()).to_string())
}

/// The bot token from `DISCORD_TOKEN`, without the spaces or line end a copy may bring around
/// it; one with a space or line break inside is refused, saying so.
fn discord_token() -> Result<String> {
    let token = std::env::var("DISCORD_TOKEN").unwrap_or_default();
    let token = token.trim();
    if token.is_empty() {
        bail!("DISCORD_TOKEN is not set; put the bot token from the Discord Developer Portal in it (see README.md)");
    }
    if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
        bail!("DISCORD_TOKEN has a space or line break inside it; copy the token again from the Discord Developer Portal (Bot > Reset Token), on one line");
    }
    Ok(token.to_string())
}

async fn run(cli: Cli, config: Config) -> Result<()> {
    match cli.command {
        Command::Run {
            db,
            shards,
            shard_ids,
        } => {
            let token = discord_token()?;
            let mut discord = config.discord.clone();
            if shards.is_some() || shard_ids.is_some() {
                // Each option overrides its own setting; the other setting stays.
                let held = discord.shards;
                let total = shards.unwrap_or(i64::from(held.total));
                let ids = shard_ids.unwrap_or_else(|| match held.all() {
                    true => String::new(),
                    false => format!("{}..{}", held.first, held.last),
                });
                discord.shards = config::read_shards(total, &ids, ("--shards", "--shard-ids"))?;
            }
            let service = service(&config, db.as_deref().map(sqlite_url), Access::Play)
                .await?
                .running_since(chrono::Utc::now());
            let mut store_settings = config.store.clone();
            if let Some(db) = &db {
                store_settings.url = sqlite_url(db);
            }
            if service.store().dialect() == referee::store::Dialect::Sqlite {
                tokio::spawn(referee::backup::keep_rotating(
                    service.clone(),
                    store_settings,
                    config.table.clone(),
                    config.backups.clone(),
                ));
            }
            referee::discord::run(service, discord, &config.health, &token, config.tick).await?;
        }
        Command::Script {
            file,
            db,
            pictures,
            start,
        } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read the transcript {}", file.display()))?;
            let start = chrono::DateTime::parse_from_rfc3339(&start)
                .with_context(|| {
                    format!("--start takes a UTC time like 2026-01-01T00:00:00Z; got '{start}'")
                })?
                .with_timezone(&chrono::Utc);
            let url = db
                .as_deref()
                .map(sqlite_url)
                .unwrap_or_else(|| "sqlite::memory:".to_string());
            let service = service(&config, Some(url), Access::Play).await?;
            let stdout = std::io::stdout();
            let mut runner = Runner::new(
                service.clone(),
                Clock::Manual(start),
                config.admins.clone(),
                pictures,
                stdout.lock(),
            );
            runner.start().await?;
            for (index, line) in text.lines().enumerate() {
                runner.line(line, index + 1).await?;
            }
            service.store().close().await;
        }
        Command::Local { db, pictures } => {
            let service = service(&config, db.as_deref().map(sqlite_url), Access::Play)
                .await?
                .running_since(chrono::Utc::now());
            // A database fault (a full disk) names the file it happened in.
            let file = db.or_else(|| referee::store::sqlite_file(&config.store.url));
            let named = |error: referee::local::RunError| -> anyhow::Error {
                match (error, &file) {
                    (referee::local::RunError::Store(error), Some(file)) => {
                        error.naming(file).into()
                    }
                    (error, _) => error.into(),
                }
            };
            let stdout = std::io::stdout();
            let mut runner = Runner::new(
                service,
                Clock::Real(chrono::Duration::zero()),
                config.admins.clone(),
                Some(pictures),
                stdout.lock(),
            );
            runner.start().await.map_err(named)?;
            eprintln!("referee: type lines like `alice #game: !new tag`, `bob dm: bid 5`, `clock +1h`; Ctrl-D ends.");
            let (lines_tx, mut lines_rx) = tokio::sync::mpsc::channel::<String>(16);
            std::thread::spawn(move || {
                for line in std::io::stdin().lock().lines().map_while(Result::ok) {
                    if lines_tx.blocking_send(line).is_err() {
                        break;
                    }
                }
            });
            let mut tick =
                tokio::time::interval(config.tick.max(std::time::Duration::from_millis(100)));
            let mut number = 0;
            loop {
                tokio::select! {
                    line = lines_rx.recv() => match line {
                        Some(line) => {
                            number += 1;
                            if let Err(error) = runner.line(&line, number).await {
                                match error {
                                    referee::local::RunError::Line(error) => eprintln!("referee: {error}"),
                                    other => return Err(named(other)),
                                }
                            }
                        }
                        None => break,
                    },
                    _ = tick.tick() => runner.tick().await.map_err(named)?,
                }
            }
            std::io::stdout().flush()?;
        }
        Command::Backup { file, db } => {
            let mut store_settings = config.store.clone();
            if let Some(db) = &db {
                store_settings.url = sqlite_url(db);
            }
            if store_settings.url.starts_with("postgres") {
                return Err(referee::store::StoreError::NoBackup.into());
            }
            referee::backup::can_go_to(&file)?;
            let store = Store::open_read_only(&store_settings).await?;
            let made =
                referee::backup::back_up(&store, &store_settings, &config.table, &file).await;
            store.close().await;
            let made = made?;
            println!(
                "{}: {} bytes, SQLite's integrity check passed, {} replay to their logs.",
                made.path.display(),
                made.bytes,
                referee::games::count(made.games, "game")
            );
        }
        Command::Replay { game, db } => {
            let service = service(&config, db.as_deref().map(sqlite_url), Access::Read).await?;
            let report = replay(&service, game).await?;
            if report.matches() {
                let reworded = match report.reworded_since {
                    Some(revision) => format!(
                        " (opened under rules revision {revision}: texts reworded since are compared by kind, not wording)"
                    ),
                    None => String::new(),
                };
                print_tolerating_closed_pipe(&format!(
                    "game #{} ({}): replayed {} inputs; all {} events, {} receipts and the final state match the log{reworded}\n",
                    report.game, report.rules, report.inputs, report.events, report.receipts
                ))?;
            } else {
                let said: String = report
                    .differences
                    .iter()
                    .map(|difference| format!("game #{}: {difference}\n", report.game))
                    .collect();
                print_tolerating_closed_pipe(&said)?;
                let count = match report.differences.len() {
                    1 => "1 difference".to_string(),
                    n => format!("{n} differences"),
                };
                bail!("game #{} does not replay to its log ({count})", report.game);
            }
        }
        Command::Ratings { rebuild: _, db } => {
            let service = service(&config, db.as_deref().map(sqlite_url), Access::Existing).await?;
            let started = std::time::Instant::now();
            let rebuilt = service.rebuild_ratings().await?;
            for (game, why) in &rebuilt.unreadable {
                eprintln!("game #{game} left out: {why}");
            }
            print_tolerating_closed_pipe(&format!(
                "replayed {} finished games in {:.1} s: {} rated, {} ratings written{}\n",
                rebuilt.games,
                started.elapsed().as_secs_f64(),
                rebuilt.rated,
                rebuilt.ratings,
                match rebuilt.unreadable.len() {
                    0 => String::new(),
                    n => format!(", {n} left out (above)"),
                }
            ))?;
            service.store().close().await;
        }
        Command::Health { url } => {
            let url = match url {
                Some(given) => health_target(&given)?,
                None => health_url(&config)?,
            };
            let asked = reqwest::Client::builder()
                .timeout(HEALTH_WAIT)
                .build()?
                .get(url.clone())
                .send()
                .await;
            let answer = match asked {
                Ok(answer) => answer,
                Err(error) if error.is_timeout() => bail!(
                    "{url} did not answer within {} seconds; the bot may be stuck",
                    HEALTH_WAIT.as_secs()
                ),
                Err(_) => bail!("nothing answers at {url}; is `referee run` running, with health.listen at that address?"),
            };
            let status = answer.status();
            print_tolerating_closed_pipe(&answer.text().await.unwrap_or_default())?;
            if !status.is_success() {
                bail!("the bot is not well ({status} from {url})");
            }
        }
        Command::Solve { file, budget } => {
            let limit = solve_budget(&budget).with_context(|| {
                format!("--budget {budget} is not a time such as 500ms, 5s, 2m or 1h")
            })?;
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read the position {}", file.display()))?;
            let position =
                referee::games::short_circuit::Position::parse(&text).with_context(|| {
                    format!("{} is not a position in the text format", file.display())
                })?;
            let answer = solve_within_time(position, limit).unwrap_or_else(|| {
                format!("undecided: the solver did not settle this position within {budget}\n")
            });
            print_tolerating_closed_pipe(&format!("{answer}\n"))?;
        }
        Command::Export { game, db, secret } => {
            let service = service(&config, db.as_deref().map(sqlite_url), Access::Read).await?;
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            // A reader that stopped reading (`referee export 1 | head -c 100`) is not an error.
            match export(&service, game, secret, &mut out)
                .await
                .and_then(|()| out.flush().map_err(AuditError::from))
            {
                Err(AuditError::Write(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
                }
                done => done?,
            }
        }
        Command::Audit { game, db, html } => {
            let service = service(&config, db.as_deref().map(sqlite_url), Access::Read).await?;
            let page = audit_page(&service, game).await?;
            std::fs::write(&html, page)
                .with_context(|| format!("cannot write the audit page to {}", html.display()))?;
            print_tolerating_closed_pipe(&format!(
                "game #{game}: the audit page is {}\n",
                html.display()
            ))?;
        }
    }
    Ok(())
}
