//! A PostgreSQL server of one test's own, in a temporary folder on a free local port, which
//! the test may stop and start again (the shared server of `TEST_POSTGRES_URL` serves tests
//! running side by side, so none may stop it). It runs from Debian's `postgresql` binaries
//! (`.ci/run` installs them), as the `postgres` user when the tests run as root; without
//! the binaries, or without `TEST_POSTGRES_URL` (the sign that the machine has a server for
//! tests), the test is skipped and says so.

use std::path::PathBuf;
use std::process::Command;

/// A running (or stopped) server of one test; stopped and removed when this goes.
pub struct PrivateServer {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    as_postgres: bool,
}

impl PrivateServer {
    /// A new server, started; `None` (and a line saying why) where the machine has no
    /// PostgreSQL for tests.
    pub fn start() -> Option<PrivateServer> {
        if std::env::var("TEST_POSTGRES_URL").is_err() {
            eprintln!("SKIPPED: a test with a PostgreSQL server of its own, because TEST_POSTGRES_URL is not set (.ci/run sets it)");
            return None;
        }
        let mut bins: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .flatten()
            .map(|entry| entry.path().join("bin"))
            .filter(|bin| bin.join("initdb").exists())
            .collect();
        bins.sort();
        let bin = bins.pop()?;
        let dir = tempfile::tempdir().unwrap();
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0");
        if as_postgres {
            let owned = Command::new("chown")
                .args(["postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(owned.success());
        }
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let server = PrivateServer {
            bin,
            dir,
            port,
            as_postgres,
        };
        let data = server.data();
        server.run(
            "initdb",
            &["-D", &data, "-U", "postgres", "-A", "trust", "--no-sync"],
        );
        server.resume();
        Some(server)
    }

    /// The URL of its `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server at once (its connections are cut).
    pub fn stop(&self) {
        self.run(
            "pg_ctl",
            &["-D", &self.data(), "-m", "immediate", "-w", "stop"],
        );
    }

    /// Starts the server (again), on the same port, and waits until it takes connections.
    pub fn resume(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log").display().to_string();
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-l",
                &log,
                "-w",
                "-o",
                &options,
                "start",
            ],
        );
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = match self.as_postgres {
            true => {
                let mut command = Command::new("runuser");
                command.args(["-u", "postgres", "--"]).arg(&path);
                command
            }
            false => Command::new(&path),
        };
        let output = command.args(args).output().unwrap();
        assert!(
            output.status.success(),
            "{program} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for PrivateServer {
    fn drop(&mut self) {
        let path = self.bin.join("pg_ctl");
        let data = self.data();
        let args = ["-D", data.as_str(), "-m", "immediate", "stop"];
        let _ = match self.as_postgres {
            true => Command::new("runuser")
                .args(["-u", "postgres", "--"])
                .arg(&path)
                .args(args)
                .output(),
            false => Command::new(&path).args(args).output(),
        };
    }
}
