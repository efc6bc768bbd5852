//! Messages kept aside until the table can take them in the order sent: what reached its
//! handler before a new session's collector was in place, what the collector saw while that
//! session's catch-up had not yet read back what came before it, what the catch-up read back,
//! and what a catch-up could not apply yet. Each is kept with the shard it came on, so a
//! catch-up takes its own shard's.
//!
//! While a session's catch-up plans (which places may hold missed messages), everything its
//! collector sees is kept aside. Once planned, the messages kept aside leave in the order
//! sent, each once what it may depend on is read back ([`Awaited`]) and nothing sent before
//! it that it is bound to ([`Bond`]: the same games, the same sender) is still kept. A live
//! message goes to the table's queue at once when it awaits nothing and is bound to nothing
//! kept, so games whose places were read back go on while the catch-up reads the others.

use super::Place;
use poise::serenity_prelude as serenity;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A message kept aside: where it was posted, and the shard it came on.
pub(super) type Kept = (serenity::Message, Place, u32);

/// Where a message's order is kept, and what a catch-up reads back: a server channel or
/// thread, or one person's direct messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Source {
    /// A channel or thread of a server, by id.
    Channel(u64),
    /// The direct messages of the user with this id.
    Person(u64),
}

impl Source {
    /// Where `message`, posted at `place`, belongs.
    pub(super) fn of(message: &serenity::Message, (in_server, _): Place) -> Source {
        match in_server || message.guild_id.is_some() {
            true => Source::Channel(message.channel_id.get()),
            false => Source::Person(message.author.id.get()),
        }
    }
}

/// What a message kept aside during a catch-up waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Awaited {
    /// Its place, read back.
    Source(Source),
    /// Its server's channels, listed.
    Server(u64),
    /// Every server's channels listed, and the channels without a game found there read
    /// back: a direct message may concern a game opened in one of them.
    Servers,
}

/// What binds two messages kept aside, so the later waits for the earlier: the group of games
/// their places belong to (the games tied by a channel or a player), or their sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Bond {
    /// A group of games, by its index in the catch-up's plan.
    Group(usize),
    /// A place in no planned group (a channel without a game, a stranger's DMs).
    Place(Source),
    /// The sender, by user id.
    Sender(u64),
}

/// The messages kept aside, by id (the order sent), and the shards whose new session is
/// still opening.
#[derive(Default)]
pub(super) struct KeptAside(Mutex<Inner>);

#[derive(Default)]
struct Inner {
    messages: BTreeMap<u64, Kept>,
    /// The shards whose session is opening: which session, and its plan (`None` while its
    /// catch-up plans).
    opening: HashMap<u32, (u64, Option<Plan>)>,
    /// The number of the last session opened.
    sessions: u64,
}

/// An opening session of a shard, as its catch-up names it: a session that another one
/// replaced (a new READY while the catch-up ran) changes nothing any more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Session {
    /// The shard.
    pub(super) shard: u32,
    id: u64,
}

/// What an opening session's catch-up has still to read back.
#[derive(Default)]
struct Plan {
    /// The group of games of each planned place.
    groups: HashMap<Source, usize>,
    /// The places not read back yet.
    pending: HashSet<Source>,
    /// The servers whose channels are not listed yet.
    servers: HashSet<u64>,
    /// The channels without a game found in listed servers, not read back yet.
    quiet: HashSet<Source>,
}

impl Plan {
    /// What `kept` waits for, if anything.
    fn awaited(&self, kept: &Kept) -> Option<Awaited> {
        let source = source_of(kept);
        if self.pending.contains(&source) {
            return Some(Awaited::Source(source));
        }
        match (source, server_of(kept)) {
            (Source::Channel(_), Some(server)) if self.servers.contains(&server) => {
                Some(Awaited::Server(server))
            }
            (Source::Person(_), _) if !self.servers.is_empty() || !self.quiet.is_empty() => {
                Some(Awaited::Servers)
            }
            _ => None,
        }
    }

    /// What binds `kept` to other messages.
    fn bonds(&self, kept: &Kept) -> [Bond; 2] {
        let source = source_of(kept);
        let place = match self.groups.get(&source) {
            Some(group) => Bond::Group(*group),
            None => Bond::Place(source),
        };
        [place, Bond::Sender(kept.0.author.id.get())]
    }
}

/// The server of a kept message, where known.
fn server_of((message, (_, server), _): &Kept) -> Option<u64> {
    message.guild_id.map(|guild| guild.get()).or(*server)
}

fn source_of((message, place, _): &Kept) -> Source {
    Source::of(message, *place)
}

impl KeptAside {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `message`, which came on `shard`, aside.
    pub(super) fn keep(&self, message: serenity::Message, place: Place, shard: u32) {
        self.lock()
            .messages
            .insert(message.id.get(), (message, place, shard));
    }

    /// A new session begins on `shard`: until its catch-up has planned, what its collector
    /// sees is kept aside too, behind what reached the handlers before the collector did.
    pub(super) fn open(&self, shard: u32) -> Session {
        let mut inner = self.lock();
        inner.sessions += 1;
        let id = inner.sessions;
        inner.opening.insert(shard, (id, None));
        Session { shard, id }
    }

    /// Whether `session` is still its shard's opening session.
    pub(super) fn is_current(&self, session: Session) -> bool {
        self.lock().plan_of(session).is_some()
    }

    /// Keeps `message`, which `shard`'s collector saw, aside while that shard's session is
    /// opening and the message awaits something or is bound to a message kept (see [`Bond`]);
    /// `false` otherwise (the message goes to the table's queue).
    pub(super) fn keep_while_opening(
        &self,
        message: &serenity::Message,
        place: Place,
        shard: u32,
    ) -> bool {
        let mut inner = self.lock();
        let kept = (message.clone(), place, shard);
        let held = match inner.opening.get(&shard) {
            None => false,
            Some((_, None)) => true,
            Some((_, Some(plan))) => {
                let bonds = plan.bonds(&kept);
                plan.awaited(&kept).is_some()
                    || inner
                        .messages
                        .values()
                        .filter(|other| other.2 == shard)
                        .any(|other| plan.bonds(other).iter().any(|bond| bonds.contains(bond)))
            }
        };
        if held {
            inner.messages.insert(message.id.get(), kept);
        }
        held
    }

    /// `shard`'s catch-up has planned: it reads back the places of `groups` (each with the
    /// index of its group of games) and lists `servers`. Takes what may go now (see
    /// [`KeptAside::release`]).
    pub(super) fn planned(
        &self,
        session: Session,
        groups: HashMap<Source, usize>,
        servers: HashSet<u64>,
    ) -> Vec<Kept> {
        let mut inner = self.lock();
        let Some(plan) = inner.plan_of(session) else {
            return Vec::new();
        };
        *plan = Some(Plan {
            pending: groups.keys().copied().collect(),
            groups,
            servers,
            quiet: HashSet::new(),
        });
        inner.release(session.shard)
    }

    /// What the first message `shard` keeps aside waits for, if anything: where its
    /// catch-up goes next.
    pub(super) fn awaited(&self, shard: u32) -> Option<Awaited> {
        let inner = self.lock();
        let Some((_, Some(plan))) = inner.opening.get(&shard) else {
            return None;
        };
        inner
            .messages
            .values()
            .filter(|kept| kept.2 == shard)
            .find_map(|kept| plan.awaited(kept))
    }

    /// `shard`'s catch-up has read back `sources`, finding `read` there: those join what is
    /// kept (a copy kept as it arrived live is preferred to the history's, which may be edited
    /// since); takes what may go now.
    pub(super) fn settle(
        &self,
        session: Session,
        sources: &[Source],
        read: Vec<Kept>,
    ) -> Vec<Kept> {
        let mut inner = self.lock();
        let Some(Some(plan)) = inner.plan_of(session) else {
            return Vec::new();
        };
        for source in sources {
            plan.pending.remove(source);
            plan.quiet.remove(source);
        }
        for kept in read {
            inner.messages.entry(kept.0.id.get()).or_insert(kept);
        }
        inner.release(session.shard)
    }

    /// `shard`'s catch-up has listed `server`'s channels and reads back `found` among them;
    /// takes what may go now.
    pub(super) fn server_listed(
        &self,
        session: Session,
        server: u64,
        found: &[Source],
    ) -> Vec<Kept> {
        let mut inner = self.lock();
        let Some(Some(plan)) = inner.plan_of(session) else {
            return Vec::new();
        };
        plan.servers.remove(&server);
        plan.pending.extend(found.iter().copied());
        plan.quiet.extend(found.iter().copied());
        inner.release(session.shard)
    }

    /// Takes what `session`'s shard kept aside, in the order sent, and opens the session:
    /// what its collector sees from now on goes to the queue (where it waits behind the
    /// caller, who holds the table). Nothing for a session another replaced.
    pub(super) fn take_opened(&self, session: Session) -> Vec<Kept> {
        let mut inner = self.lock();
        if inner.plan_of(session).is_none() {
            return Vec::new();
        }
        inner.opening.remove(&session.shard);
        inner.take(|kept| kept.2 == session.shard)
    }

    /// Opens `session` if its catch-up did not (it failed before): what it kept stays for
    /// the ticker. `false` when another session replaced it (whose catch-up opens it).
    pub(super) fn opened(&self, session: Session) -> bool {
        let mut inner = self.lock();
        match inner.opening.get(&session.shard) {
            Some((id, _)) if *id != session.id => false,
            _ => {
                inner.opening.remove(&session.shard);
                true
            }
        }
    }

    /// Takes what every shard whose session is open kept aside, in the order sent.
    pub(super) fn take_open(&self) -> Vec<Kept> {
        let mut inner = self.lock();
        let opening: HashSet<u32> = inner.opening.keys().copied().collect();
        inner.take(|kept| !opening.contains(&kept.2))
    }
}

impl Inner {
    /// The plan of `session` (`None` inside while it plans), if it is its shard's opening
    /// session.
    fn plan_of(&mut self, session: Session) -> Option<&mut Option<Plan>> {
        match self.opening.get_mut(&session.shard) {
            Some((id, plan)) if *id == session.id => Some(plan),
            _ => None,
        }
    }

    /// Takes the messages `which` picks, in the order sent.
    fn take(&mut self, which: impl Fn(&Kept) -> bool) -> Vec<Kept> {
        let (taken, kept) = std::mem::take(&mut self.messages)
            .into_iter()
            .partition(|(_, kept)| which(kept));
        self.messages = kept;
        let taken: BTreeMap<u64, Kept> = taken;
        taken.into_values().collect()
    }

    /// Takes, in the order sent, the messages `shard` keeps aside that await nothing and are
    /// bound to no message before them still kept (none while its catch-up plans).
    fn release(&mut self, shard: u32) -> Vec<Kept> {
        let Some((_, Some(plan))) = self.opening.get(&shard) else {
            return Vec::new();
        };
        let mut blocked: HashSet<Bond> = HashSet::new();
        let mut free = Vec::new();
        for (id, kept) in self.messages.iter().filter(|(_, kept)| kept.2 == shard) {
            let bonds = plan.bonds(kept);
            if plan.awaited(kept).is_some() || bonds.iter().any(|bond| blocked.contains(bond)) {
                blocked.extend(bonds);
            } else {
                free.push(*id);
            }
        }
        free.iter()
            .filter_map(|id| self.messages.remove(id))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: u64) -> serenity::Message {
        let mut message = serenity::Message::default();
        message.id = serenity::MessageId::new(id);
        message
    }

    /// Message `id` typed in `channel` of `server`.
    fn in_channel(id: u64, channel: u64, server: u64) -> serenity::Message {
        let mut typed = message(id);
        typed.channel_id = serenity::ChannelId::new(channel);
        typed.guild_id = Some(serenity::GuildId::new(server));
        typed
    }

    /// Message `id` sent by DM by `user`.
    fn by_dm(id: u64, user: u64) -> serenity::Message {
        let mut sent = message(id);
        sent.channel_id = serenity::ChannelId::new(user + 1_000);
        sent.author.id = serenity::UserId::new(user);
        sent
    }

    fn ids(kept: &[Kept]) -> Vec<u64> {
        kept.iter()
            .map(|(message, _, _)| message.id.get())
            .collect()
    }

    #[test]
    fn an_opening_session_keeps_what_its_collector_sees_behind_what_came_before() {
        let kept = KeptAside::default();
        let place = (true, None);
        let session = kept.open(0);
        // Shard 0's collector sees 7 before the handler of 5, sent first, has run.
        assert!(kept.keep_while_opening(&message(7), place, 0));
        kept.keep(message(5), place, 0);
        // Shard 1 is open: its collector queues; a handler that ran late keeps its message.
        assert!(!kept.keep_while_opening(&message(6), place, 1));
        kept.keep(message(9), place, 1);
        // The ticker takes only what open shards kept.
        assert_eq!(ids(&kept.take_open()), [9]);
        // Shard 0's catch-up takes its own, in the order sent, and opens the session.
        assert_eq!(ids(&kept.take_opened(session)), [5, 7]);
        assert!(!kept.keep_while_opening(&message(8), place, 0));
        assert!(kept.take_open().is_empty());
    }

    #[test]
    fn a_session_whose_catch_up_failed_is_opened_and_its_messages_left_for_the_ticker() {
        let kept = KeptAside::default();
        let session = kept.open(2);
        assert!(kept.keep_while_opening(&message(3), (false, None), 2));
        assert!(kept.take_open().is_empty());
        assert!(kept.opened(session));
        assert_eq!(ids(&kept.take_open()), [3]);
    }

    #[test]
    fn once_planned_a_live_message_to_a_place_already_read_goes_to_the_queue() {
        let kept = KeptAside::default();
        let (game, other, server) = (10, 11, 1);
        let session = kept.open(0);
        // While the catch-up plans, everything is kept.
        assert!(kept.keep_while_opening(&in_channel(5, other, server), (true, None), 0));
        let pending = HashMap::from([(Source::Channel(game), 0)]);
        // Planned: the server is listed at once, and 5 (nothing to read before it) goes.
        assert!(kept
            .planned(session, pending, HashSet::from([server]))
            .is_empty());
        assert_eq!(kept.awaited(0), Some(Awaited::Server(server)));
        assert_eq!(ids(&kept.server_listed(session, server, &[])), [5]);
        // A message to the game still to be read back is kept, and so is what its sender says
        // after it anywhere; someone else in a third channel goes on.
        assert!(kept.keep_while_opening(&in_channel(7, game, server), (true, None), 0));
        assert!(kept.keep_while_opening(&in_channel(8, other, server), (true, None), 0));
        let mut stranger = in_channel(10, other + 1, server);
        stranger.author.id = serenity::UserId::new(77);
        assert!(!kept.keep_while_opening(&stranger, (true, None), 0));
        assert_eq!(
            kept.awaited(0),
            Some(Awaited::Source(Source::Channel(game)))
        );
        // Read back, with a message missed there (6) and the live 7 also in the history: in
        // the order sent, the live copy of 7 kept.
        let mut history_seven = in_channel(7, game, server);
        history_seven.content = "edited".to_string();
        let read = vec![
            (in_channel(6, game, server), (true, Some(server)), 0),
            (history_seven, (true, Some(server)), 0),
        ];
        let released = kept.settle(session, &[Source::Channel(game)], read);
        assert_eq!(ids(&released), [6, 7, 8]);
        assert_eq!(released[1].0.content, "");
        // Nothing left to wait for: live messages go to the queue.
        assert!(!kept.keep_while_opening(&in_channel(11, game, server), (true, None), 0));
        assert!(kept.take_opened(session).is_empty());
    }

    #[test]
    fn a_direct_message_waits_for_the_servers_and_the_new_channels_found_there() {
        let kept = KeptAside::default();
        let (fresh, server, gm) = (12, 1, 50);
        let session = kept.open(0);
        kept.planned(session, HashMap::new(), HashSet::from([server]));
        // The GM's seed by DM, sent right after a `!new` typed in a fresh channel while the
        // bot was away: it waits until that channel is read back.
        assert!(kept.keep_while_opening(&by_dm(20, gm), (false, None), 0));
        assert_eq!(kept.awaited(0), Some(Awaited::Servers));
        assert!(kept
            .server_listed(session, server, &[Source::Channel(fresh)])
            .is_empty());
        assert_eq!(kept.awaited(0), Some(Awaited::Servers));
        let new_game = (in_channel(19, fresh, server), (true, Some(server)), 0);
        let released = kept.settle(session, &[Source::Channel(fresh)], vec![new_game]);
        assert_eq!(ids(&released), [19, 20]);
        // A stranger's DM now goes to the queue.
        assert!(!kept.keep_while_opening(&by_dm(21, 60), (false, None), 0));
    }

    #[test]
    fn a_message_bound_to_one_still_kept_waits_even_when_its_own_place_is_read() {
        let kept = KeptAside::default();
        let (slow, quick, server) = (10, 20, 1);
        let groups = HashMap::from([(Source::Channel(slow), 0), (Source::Channel(quick), 1)]);
        let session = kept.open(0);
        kept.planned(session, groups, HashSet::from([server]));
        kept.server_listed(session, server, &[]);
        // Alice writes in the slow game, then in the quick one; bob in the quick one.
        let mut alice_slow = in_channel(5, slow, server);
        alice_slow.author.id = serenity::UserId::new(1);
        let mut alice_quick = in_channel(6, quick, server);
        alice_quick.author.id = serenity::UserId::new(1);
        let mut bob_quick = in_channel(7, quick, server);
        bob_quick.author.id = serenity::UserId::new(2);
        for message in [&alice_slow, &alice_quick, &bob_quick] {
            assert!(kept.keep_while_opening(message, (true, None), 0));
        }
        // The quick game is read: bob's message is bound to alice's there (same games), which
        // is bound to hers in the slow game (same sender): all wait.
        assert!(kept
            .settle(session, &[Source::Channel(quick)], Vec::new())
            .is_empty());
        let released = kept.settle(session, &[Source::Channel(slow)], Vec::new());
        assert_eq!(ids(&released), [5, 6, 7]);
    }

    #[test]
    fn a_session_replaced_while_its_catch_up_runs_changes_nothing() {
        let kept = KeptAside::default();
        let (game, server) = (10, 1);
        let first = kept.open(0);
        kept.planned(first, HashMap::new(), HashSet::from([server]));
        // A new READY: the first catch-up's steps no longer count.
        let second = kept.open(0);
        assert!(!kept.is_current(first));
        assert!(kept.keep_while_opening(&in_channel(5, game, server), (true, None), 0));
        let read = vec![(in_channel(4, game, server), (true, Some(server)), 0)];
        assert!(kept
            .settle(first, &[Source::Channel(game)], read)
            .is_empty());
        assert!(kept.take_opened(first).is_empty());
        assert!(!kept.opened(first));
        // The second plans and reads the game itself.
        let groups = HashMap::from([(Source::Channel(game), 0)]);
        kept.planned(second, groups, HashSet::new());
        let read = vec![(in_channel(4, game, server), (true, Some(server)), 0)];
        assert_eq!(
            ids(&kept.settle(second, &[Source::Channel(game)], read)),
            [4, 5]
        );
        assert!(kept.opened(second));
    }
}
