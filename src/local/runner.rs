//! The loop shared by `referee script` and `referee local`: lines in, the table applies them,
//! the outbox is printed (`#channel <- ...`, `dm user <- ...`) and pictures written to files.

use super::transcript::{parse_line, Line, LineError};
use crate::picture::png_from_svg;
use crate::store::StoreError;
use crate::table::{Audience, Envelope, Inbound, PendingWork, Played, Service, User};
use chrono::{DateTime, Utc};
use std::io::Write;
use std::path::PathBuf;
use thiserror::Error;

/// The most rounds of work beside the table after one input: enough for a table of computers
/// to play a long game to its end, few enough that a fault cannot loop for ever.
const BESIDE_ROUNDS: usize = 20_000;

/// Why a run stopped.
#[derive(Debug, Error)]
pub enum RunError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A transcript line is malformed.
    #[error(transparent)]
    Line(#[from] LineError),
    /// Output or a picture file could not be written.
    #[error("could not write output: {0}")]
    Io(#[from] std::io::Error),
}

/// Where time comes from.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// A manual clock, moved only by `clock` lines (transcripts, tests).
    Manual(DateTime<Utc>),
    /// The real clock plus an offset that `clock +<duration>` lines add to.
    Real(chrono::Duration),
}

/// A console table: the service, its clock, and where output goes.
pub struct Runner<W: Write> {
    service: Service,
    clock: Clock,
    admins: Vec<String>,
    pictures: Option<PathBuf>,
    out: W,
    run_id: String,
}

impl<W: Write> Runner<W> {
    /// A runner writing to `out` and pictures and files to the folder `pictures` (`None`:
    /// drawn but not kept).
    pub fn new(
        service: Service,
        clock: Clock,
        admins: Vec<String>,
        pictures: Option<PathBuf>,
        out: W,
    ) -> Runner<W> {
        let run_id = crate::dice::Seed::random().to_hex()[..12].to_string();
        Runner {
            service,
            clock,
            admins,
            pictures,
            out,
            run_id,
        }
    }

    /// The current time on this runner's clock.
    pub fn now(&self) -> DateTime<Utc> {
        match self.clock {
            Clock::Manual(at) => at,
            Clock::Real(offset) => Utc::now()
                .checked_add_signed(offset)
                .unwrap_or(DateTime::<Utc>::MAX_UTC),
        }
    }

    /// Start-up: every overdue deadline resolves (once), what is waiting is delivered, and
    /// posts delivered longer ago than the retention setting lose their pictures.
    pub async fn start(&mut self) -> Result<(), RunError> {
        self.service.fire_due(self.now()).await?;
        self.deliver().await?;
        self.service.store().prune(self.now()).await?;
        Ok(())
    }

    /// Applies one transcript line (`number` names it in errors and message ids).
    pub async fn line(&mut self, text: &str, number: usize) -> Result<(), RunError> {
        let line = parse_line(text, number)?;
        let auto_id = format!("{}:{number}", self.run_id);
        match line {
            Line::Blank => {}
            Line::Advance(by) => {
                let beyond = || LineError {
                    line: number,
                    reason: "the clock cannot move past the end of the calendar".to_string(),
                };
                match self.clock {
                    Clock::Manual(at) => {
                        let target = at.checked_add_signed(by).ok_or_else(beyond)?;
                        self.advance_to(target).await?
                    }
                    Clock::Real(offset) => {
                        let offset = offset.checked_add(&by).ok_or_else(beyond)?;
                        self.clock = Clock::Real(offset);
                        self.service.fire_due(self.now()).await?;
                    }
                }
                self.service.store().prune(self.now()).await?;
            }
            Line::SetClock(at) => match self.clock {
                Clock::Manual(now) if at > now => self.advance_to(at).await?,
                Clock::Manual(_) => self.clock = Clock::Manual(at),
                Clock::Real(_) => self.clock = Clock::Real(at - Utc::now()),
            },
            Line::Channel {
                id,
                user,
                channel,
                server,
                text,
            } => {
                let inbound = Inbound::Channel {
                    channel,
                    admin: self.admins.contains(&user),
                    user: User::named(&user),
                    text,
                };
                let envelope = Envelope {
                    server,
                    ..Envelope::id(id.unwrap_or(auto_id))
                };
                self.handle(&envelope, inbound).await?;
            }
            Line::Direct { id, user, text } => {
                let inbound = Inbound::Direct {
                    user: User::named(&user),
                    text,
                };
                self.handle(&Envelope::id(id.unwrap_or(auto_id)), inbound)
                    .await?;
            }
        }
        self.deliver().await
    }

    /// Applies one message; a secret order typed in a channel is warned about (the console
    /// cannot take back what was typed).
    async fn handle(&mut self, envelope: &Envelope, inbound: Inbound) -> Result<(), RunError> {
        let now = self.now();
        let receipt = self.service.handle(envelope, &inbound, now).await?;
        if let (true, Inbound::Channel { channel, user, .. }) = (receipt.exposed_order, &inbound) {
            self.service
                .warn_exposed_order(channel, user, false, now)
                .await?;
        }
        Ok(())
    }

    /// Fires what is due on the real clock (the live console's tick).
    pub async fn tick(&mut self) -> Result<(), RunError> {
        self.service.fire_due(self.now()).await?;
        self.deliver().await
    }

    /// Moves a manual clock to `target`, firing every deadline on the way at its own time.
    async fn advance_to(&mut self, target: DateTime<Utc>) -> Result<(), RunError> {
        let mut after = None;
        while let Some(due) = self.service.store().next_due(after).await? {
            if due > target {
                break;
            }
            let now = due.max(self.now());
            self.clock = Clock::Manual(now);
            if self.service.fire_due(now).await? == 0 {
                // Only games whose rows do not read are due then: the others go on past it.
                after = Some(due);
            }
            self.deliver().await?;
        }
        self.clock = Clock::Manual(target);
        Ok(())
    }

    /// Runs the searches games asked for (Short Circuit's solver) and the moves computer seats
    /// owe, and applies their verdicts and decisions, and opens the private threads players
    /// are owed (a channel named after the game's and the player's, `#tag-bob`): at once, on
    /// the console, which has one game in view; a transcript thus reads the same whatever
    /// machine plays it.
    async fn work_beside(&mut self) -> Result<(), RunError> {
        for job in self.service.pending_work().await?.threads {
            let thread = format!("{}-{}", job.channel, job.user.name);
            self.service
                .thread_opened(job.game, &job.user.id, &thread, self.now())
                .await?;
        }
        // A verdict may leave another search asked, and a computer's move another move owed
        // (a table of computers plays on to its end): rounds until nothing is left to do.
        for _ in 0..BESIDE_ROUNDS {
            let PendingWork {
                searches, moves, ..
            } = self.service.pending_work().await?;
            let mut went_on = !searches.is_empty();
            for job in searches {
                let verdict = (job.work)();
                self.service
                    .apply_verdict(job.game, &job.key, verdict, self.now())
                    .await?;
            }
            for job in moves {
                let decision = (job.work)();
                let played = self
                    .service
                    .apply_move(&job.owed, decision, self.now())
                    .await?;
                went_on |= played == Played::Taken;
            }
            if !went_on {
                break;
            }
        }
        Ok(())
    }

    /// Does the work beside the table (searches, computer moves), then prints every
    /// undelivered outbox row, marked delivered a page at a time.
    pub async fn deliver(&mut self) -> Result<(), RunError> {
        self.work_beside().await?;
        let store = self.service.store().clone();
        let now = self.now();
        loop {
            let rows = store.pending(DateTime::<Utc>::MAX_UTC, 100).await?;
            if rows.is_empty() {
                return Ok(());
            }
            // Marked first, then printed: the write to disk is the slow part, so a console
            // killed meanwhile has most likely neither marked nor printed the page, and never
            // prints a post twice (at worst, a page cut off while printing is not printed again).
            let page: Vec<i64> = rows.iter().map(|row| row.id).collect();
            store.delivered_all(&page, now).await?;
            for row in rows {
                let to = match &row.audience {
                    Audience::Channel(channel) => format!("#{channel}"),
                    Audience::Direct(user) => format!("dm {user}"),
                };
                for text_line in super::times::readable(&row.body, now).lines() {
                    writeln!(self.out, "{to} <- {text_line}")?;
                }
                if let Some(file) = &row.file {
                    let kept = self.keep(&file.name, file.text.as_bytes())?;
                    writeln!(self.out, "{to} <- [file: {kept}]")?;
                }
                if let Some(svg) = &row.svg {
                    match png_from_svg(svg) {
                        Ok(png) => {
                            let kept = self.keep(&format!("picture-{:04}.png", row.id), &png)?;
                            writeln!(self.out, "{to} <- [picture: {kept}]")?;
                        }
                        Err(error) => writeln!(
                            self.out,
                            "{to} <- (the board picture could not be drawn: {error})"
                        )?,
                    }
                }
            }
            self.out.flush()?;
        }
    }

    /// Writes a picture or file into the pictures folder and says where; without a folder
    /// it is drawn but not kept, and says so.
    fn keep(&self, name: &str, bytes: &[u8]) -> Result<String, RunError> {
        match &self.pictures {
            Some(folder) => {
                std::fs::create_dir_all(folder)?;
                let path = folder.join(name);
                std::fs::write(&path, bytes)?;
                Ok(path.display().to_string())
            }
            None => Ok(format!("{name}, not kept (--pictures DIR keeps it)")),
        }
    }

    /// The output, for tests that collect it.
    pub fn into_output(self) -> W {
        self.out
    }
}
