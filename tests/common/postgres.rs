//! A fresh PostgreSQL database for one test, on the server `TEST_POSTGRES_URL` names
//! (`.ci/run` starts one): created with a unique name, so tests run in parallel, and dropped
//! when the test is done with it. Without the variable the PostgreSQL variants of the tests
//! are skipped, and a line on the terminal says so.

use sqlx::{Connection, Executor, PgConnection};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

/// The variable naming the test server: a URL of a database the tests may connect to in
/// order to create their own, like `postgres://postgres@127.0.0.1:5433/postgres`.
pub const SERVER: &str = "TEST_POSTGRES_URL";

static NEXT: AtomicUsize = AtomicUsize::new(0);
static SKIPPED: Once = Once::new();

/// A test's own database; dropped (with any connection still open to it) when this goes.
pub struct TestDatabase {
    server: String,
    name: String,
    /// The database's URL.
    pub url: String,
}

/// Says once per test program, where the person running the tests sees it (past the test
/// harness's capture of `println!`), that its PostgreSQL variants did not run.
fn skipped() {
    SKIPPED.call_once(|| {
        let program = std::env::args().next().unwrap_or_default();
        let program = std::path::Path::new(&program)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let program = program.rsplit_once('-').map_or(program.as_str(), |(name, _)| name);
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: the PostgreSQL variants of the tests in {program}, because {SERVER} is not set (.ci/run starts a server and sets it)"
        );
    });
}

/// A fresh database, or `None` (and a line saying the PostgreSQL variants are skipped) when
/// no test server is set.
pub async fn fresh() -> Option<TestDatabase> {
    let Ok(server) = std::env::var(SERVER) else {
        skipped();
        return None;
    };
    let name = format!(
        "referee_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    let mut admin = PgConnection::connect(&server)
        .await
        .unwrap_or_else(|error| panic!("{SERVER}={server} cannot be reached: {error}"));
    admin
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .unwrap();
    let _ = admin.close().await;
    let url = with_database(&server, &name);
    Some(TestDatabase { server, name, url })
}

/// `server` with its database replaced by `name`.
fn with_database(server: &str, name: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (server, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |at| at + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |at| scheme_end + at);
    format!("{}/{name}{query}", &base[..host_end])
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let server = self.server.clone();
        let name = self.name.clone();
        // A runtime of its own on a thread of its own: this may run inside a test's runtime.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                if let Ok(mut admin) = PgConnection::connect(&server).await {
                    let _ = admin
                        .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                        .await;
                    let _ = admin.close().await;
                }
            });
        });
        let _ = dropped.join();
    }
}
