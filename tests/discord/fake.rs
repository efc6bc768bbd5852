//! A Discord-compatible server on 127.0.0.1 for end-to-end tests: the gateway (HELLO,
//! IDENTIFY, READY, heartbeats, RESUME, dispatches pushed by the test) and the REST routes
//! the bot uses (current user, gateway discovery, channels, a server's channels, messages
//! with files and nonces, channel history, message deletion, DM channels, interaction
//! responses, application commands). It keeps every channel's history (what users said, whether the bot was
//! connected or not, and what the bot posted) and records what the bot did.
//!
//! Shards as Discord has them: each IDENTIFY names its shard (`[id, total]`) and gets a session
//! of its own; a server's events go to shard `(server id >> 22) % total`, direct messages to
//! shard 0. Every channel is in the server [`GUILD`] unless a test puts it in another.

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

#[path = "fake/threads.rs"]
mod threads;
#[allow(unused_imports)] // the benchmark that shares this server uses no threads
pub use threads::{Kind, Permission};

/// The bot's token the fake accepts.
pub const TOKEN: &str = "good-token";
/// The bot's user id.
pub const BOT_ID: u64 = 900;
/// The application id.
pub const APP_ID: u64 = 901;
/// The guild of the tests.
pub const GUILD: u64 = 800;
/// DM channels are the user's id plus this.
pub const DM_BASE: u64 = 1_000_000;

/// The user whose DM channel `channel` is (DM channels are `DM_BASE` plus a user id, well
/// below the snowflakes of threads and forums).
fn dm_user(channel: u64) -> Option<u64> {
    (DM_BASE..2 * DM_BASE)
        .contains(&channel)
        .then(|| channel - DM_BASE)
}
/// Discord's epoch (2015-01-01) in Unix milliseconds.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// One message the bot created.
#[derive(Clone)]
pub struct Posted {
    /// Its id.
    pub id: u64,
    /// The channel it went to.
    pub channel: u64,
    /// The user, when the channel is a DM channel.
    pub dm_user: Option<u64>,
    /// The text.
    pub content: String,
    /// The embeds, as sent.
    pub embeds: Vec<Value>,
    /// The component rows, as sent.
    pub components: Vec<Value>,
    /// Attached files: name and bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// The nonce it was sent with.
    pub nonce: Option<String>,
    /// When the fake created it.
    pub at: Instant,
}

impl std::fmt::Debug for Posted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files: Vec<(&str, usize)> = self
            .files
            .iter()
            .map(|(n, b)| (n.as_str(), b.len()))
            .collect();
        write!(
            f,
            "to {} (dm {:?}): {:?} embeds {} buttons {:?} files {:?}",
            self.channel,
            self.dm_user,
            self.text(),
            self.embeds.len(),
            self.buttons(),
            files
        )
    }
}

impl Posted {
    /// What a reader sees as text: the content and the embeds' titles and descriptions.
    pub fn text(&self) -> String {
        let mut text = self.content.clone();
        for embed in &self.embeds {
            for key in ["title", "description"] {
                if let Some(part) = embed[key].as_str() {
                    text.push('\n');
                    text.push_str(part);
                }
            }
        }
        text
    }

    /// The custom ids and labels of its buttons.
    pub fn buttons(&self) -> Vec<(String, String)> {
        self.components
            .iter()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .map(|b| {
                (
                    b["custom_id"].as_str().unwrap_or("").to_string(),
                    b["label"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }
}

/// One interaction response the bot sent.
#[derive(Clone, Debug)]
pub struct Callback {
    /// The interaction's id.
    pub interaction: u64,
    /// The response type (4: message, 6: acknowledged a button).
    pub kind: u64,
    /// The message text, if any.
    pub content: String,
    /// Whether only the user sees it.
    pub ephemeral: bool,
    /// Autocompletion choices offered: (name, value).
    pub choices: Vec<(String, String)>,
    /// The component rows, as sent.
    pub components: Vec<Value>,
    /// The embeds, as sent.
    pub embeds: Vec<Value>,
    /// The names of the files attached.
    pub files: Vec<String>,
}

#[derive(Default)]
struct Inner {
    posts: Mutex<Vec<Posted>>,
    /// Every channel's messages, oldest first, as Discord's JSON.
    history: Mutex<BTreeMap<u64, Vec<Value>>>,
    /// Messages the bot posted with `enforce_nonce`, by channel and nonce.
    nonces: Mutex<HashMap<(u64, String), Value>>,
    /// How many posts repeated a nonce and were answered with the message already made.
    deduplicated: AtomicUsize,
    callbacks: Mutex<Vec<Callback>>,
    /// Follow-up messages of interaction answers: (content, ephemeral).
    followups: Mutex<Vec<(String, bool)>>,
    /// Interaction callbacks refused because the interaction was answered already (40060).
    late_callbacks: AtomicUsize,
    /// The slash commands as the bot last registered them (options, types, required flags).
    commands: Mutex<Vec<Value>>,
    closed_dms: Mutex<HashSet<u64>>,
    forbidden: Mutex<HashSet<u64>>,
    /// Whether the bot lacks Manage Messages (deleting others' messages is refused).
    no_manage_messages: AtomicBool,
    deleted: Mutex<Vec<u64>>,
    /// The session of each shard the bot holds.
    gateways: Mutex<BTreeMap<u32, mpsc::UnboundedSender<String>>>,
    /// How many shards the bot said it has (at its last IDENTIFY).
    shard_count: AtomicU32,
    /// The server of each channel put in another than [`GUILD`].
    servers: Mutex<HashMap<u64, u64>>,
    /// Channels whose next post is accepted and never answered.
    stall_channels: Mutex<HashSet<u64>>,
    fail_next: AtomicUsize,
    fail_status: AtomicU16,
    /// The `retry_after` of refused posts, in milliseconds.
    retry_after_ms: AtomicU64,
    /// When each message post was attempted, refused ones included.
    post_attempts: Mutex<Vec<Instant>>,
    /// Posts to accept and then never answer (the bot dies waiting).
    stall_next: AtomicUsize,
    /// Posts with an embed to refuse as malformed (400, error 50035), as Discord refuses an
    /// embed beyond its limits.
    malformed_embeds: AtomicUsize,
    /// While set, an IDENTIFY gets no READY: the bot waits without a session.
    hold_sessions: AtomicBool,
    /// MESSAGE_CREATE payloads sent right behind the next READY or RESUMED, on the same
    /// connection, as a burst typed the instant the bot connects.
    after_session: Mutex<Vec<Value>>,
    /// How long registering the slash commands takes, in milliseconds (Discord's own API
    /// takes a few hundred).
    registration_ms: AtomicU64,
    /// The forums and threads the test made, by id.
    places: Mutex<HashMap<u64, threads::Place>>,
    /// What the bot may not do in the fake's servers.
    denied: Mutex<HashSet<threads::Permission>>,
    /// The gateway intents of the bot's last IDENTIFY: Discord sends only what they cover.
    intents: AtomicU64,
    /// How many forum posts to come are made but answered with a 502, as if the answer was
    /// lost on the way.
    lost_post_answers: AtomicUsize,
    /// The most REST requests answered a second (0: no limit): requests beyond it wait their
    /// turn, as behind a proxy that keeps Discord's global limit.
    pace: AtomicU64,
    /// When the next paced request may be answered.
    next_turn: Mutex<Option<Instant>>,
    /// Channels whose history is answered only after a wait, in milliseconds.
    slow_history: Mutex<HashMap<u64, u64>>,
    /// REST requests received, by kind (see [`request_kind`]).
    requests: Mutex<BTreeMap<&'static str, usize>>,
    refused: AtomicUsize,
    identifies: AtomicUsize,
    resumes: AtomicUsize,
    seq: AtomicU64,
    last_id: AtomicU64,
    addr: Mutex<String>,
}

impl Inner {
    /// A new snowflake: the current time in its high bits, always larger than the last one.
    fn snowflake(&self) -> u64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        let fresh = (now - DISCORD_EPOCH_MS) << 22;
        let mut last = self.last_id.load(Ordering::SeqCst);
        loop {
            let next = fresh.max(last + 1);
            match self
                .last_id
                .compare_exchange(last, next, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return next,
                Err(seen) => last = seen,
            }
        }
    }

    /// The server of a (non-DM) channel, forum or thread.
    fn server_of(&self, channel: u64) -> u64 {
        if let Some(place) = self.place(channel) {
            return place.guild;
        }
        self.servers
            .lock()
            .unwrap()
            .get(&channel)
            .copied()
            .unwrap_or(GUILD)
    }

    /// The shard a server's events go to.
    fn shard_of(&self, guild: u64) -> u32 {
        ((guild >> 22) % u64::from(self.shard_count.load(Ordering::SeqCst).max(1))) as u32
    }

    fn remember(&self, channel: u64, message: Value) {
        self.history
            .lock()
            .unwrap()
            .entry(channel)
            .or_default()
            .push(message);
    }
}

/// The running fake server.
#[derive(Clone)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
    /// `http://127.0.0.1:PORT`
    pub url: String,
}

impl FakeDiscord {
    /// Starts the server on a free port.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let inner = Arc::new(Inner::default());
        *inner.addr.lock().unwrap() = addr.to_string();
        let app = Router::new()
            .route("/gateway", get(gateway_socket))
            .route("/api/v10/gateway", get(gateway_url))
            .route("/api/v10/gateway/bot", get(gateway_url))
            .route("/api/v10/users/@me", get(current_user))
            .route("/api/v10/users/@me/channels", post(dm_channel))
            .route(
                "/api/v10/channels/:channel",
                get(get_channel)
                    .patch(threads::modify_channel)
                    .delete(threads::delete_channel),
            )
            .route(
                "/api/v10/channels/:channel/threads",
                post(threads::create_thread),
            )
            .route(
                "/api/v10/channels/:channel/thread-members/:user",
                put(threads::add_member),
            )
            .route(
                "/api/v10/guilds/:guild/threads/active",
                get(threads::active_threads),
            )
            .route("/api/v10/guilds/:guild/channels", get(guild_channels))
            .route(
                "/api/v10/channels/:channel/messages",
                post(create_message).get(channel_history),
            )
            .route(
                "/api/v10/channels/:channel/messages/:message",
                delete(delete_message),
            )
            .route(
                "/api/v10/interactions/:id/:token/callback",
                post(interaction_callback),
            )
            .route("/api/v10/webhooks/:app/:token", post(followup))
            .route("/api/v10/applications/:app/commands", put(set_commands))
            .route(
                "/api/v10/applications/:app/guilds/:guild/commands",
                put(set_commands),
            )
            .layer(axum::middleware::from_fn_with_state(inner.clone(), paced))
            .with_state(inner.clone());
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakeDiscord {
            inner,
            url: format!("http://{addr}"),
        }
    }

    /// Answers at most `per_second` REST requests a second from now on, each waiting its
    /// turn (0: no limit), as behind a proxy that keeps Discord's global limit.
    pub fn pace(&self, per_second: u64) {
        self.inner.pace.store(per_second, Ordering::SeqCst);
    }

    /// Answers every read of `channel`'s history only after `wait`.
    pub fn slow_history(&self, channel: u64, wait: Duration) {
        let millis = wait.as_millis() as u64;
        self.inner
            .slow_history
            .lock()
            .unwrap()
            .insert(channel, millis);
    }

    /// The REST requests received so far, by kind ("history", "post", "open dm", "list
    /// channels", "list threads", "other").
    pub fn requests(&self) -> BTreeMap<&'static str, usize> {
        self.inner.requests.lock().unwrap().clone()
    }

    /// Everything the bot posted so far (and Discord kept: deleted posts stay listed).
    pub fn posts(&self) -> Vec<Posted> {
        self.inner.posts.lock().unwrap().clone()
    }

    /// How many posts the bot made so far.
    pub fn post_count(&self) -> usize {
        self.inner.posts.lock().unwrap().len()
    }

    /// The posts after the first `skip` (what came since a count was taken).
    pub fn posts_after(&self, skip: usize) -> Vec<Posted> {
        self.inner
            .posts
            .lock()
            .unwrap()
            .iter()
            .skip(skip)
            .cloned()
            .collect()
    }

    /// Every interaction response so far.
    pub fn callbacks(&self) -> Vec<Callback> {
        self.inner.callbacks.lock().unwrap().clone()
    }

    /// Every follow-up message of an interaction's answer: (content, ephemeral).
    pub fn followups(&self) -> Vec<(String, bool)> {
        self.inner.followups.lock().unwrap().clone()
    }

    /// How many interaction responses came for an interaction answered already.
    pub fn late_callbacks(&self) -> usize {
        self.inner.late_callbacks.load(Ordering::SeqCst)
    }

    /// The names of the slash commands registered.
    pub fn commands(&self) -> Vec<String> {
        self.inner
            .commands
            .lock()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap_or("").to_string())
            .collect()
    }

    /// The registered definition of slash command `name`.
    pub fn command_definition(&self, name: &str) -> Value {
        self.inner
            .commands
            .lock()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// How many IDENTIFY and RESUME the gateway received.
    pub fn sessions(&self) -> (usize, usize) {
        (
            self.inner.identifies.load(Ordering::SeqCst),
            self.inner.resumes.load(Ordering::SeqCst),
        )
    }

    /// How many message posts were refused by `fail_next_posts`.
    pub fn refused(&self) -> usize {
        self.inner.refused.load(Ordering::SeqCst)
    }

    /// How many posts repeated a nonce and got the message already made.
    pub fn deduplicated(&self) -> usize {
        self.inner.deduplicated.load(Ordering::SeqCst)
    }

    /// When each message post was attempted (refused ones included), in order.
    pub fn post_attempts(&self) -> Vec<Instant> {
        self.inner.post_attempts.lock().unwrap().clone()
    }

    /// The ids of the messages the bot deleted.
    pub fn deleted(&self) -> Vec<u64> {
        self.inner.deleted.lock().unwrap().clone()
    }

    /// The next `n` message posts are refused with HTTP `status`: 429 (rate limited, with a
    /// retry-after of 0.1 s unless [`FakeDiscord::retry_after`] says otherwise) or a server
    /// error such as 502.
    pub fn fail_next_posts(&self, n: usize, status: u16) {
        self.inner.fail_status.store(status, Ordering::SeqCst);
        self.inner.fail_next.store(n, Ordering::SeqCst);
    }

    /// The wait a refused post's 429 names, in its body and its headers.
    pub fn retry_after(&self, wait: Duration) {
        self.inner
            .retry_after_ms
            .store(wait.as_millis() as u64, Ordering::SeqCst);
    }

    /// The next message post is created but never answered, as if the bot died before
    /// Discord's answer reached it.
    pub fn stall_next_post(&self) {
        self.inner.stall_next.store(1, Ordering::SeqCst);
    }

    /// The next `n` posts that carry an embed are refused as malformed (400, Discord error
    /// 50035), whatever the embed holds.
    pub fn refuse_embeds(&self, n: usize) {
        self.inner.malformed_embeds.store(n, Ordering::SeqCst);
    }

    /// Messages to this user's DM channel are refused with Discord error 50007.
    pub fn close_dms(&self, user: u64) {
        self.inner.closed_dms.lock().unwrap().insert(user);
    }

    /// Posts to this channel are refused with Discord error 50013 (missing permissions).
    pub fn forbid(&self, channel: u64) {
        self.inner.forbidden.lock().unwrap().insert(channel);
    }

    /// The bot lacks Manage Messages: deleting a user's message is refused (50013).
    pub fn deny_manage_messages(&self) {
        self.inner.no_manage_messages.store(true, Ordering::SeqCst);
    }

    /// A new snowflake (its time is now).
    pub fn id(&self) -> u64 {
        self.inner.snowflake()
    }

    /// Whether the bot holds a gateway session (on any shard).
    pub fn connected(&self) -> bool {
        !self.inner.gateways.lock().unwrap().is_empty()
    }

    /// The shards the bot holds a session on.
    pub fn shards(&self) -> Vec<u32> {
        self.inner
            .gateways
            .lock()
            .unwrap()
            .keys()
            .copied()
            .collect()
    }

    /// Puts `channel` in the server `guild` (every other channel is in [`GUILD`]).
    pub fn put_channel_in(&self, channel: u64, guild: u64) {
        self.inner.servers.lock().unwrap().insert(channel, guild);
    }

    /// The next post to `channel` is created but never answered, as if the bot that sent it
    /// died before Discord's answer reached it.
    pub fn stall_next_post_to(&self, channel: u64) {
        self.inner.stall_channels.lock().unwrap().insert(channel);
    }

    /// Waits until the bot's gateway session is ready (after IDENTIFY or RESUME).
    pub async fn wait_ready(&self) {
        self.wait("the gateway session", || {
            self.connected() && !self.commands().is_empty()
        })
        .await;
    }

    /// Waits until the bot's gateway session has ended.
    pub async fn wait_disconnected(&self) {
        self.wait("the gateway session to end", || !self.connected())
            .await;
    }

    /// Waits (up to 20 s) for `done`, failing the test with `what` otherwise.
    pub async fn wait(&self, what: &str, done: impl Fn() -> bool) {
        self.wait_for(what, Duration::from_secs(20), done).await;
    }

    /// Waits up to `limit` for `done`, failing the test with `what` otherwise.
    pub async fn wait_for(&self, what: &str, limit: Duration, done: impl Fn() -> bool) {
        let until = Instant::now() + limit;
        while Instant::now() < until {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("timed out waiting for {what}; posts: {:#?}", self.posts());
    }

    /// Waits for a post matching `pred` and returns it.
    pub async fn wait_post(&self, what: &str, pred: impl Fn(&Posted) -> bool) -> Posted {
        self.wait_for_post(what, Duration::from_secs(20), pred)
            .await
    }

    /// Waits for a post in `channel` that says `text` (the label a failure names).
    pub async fn wait_post_in(&self, channel: u64, text: &str) -> Posted {
        self.wait_post(text, |p| p.channel == channel && p.text().contains(text))
            .await
    }

    /// Waits for a direct message to `user` that says `text`.
    pub async fn wait_dm(&self, user: (u64, &str), text: &str) -> Posted {
        self.wait_post(text, |p| {
            p.dm_user == Some(user.0) && p.content.contains(text)
        })
        .await
    }

    /// Waits up to `limit` for a post matching `pred` and returns it.
    pub async fn wait_for_post(
        &self,
        what: &str,
        limit: Duration,
        pred: impl Fn(&Posted) -> bool,
    ) -> Posted {
        self.wait_for(what, limit, || self.posts().iter().any(&pred))
            .await;
        self.posts().into_iter().find(|p| pred(p)).unwrap()
    }

    /// Waits for an interaction response to `interaction`.
    pub async fn wait_callback(&self, interaction: u64) -> Callback {
        self.wait("an interaction response", || {
            self.callbacks()
                .iter()
                .any(|c| c.interaction == interaction)
        })
        .await;
        self.callbacks()
            .into_iter()
            .find(|c| c.interaction == interaction)
            .unwrap()
    }

    /// Sends a dispatch event over the session of the shard it belongs to: its server's, or
    /// shard 0 for a direct message (nothing when that shard is not connected: Discord does
    /// not keep events for a session that is gone).
    pub fn dispatch(&self, event: &str, data: Value) {
        let seq = self.inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let shard = data["guild_id"]
            .as_str()
            .and_then(|guild| guild.parse().ok())
            .map_or(0, |guild| self.inner.shard_of(guild));
        let intents = self.inner.intents.load(Ordering::SeqCst);
        if !threads::covered(intents, event, &data) {
            return;
        }
        let data = threads::readable(intents, event, data);
        let payload = json!({"op": 0, "t": event, "s": seq, "d": data});
        if let Some(gateway) = self.inner.gateways.lock().unwrap().get(&shard) {
            let _ = gateway.send(payload.to_string());
        }
    }

    /// Ends the bot's session for good (opcode 9, not resumable): the bot must IDENTIFY
    /// anew, and Discord keeps nothing of what happened meanwhile.
    pub fn invalidate_session(&self) {
        let gateways = std::mem::take(&mut *self.inner.gateways.lock().unwrap());
        for gateway in gateways.values() {
            let _ = gateway.send(json!({"op": 9, "d": false}).to_string());
        }
    }

    /// While `hold` is set, a new session is not granted (IDENTIFY gets no READY yet).
    pub fn hold_sessions(&self, hold: bool) {
        self.inner.hold_sessions.store(hold, Ordering::SeqCst);
    }

    /// Has each user type their text in `channel` the instant the bot's next session begins:
    /// the messages follow its READY (or RESUMED) on the same connection, before anything
    /// else can. Returns their ids, in the order sent.
    pub fn type_on_connect(&self, channel: u64, lines: &[((u64, &str), &str)]) -> Vec<u64> {
        let mut queued = self.inner.after_session.lock().unwrap();
        lines
            .iter()
            .map(|(user, text)| {
                let id = self.id();
                queued.push(self.message(id, *user, Some(channel), text));
                id
            })
            .collect()
    }

    /// The gateway intents of the bot's last IDENTIFY.
    pub fn intents(&self) -> u64 {
        self.inner.intents.load(Ordering::SeqCst)
    }

    /// Makes registering the slash commands take `wait`, as it does on Discord.
    pub fn slow_registration(&self, wait: Duration) {
        self.inner.registration_ms.store(
            u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
            Ordering::SeqCst,
        );
    }

    /// Asks the bot to reconnect (opcode 7), as Discord does before moving a session.
    pub fn ask_reconnect(&self) {
        let gateways = std::mem::take(&mut *self.inner.gateways.lock().unwrap());
        for gateway in gateways.values() {
            let _ = gateway.send(json!({"op": 7, "d": null}).to_string());
        }
    }

    /// A MESSAGE_CREATE payload from `user` in a guild channel (or a DM when `channel` is
    /// `None`), with message id `id`.
    pub fn message(&self, id: u64, user: (u64, &str), channel: Option<u64>, text: &str) -> Value {
        let channel_id = channel.unwrap_or(user.0 + DM_BASE);
        let mut message = message_json(id, channel_id, user_json(user.0, user.1, false), text);
        if let Some(channel) = channel {
            message["guild_id"] = json!(self.inner.server_of(channel).to_string());
            message["member"] = json!({"roles": [], "joined_at": "2025-01-01T00:00:00.000000+00:00", "deaf": false, "mute": false, "flags": 0});
        }
        message
    }

    /// Posts a message as `user` in `channel` (a DM to the bot when `None`): it goes into the
    /// channel's history and, when the bot is connected, to the bot as MESSAGE_CREATE.
    /// Returns its id.
    pub fn say(&self, user: (u64, &str), channel: Option<u64>, text: &str) -> u64 {
        let id = self.id();
        let message = self.message(id, user, channel, text);
        self.send_message(message);
        id
    }

    /// `user` edits their message `id` in `channel` (a DM to the bot when `None`) to `text`:
    /// the channel's history keeps the new text and the time of the edit (and only them, as
    /// Discord's does), and Discord sends MESSAGE_UPDATE with both when the bot is connected.
    pub fn edit(&self, id: u64, user: (u64, &str), channel: Option<u64>, text: &str) {
        let channel_id = channel.unwrap_or(user.0 + DM_BASE);
        let edited = timestamp(self.inner.snowflake());
        if let Some(kept) = self
            .inner
            .history
            .lock()
            .unwrap()
            .get_mut(&channel_id)
            .and_then(|messages| {
                messages
                    .iter_mut()
                    .find(|m| m["id"].as_str() == Some(&id.to_string()))
            })
        {
            kept["content"] = json!(text);
            kept["edited_timestamp"] = json!(edited);
        }
        let mut update = json!({
            "id": id.to_string(),
            "channel_id": channel_id.to_string(),
            "author": user_json(user.0, user.1, false),
            "content": text,
            "edited_timestamp": edited,
        });
        if let Some(channel) = channel {
            update["guild_id"] = json!(self.inner.server_of(channel).to_string());
        }
        self.dispatch("MESSAGE_UPDATE", update);
    }

    /// Puts `message` (a MESSAGE_CREATE payload) into its channel's history and dispatches it.
    pub fn send_message(&self, message: Value) {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let mut kept = message.clone();
        // The REST history has no guild_id or member: only gateway events carry them.
        kept.as_object_mut().unwrap().remove("guild_id");
        kept.as_object_mut().unwrap().remove("member");
        self.inner.remember(channel, kept);
        self.dispatch("MESSAGE_CREATE", message);
    }

    /// Runs a slash command as `user` in `channel` with string options; returns the
    /// interaction's id.
    pub fn slash(
        &self,
        user: (u64, &str),
        channel: u64,
        name: &str,
        options: &[(&str, &str)],
    ) -> u64 {
        let options: Vec<Value> = options
            .iter()
            .map(|(name, value)| json!({"name": name, "type": 3, "value": value}))
            .collect();
        self.slash_with(user, channel, name, options, json!({}))
    }

    /// Runs a slash command whose options are users (Discord's user option), as `user`.
    pub fn slash_users(
        &self,
        user: (u64, &str),
        channel: u64,
        name: &str,
        options: &[(&str, (u64, &str))],
    ) -> u64 {
        let values: Vec<Value> = options
            .iter()
            .map(|(name, who)| json!({"name": name, "type": 6, "value": who.0.to_string()}))
            .collect();
        let users: serde_json::Map<String, Value> = options
            .iter()
            .map(|(_, who)| (who.0.to_string(), user_json(who.0, who.1, false)))
            .collect();
        self.slash_with(user, channel, name, values, json!({"users": users}))
    }

    /// A slash command with the options (and resolved objects) as Discord sends them (any
    /// type and value, as a client that disagrees with the registered command would send
    /// them).
    pub fn slash_with(
        &self,
        user: (u64, &str),
        channel: u64,
        name: &str,
        options: Vec<Value>,
        resolved: Value,
    ) -> u64 {
        let interaction = self.slash_payload(user, channel, name, options, resolved);
        let id = interaction["id"].as_str().unwrap().parse().unwrap();
        self.dispatch("INTERACTION_CREATE", interaction);
        id
    }

    /// The INTERACTION_CREATE payload of a slash command (to send twice, say).
    pub fn slash_payload(
        &self,
        user: (u64, &str),
        channel: u64,
        name: &str,
        options: Vec<Value>,
        resolved: Value,
    ) -> Value {
        let id = self.id();
        let mut interaction = self.interaction_base(id, user, channel);
        interaction["type"] = json!(2);
        interaction["data"] = json!({"id": self.id().to_string(), "name": name, "type": 1, "options": options, "resolved": resolved});
        interaction
    }

    /// Types `partial` into option `option` of slash command `name` as `user` (Discord asks
    /// the bot for autocompletion); returns the interaction's id.
    pub fn autocomplete(
        &self,
        user: (u64, &str),
        channel: u64,
        name: &str,
        option: &str,
        partial: &str,
    ) -> u64 {
        let id = self.id();
        let mut interaction = self.interaction_base(id, user, channel);
        interaction["type"] = json!(4);
        interaction["data"] = json!({"id": self.id().to_string(), "name": name, "type": 1,
            "options": [{"name": option, "type": 3, "value": partial, "focused": true}]});
        self.dispatch("INTERACTION_CREATE", interaction);
        id
    }

    /// Presses a button of `post` (by custom id) as `user`; returns the interaction's id.
    pub fn press(&self, user: (u64, &str), post: &Posted, custom_id: &str) -> u64 {
        let interaction = self.press_payload(user, post, custom_id);
        let id = interaction["id"].as_str().unwrap().parse().unwrap();
        self.dispatch("INTERACTION_CREATE", interaction);
        id
    }

    /// The INTERACTION_CREATE payload of a button press (to send twice, say).
    pub fn press_payload(&self, user: (u64, &str), post: &Posted, custom_id: &str) -> Value {
        let id = self.id();
        let mut interaction = self.interaction_base(id, user, post.channel);
        if post.dm_user.is_some() {
            interaction.as_object_mut().unwrap().remove("guild_id");
            interaction.as_object_mut().unwrap().remove("member");
            interaction["user"] = user_json(user.0, user.1, false);
        }
        interaction["type"] = json!(3);
        interaction["data"] = json!({"custom_id": custom_id, "component_type": 2});
        let mut message = self.message(
            post.id,
            (BOT_ID, "referee"),
            Some(post.channel),
            &post.content,
        );
        message["author"]["bot"] = json!(true);
        interaction["message"] = message;
        interaction
    }

    fn interaction_base(&self, id: u64, user: (u64, &str), channel: u64) -> Value {
        json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "guild_id": self.inner.server_of(channel).to_string(),
            "channel_id": channel.to_string(),
            "member": {
                "user": user_json(user.0, user.1, false),
                "roles": [],
                "joined_at": "2025-01-01T00:00:00.000000+00:00",
                "deaf": false,
                "mute": false,
                "flags": 0,
                "permissions": "0"
            },
            "token": format!("token-{id}"),
            "version": 1,
            "app_permissions": "0",
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "context": 0,
            "attachment_size_limit": 10485760
        })
    }
}

fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({"id": id.to_string(), "username": name, "discriminator": "0", "global_name": name, "avatar": null, "bot": bot})
}

/// The creation time of a snowflake, as Discord writes message timestamps.
fn timestamp(id: u64) -> String {
    let millis = (id >> 22) + DISCORD_EPOCH_MS;
    let seconds = millis / 1000;
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        millis % 1000
    )
}

fn message_json(id: u64, channel: u64, author: Value, content: &str) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": author,
        "content": content,
        "timestamp": timestamp(id),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0
    })
}

/// A request's JSON payload, sent as JSON or as a form with files (`payload_json`), and the
/// files.
async fn payload_of(request: Request) -> (Value, Vec<(String, Vec<u8>)>) {
    let multipart = request
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/"));
    let mut files = Vec::new();
    let payload: Value = if multipart {
        let mut form = Multipart::from_request(request, &()).await.unwrap();
        let mut payload = Value::Null;
        while let Some(field) = form.next_field().await.unwrap() {
            let name = field.name().unwrap_or("").to_string();
            let file_name = field.file_name().map(str::to_string);
            let bytes = field.bytes().await.unwrap();
            if name == "payload_json" {
                payload = serde_json::from_slice(&bytes).unwrap();
            } else {
                files.push((file_name.unwrap_or(name), bytes.to_vec()));
            }
        }
        payload
    } else {
        let bytes = Bytes::from_request(request, &()).await.unwrap();
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    };
    (payload, files)
}

fn discord_error(status: StatusCode, code: u64, message: &str) -> Response {
    (status, Json(json!({"code": code, "message": message}))).into_response()
}

async fn gateway_url(State(inner): State<Arc<Inner>>) -> Json<Value> {
    let addr = inner.addr.lock().unwrap().clone();
    Json(json!({
        "url": format!("ws://{addr}/gateway"),
        "shards": 1,
        "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    }))
}

async fn current_user(headers: HeaderMap) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth != format!("Bot {TOKEN}") {
        return discord_error(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized");
    }
    Json(json!({"id": BOT_ID.to_string(), "username": "referee", "discriminator": "0", "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0}))
        .into_response()
}

/// GET a channel: a server's text channel, forum or thread, or a user's DM channel.
async fn get_channel(State(inner): State<Arc<Inner>>, Path(channel): Path<u64>) -> Response {
    if let Some(user) = dm_user(channel) {
        return Json(json!({
            "id": channel.to_string(),
            "type": 1,
            "last_message_id": null,
            "recipients": [user_json(user, &format!("user{user}"), false)]
        }))
        .into_response();
    }
    if let Some(place) = inner.place(channel) {
        if place.deleted {
            return discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
        }
        return Json(inner.place_json(channel, &place)).into_response();
    }
    Json(json!({
        "id": channel.to_string(),
        "type": 0,
        "guild_id": inner.server_of(channel).to_string(),
        "name": format!("channel-{channel}"),
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false
    }))
    .into_response()
}

/// The text channels of a server that hold any message, each with its last message's id.
async fn guild_channels(State(inner): State<Arc<Inner>>, Path(guild): Path<u64>) -> Json<Value> {
    let mut by_server = inner.channels_by_server();
    Json(Value::Array(by_server.remove(&guild).unwrap_or_default()))
}

impl Inner {
    /// The text channels of every server that hold any message, as Discord lists them, by
    /// server.
    fn channels_by_server(&self) -> HashMap<u64, Vec<Value>> {
        let history = self.history.lock().unwrap();
        let mut by_server: HashMap<u64, Vec<Value>> = HashMap::new();
        // Threads are not a server's channels (Discord lists them apart).
        let channels = history
            .iter()
            .filter(|(channel, _)| dm_user(**channel).is_none() && self.place(**channel).is_none());
        for (channel, messages) in channels {
            let guild = self.server_of(*channel);
            by_server.entry(guild).or_default().push(json!({
                    "id": channel.to_string(),
                    "type": 0,
                    "guild_id": guild.to_string(),
                    "name": format!("channel-{channel}"),
                    "position": 0,
                    "permission_overwrites": [],
                    "nsfw": false,
                "last_message_id": messages.last().map(|message| message["id"].clone()),
            }));
        }
        by_server
    }

    /// The GUILD_CREATE Discord sends for `guild` after READY: the server with its
    /// `channels` and active threads.
    fn guild_create(&self, guild: u64, channels: Vec<Value>) -> Value {
        json!({
            "id": guild.to_string(),
            "name": format!("server-{guild}"),
            "owner_id": "1",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [],
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": false,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "large": false,
            "unavailable": false,
            "member_count": 1,
            "voice_states": [],
            "members": [],
            "channels": channels,
            "threads": threads::active_of(self, guild),
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        })
    }
}

/// What kind of request the fake counts a REST call as.
fn request_kind(method: &axum::http::Method, path: &str) -> &'static str {
    let get = method == axum::http::Method::GET;
    match () {
        _ if path.ends_with("/messages") && get => "history",
        _ if path.ends_with("/messages") => "post",
        _ if path.ends_with("/users/@me/channels") => "open dm",
        _ if path.contains("/guilds/") && path.ends_with("/channels") => "list channels",
        _ if path.ends_with("/threads/active") => "list threads",
        _ => "other",
    }
}

/// Counts every REST request and, when a pace is set, answers it only at its turn.
async fn paced(
    State(inner): State<Arc<Inner>>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let path = request.uri().path().to_string();
    if path.starts_with("/api/") {
        let kind = request_kind(request.method(), &path);
        *inner.requests.lock().unwrap().entry(kind).or_default() += 1;
        let pace = inner.pace.load(Ordering::SeqCst);
        if pace > 0 {
            let gap = Duration::from_secs_f64(1.0 / pace as f64);
            let turn = {
                let mut next_turn = inner.next_turn.lock().unwrap();
                let now = Instant::now();
                let turn = next_turn.map_or(now, |at| at.max(now));
                *next_turn = Some(turn + gap);
                turn
            };
            tokio::time::sleep_until(turn.into()).await;
        }
    }
    next.run(request).await
}

/// Opens (or finds) a user's DM channel: Discord's answer says its last message too.
async fn dm_channel(State(inner): State<Arc<Inner>>, Json(body): Json<Value>) -> Json<Value> {
    let user: u64 = body["recipient_id"]
        .as_str()
        .map(|s| s.parse().unwrap())
        .or_else(|| body["recipient_id"].as_u64())
        .unwrap();
    let last = inner
        .history
        .lock()
        .unwrap()
        .get(&(user + DM_BASE))
        .and_then(|messages| messages.last().map(|message| message["id"].clone()));
    Json(json!({
        "id": (user + DM_BASE).to_string(),
        "type": 1,
        "last_message_id": last,
        "recipients": [user_json(user, &format!("user{user}"), false)]
    }))
}

/// GET messages: those after `after`, at most `limit`, newest first (as Discord answers).
async fn channel_history(
    State(inner): State<Arc<Inner>>,
    Path(channel): Path<u64>,
    Query(query): Query<HashMap<String, String>>,
) -> Json<Value> {
    let slow = inner.slow_history.lock().unwrap().get(&channel).copied();
    if let Some(wait) = slow {
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
    let after: u64 = query.get("after").and_then(|a| a.parse().ok()).unwrap_or(0);
    let limit: usize = query
        .get("limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(50)
        .min(100);
    let history = inner.history.lock().unwrap();
    let mut page: Vec<Value> = history
        .get(&channel)
        .map(|messages| {
            messages
                .iter()
                .filter(|m| m["id"].as_str().unwrap().parse::<u64>().unwrap() > after)
                .take(limit)
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    page.reverse();
    Json(Value::Array(page))
}

async fn delete_message(
    State(inner): State<Arc<Inner>>,
    Path((channel, message)): Path<(u64, u64)>,
) -> Response {
    if inner.no_manage_messages.load(Ordering::SeqCst) {
        return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
    }
    if let Some(messages) = inner.history.lock().unwrap().get_mut(&channel) {
        messages.retain(|m| m["id"].as_str() != Some(&message.to_string()));
    }
    inner.deleted.lock().unwrap().push(message);
    StatusCode::NO_CONTENT.into_response()
}

async fn create_message(
    State(inner): State<Arc<Inner>>,
    Path(channel): Path<u64>,
    request: Request,
) -> Response {
    inner.post_attempts.lock().unwrap().push(Instant::now());
    if let Some(refusal) = inner.refuses_posts(channel) {
        return refusal;
    }
    let dm_user = dm_user(channel);
    if let Some(user) = dm_user {
        if inner.closed_dms.lock().unwrap().contains(&user) {
            return discord_error(
                StatusCode::FORBIDDEN,
                50007,
                "Cannot send messages to this user",
            );
        }
    }
    if inner.forbidden.lock().unwrap().contains(&channel) {
        return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
    }
    if inner
        .fail_next
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
    {
        inner.refused.fetch_add(1, Ordering::SeqCst);
        let status = StatusCode::from_u16(inner.fail_status.load(Ordering::SeqCst))
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if status == StatusCode::TOO_MANY_REQUESTS {
            let wait = match inner.retry_after_ms.load(Ordering::SeqCst) {
                0 => 0.1,
                ms => ms as f64 / 1000.0,
            };
            return (
                status,
                [
                    ("retry-after", format!("{}", wait.ceil() as u64)),
                    ("x-ratelimit-reset-after", format!("{wait:.3}")),
                    ("x-ratelimit-scope", "user".to_string()),
                ],
                Json(json!({"code": 0, "message": "You are being rate limited.", "retry_after": wait, "global": false})),
            )
                .into_response();
        }
        let reason = status.canonical_reason().unwrap_or("Server Error");
        return (status, Json(json!({"code": 0, "message": reason}))).into_response();
    }
    let (payload, files) = payload_of(request).await;
    let nonce = payload["nonce"].as_str().map(str::to_string);
    if let (Some(nonce), true) = (&nonce, payload["enforce_nonce"] == json!(true)) {
        let made = inner
            .nonces
            .lock()
            .unwrap()
            .get(&(channel, nonce.clone()))
            .cloned();
        if let Some(made) = made {
            inner.deduplicated.fetch_add(1, Ordering::SeqCst);
            return Json(made).into_response();
        }
    }
    let has_embed = payload["embeds"]
        .as_array()
        .is_some_and(|embeds| !embeds.is_empty());
    let refuse_embed = has_embed
        && inner
            .malformed_embeds
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
    if refuse_embed {
        return discord_error(
            StatusCode::BAD_REQUEST,
            50035,
            "Invalid Form Body: embeds.0: refused",
        );
    }
    if let Some(broken) = beyond_limits(&payload) {
        return discord_error(
            StatusCode::BAD_REQUEST,
            50035,
            &format!("Invalid Form Body: {broken}"),
        );
    }
    let content = payload["content"].as_str().unwrap_or("").to_string();
    let id = inner.snowflake();
    let message = message_json(id, channel, user_json(BOT_ID, "referee", true), &content);
    inner.posts.lock().unwrap().push(Posted {
        id,
        channel,
        dm_user,
        content: content.clone(),
        embeds: payload["embeds"].as_array().cloned().unwrap_or_default(),
        components: payload["components"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
        files,
        nonce: nonce.clone(),
        at: Instant::now(),
    });
    inner.remember(channel, message.clone());
    if let (Some(nonce), true) = (nonce, payload["enforce_nonce"] == json!(true)) {
        inner
            .nonces
            .lock()
            .unwrap()
            .insert((channel, nonce), message.clone());
    }
    let stall_here = inner.stall_channels.lock().unwrap().remove(&channel);
    if stall_here
        || inner
            .stall_next
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    {
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
    Json(message).into_response()
}

/// Which of Discord's limits on a message `payload` breaks, as Discord refuses it (400,
/// error 50035): 2,000 characters of text; per embed 256 for the title and each field's
/// name, 4,096 for the description, 1,024 for a field's value, 25 fields and 6,000 in all;
/// 80 characters a button's label.
fn beyond_limits(payload: &Value) -> Option<String> {
    let chars = |value: &Value| value.as_str().map_or(0, |text| text.chars().count());
    if chars(&payload["content"]) > 2000 {
        return Some("content: Must be 2000 or fewer in length.".to_string());
    }
    for (index, embed) in payload["embeds"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        let title = chars(&embed["title"]);
        let description = chars(&embed["description"]);
        if title > 256 {
            return Some(format!(
                "embeds.{index}.title: Must be 256 or fewer in length."
            ));
        }
        if description > 4096 {
            return Some(format!(
                "embeds.{index}.description: Must be 4096 or fewer in length."
            ));
        }
        if fields.len() > 25 {
            return Some(format!(
                "embeds.{index}.fields: Must be 25 or fewer in length."
            ));
        }
        let mut total = title + description;
        for (at, field) in fields.iter().enumerate() {
            let (name, value) = (chars(&field["name"]), chars(&field["value"]));
            if name > 256 || value > 1024 {
                return Some(format!(
                    "embeds.{index}.fields.{at}: Must be 256 (name) and 1024 (value) or fewer in length."
                ));
            }
            total += name + value;
        }
        if total > 6000 {
            return Some(format!(
                "embeds.{index}: Embed size exceeds maximum size of 6000"
            ));
        }
    }
    let labels = payload["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default());
    for button in labels {
        if chars(&button["label"]) > 80 {
            return Some("components: a label must be 80 or fewer in length.".to_string());
        }
    }
    None
}

/// A follow-up message after an interaction's first answer (a long private answer in parts).
async fn followup(
    State(inner): State<Arc<Inner>>,
    Path((_app, _token)): Path<(u64, String)>,
    body: Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let content = body["content"].as_str().unwrap_or("").to_string();
    let ephemeral = body["flags"].as_u64().unwrap_or(0) & 64 != 0;
    inner
        .followups
        .lock()
        .unwrap()
        .push((content.clone(), ephemeral));
    let id = inner.snowflake();
    // The interaction's channel does not matter to the bot; any valid id does.
    Json(message_json(
        id,
        1,
        user_json(BOT_ID, "referee", true),
        &content,
    ))
    .into_response()
}

async fn interaction_callback(
    State(inner): State<Arc<Inner>>,
    Path((id, _token)): Path<(u64, String)>,
    request: Request,
) -> Response {
    let (body, files) = payload_of(request).await;
    let mut callbacks = inner.callbacks.lock().unwrap();
    if callbacks.iter().any(|c| c.interaction == id) {
        inner.late_callbacks.fetch_add(1, Ordering::SeqCst);
        return discord_error(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        );
    }
    let flags = body["data"]["flags"].as_u64().unwrap_or(0);
    callbacks.push(Callback {
        interaction: id,
        kind: body["type"].as_u64().unwrap_or(0),
        content: body["data"]["content"].as_str().unwrap_or("").to_string(),
        ephemeral: flags & 64 != 0,
        choices: body["data"]["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_string(),
                    c["value"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect(),
        components: body["data"]["components"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
        embeds: body["data"]["embeds"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
        files: files.into_iter().map(|(name, _)| name).collect(),
    });
    StatusCode::NO_CONTENT.into_response()
}

async fn set_commands(State(inner): State<Arc<Inner>>, Json(body): Json<Value>) -> Json<Value> {
    let wait = inner.registration_ms.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(wait)).await;
    *inner.commands.lock().unwrap() = body.as_array().cloned().unwrap_or_default();
    Json(json!([]))
}

async fn gateway_socket(ws: WebSocketUpgrade, State(inner): State<Arc<Inner>>) -> Response {
    ws.on_upgrade(move |socket| session(socket, inner))
}

async fn session(socket: WebSocket, inner: Arc<Inner>) {
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    run_session(socket, &inner, &tx, rx).await;
    // The session is gone: events for it go nowhere (Discord does not keep them).
    inner
        .gateways
        .lock()
        .unwrap()
        .retain(|_, current| !current.same_channel(&tx));
}

async fn run_session(
    mut socket: WebSocket,
    inner: &Inner,
    tx: &mpsc::UnboundedSender<String>,
    mut rx: mpsc::UnboundedReceiver<String>,
) {
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}});
    if socket.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    // The shard this connection speaks for, from its IDENTIFY or RESUME.
    let mut shard = 0;
    loop {
        tokio::select! {
            outgoing = rx.recv() => match outgoing {
                Some(text) => {
                    let reconnect = text.contains("\"op\":7") || text.contains("\"op\":9");
                    if socket.send(Message::Text(text)).await.is_err() || reconnect {
                        let _ = socket.close().await;
                        return;
                    }
                }
                None => return,
            },
            incoming = socket.recv() => {
                let Some(Ok(message)) = incoming else { return };
                let text = match message {
                    Message::Text(text) => text,
                    Message::Close(_) => return,
                    _ => continue,
                };
                let payload: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                let seq = inner.seq.load(Ordering::SeqCst);
                let reply = match payload["op"].as_u64() {
                    Some(1) => Some(json!({"op": 11, "d": null})),
                    Some(2) => {
                        while inner.hold_sessions.load(Ordering::SeqCst) {
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                        inner.identifies.fetch_add(1, Ordering::SeqCst);
                        threads::note_intents(inner, &payload);
                        let named = &payload["d"]["shard"];
                        shard = named[0].as_u64().unwrap_or(0) as u32;
                        let total = named[1].as_u64().unwrap_or(1).max(1) as u32;
                        inner.shard_count.store(total, Ordering::SeqCst);
                        let mut guilds: Vec<u64> =
                            inner.servers.lock().unwrap().values().copied().collect();
                        guilds.push(GUILD);
                        guilds.sort_unstable();
                        guilds.dedup();
                        let guilds: Vec<Value> = guilds
                            .into_iter()
                            .filter(|guild| inner.shard_of(*guild) == shard)
                            .map(|guild| json!({"id": guild.to_string(), "unavailable": true}))
                            .collect();
                        let addr = inner.addr.lock().unwrap().clone();
                        let seq = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                        Some(json!({"op": 0, "t": "READY", "s": seq, "d": {
                            "v": 10,
                            "user": {"id": BOT_ID.to_string(), "username": "referee", "discriminator": "0", "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0},
                            "guilds": guilds,
                            "session_id": format!("session-{shard}"),
                            "resume_gateway_url": format!("ws://{addr}/gateway"),
                            "shard": [shard, total],
                            "application": {"id": APP_ID.to_string(), "flags": 0}
                        }}))
                    }
                    Some(6) => {
                        inner.resumes.fetch_add(1, Ordering::SeqCst);
                        shard = payload["d"]["session_id"]
                            .as_str()
                            .and_then(|id| id.strip_prefix("session-"))
                            .and_then(|id| id.parse().ok())
                            .unwrap_or(0);
                        Some(json!({"op": 0, "t": "RESUMED", "s": seq, "d": {}}))
                    }
                    _ => None,
                };
                if let Some(reply) = reply {
                    let op = reply["t"].as_str().map(str::to_string);
                    if socket.send(Message::Text(reply.to_string())).await.is_err() {
                        return;
                    }
                    if op.as_deref() == Some("READY") {
                        let mut by_server = inner.channels_by_server();
                        for guild in reply["d"]["guilds"].as_array().into_iter().flatten() {
                            let guild: u64 = guild["id"].as_str().unwrap().parse().unwrap();
                            let channels = by_server.remove(&guild).unwrap_or_default();
                            let seq = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                            let created = inner.guild_create(guild, channels);
                            let payload = json!({"op": 0, "t": "GUILD_CREATE", "s": seq, "d": created});
                            if socket.send(Message::Text(payload.to_string())).await.is_err() {
                                return;
                            }
                        }
                    }
                    if matches!(op.as_deref(), Some("READY") | Some("RESUMED")) {
                        inner.gateways.lock().unwrap().insert(shard, tx.clone());
                        let burst = std::mem::take(&mut *inner.after_session.lock().unwrap());
                        for message in burst {
                            let channel: u64 =
                                message["channel_id"].as_str().unwrap().parse().unwrap();
                            let mut kept = message.clone();
                            kept.as_object_mut().unwrap().remove("guild_id");
                            kept.as_object_mut().unwrap().remove("member");
                            inner.remember(channel, kept);
                            let intents = inner.intents.load(Ordering::SeqCst);
                            if !threads::covered(intents, "MESSAGE_CREATE", &message) {
                                continue;
                            }
                            let message = threads::readable(intents, "MESSAGE_CREATE", message);
                            let seq = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                            let payload =
                                json!({"op": 0, "t": "MESSAGE_CREATE", "s": seq, "d": message});
                            if socket.send(Message::Text(payload.to_string())).await.is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}
