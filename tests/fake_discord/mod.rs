//! A Discord-compatible server on 127.0.0.1 for end-to-end tests: the gateway (HELLO,
//! IDENTIFY, READY, heartbeats, RESUME, dispatches pushed by the test) and the REST routes
//! the bot uses (current user, gateway discovery, messages with files, DM channels,
//! interaction responses, application commands). It records what the bot posts.

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

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

/// One message the bot created.
#[derive(Clone)]
pub struct Posted {
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
}

#[derive(Default)]
struct Inner {
    posts: Mutex<Vec<Posted>>,
    callbacks: Mutex<Vec<Callback>>,
    commands: Mutex<Vec<String>>,
    closed_dms: Mutex<HashSet<u64>>,
    forbidden: Mutex<HashSet<u64>>,
    gateway: Mutex<Option<mpsc::UnboundedSender<String>>>,
    fail_next: AtomicUsize,
    fail_status: AtomicU16,
    refused: AtomicUsize,
    identifies: AtomicUsize,
    resumes: AtomicUsize,
    seq: AtomicU64,
    next_id: AtomicU64,
    addr: Mutex<String>,
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
        let inner = Arc::new(Inner {
            next_id: AtomicU64::new(5_000_000),
            ..Default::default()
        });
        *inner.addr.lock().unwrap() = addr.to_string();
        let app = Router::new()
            .route("/gateway", get(gateway_socket))
            .route("/api/v10/gateway", get(gateway_url))
            .route("/api/v10/gateway/bot", get(gateway_url))
            .route("/api/v10/users/@me", get(current_user))
            .route("/api/v10/users/@me/channels", post(dm_channel))
            .route("/api/v10/channels/:channel/messages", post(create_message))
            .route(
                "/api/v10/interactions/:id/:token/callback",
                post(interaction_callback),
            )
            .route("/api/v10/applications/:app/commands", put(set_commands))
            .route(
                "/api/v10/applications/:app/guilds/:guild/commands",
                put(set_commands),
            )
            .with_state(inner.clone());
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakeDiscord {
            inner,
            url: format!("http://{addr}"),
        }
    }

    /// Everything the bot posted so far.
    pub fn posts(&self) -> Vec<Posted> {
        self.inner.posts.lock().unwrap().clone()
    }

    /// Every interaction response so far.
    pub fn callbacks(&self) -> Vec<Callback> {
        self.inner.callbacks.lock().unwrap().clone()
    }

    /// The slash commands registered.
    pub fn commands(&self) -> Vec<String> {
        self.inner.commands.lock().unwrap().clone()
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

    /// The next `n` message posts are refused with HTTP `status`: 429 (rate limited, with a
    /// retry-after of 0.1 s) or a server error such as 502.
    pub fn fail_next_posts(&self, n: usize, status: u16) {
        self.inner.fail_status.store(status, Ordering::SeqCst);
        self.inner.fail_next.store(n, Ordering::SeqCst);
    }

    /// Messages to this user's DM channel are refused with Discord error 50007.
    pub fn close_dms(&self, user: u64) {
        self.inner.closed_dms.lock().unwrap().insert(user);
    }

    /// Posts to this channel are refused with Discord error 50013 (missing permissions).
    pub fn forbid(&self, channel: u64) {
        self.inner.forbidden.lock().unwrap().insert(channel);
    }

    /// A new snowflake.
    pub fn id(&self) -> u64 {
        self.inner.next_id.fetch_add(1, Ordering::SeqCst)
    }

    /// Waits until the bot's gateway session is ready (after IDENTIFY or RESUME).
    pub async fn wait_ready(&self) {
        self.wait("the gateway session", || {
            self.inner.gateway.lock().unwrap().is_some() && !self.commands().is_empty()
        })
        .await;
    }

    /// Waits (up to 20 s) for `done`, failing the test with `what` otherwise.
    pub async fn wait(&self, what: &str, done: impl Fn() -> bool) {
        for _ in 0..400 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for {what}; posts: {:#?}", self.posts());
    }

    /// Waits for a post matching `pred` and returns it.
    pub async fn wait_post(&self, what: &str, pred: impl Fn(&Posted) -> bool) -> Posted {
        self.wait(what, || self.posts().iter().any(&pred)).await;
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

    /// Sends a dispatch event over the current gateway session.
    pub fn dispatch(&self, event: &str, data: Value) {
        let seq = self.inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let payload = json!({"op": 0, "t": event, "s": seq, "d": data});
        let gateway = self.inner.gateway.lock().unwrap();
        gateway
            .as_ref()
            .expect("no gateway session")
            .send(payload.to_string())
            .unwrap();
    }

    /// Asks the bot to reconnect (opcode 7), as Discord does before moving a session.
    pub fn ask_reconnect(&self) {
        let gateway = self.inner.gateway.lock().unwrap().take();
        if let Some(gateway) = gateway {
            let _ = gateway.send(json!({"op": 7, "d": null}).to_string());
        }
    }

    /// A MESSAGE_CREATE payload from `user` in a guild channel (or a DM when `channel` is
    /// `None`), with message id `id`.
    pub fn message(&self, id: u64, user: (u64, &str), channel: Option<u64>, text: &str) -> Value {
        let channel_id = channel.unwrap_or(user.0 + DM_BASE);
        let mut message = message_json(id, channel_id, user_json(user.0, user.1, false), text);
        if channel.is_some() {
            message["guild_id"] = json!(GUILD.to_string());
            message["member"] = json!({"roles": [], "joined_at": "2025-01-01T00:00:00.000000+00:00", "deaf": false, "mute": false, "flags": 0});
        }
        message
    }

    /// Posts a message as `user` (the gateway's MESSAGE_CREATE) and returns its id.
    pub fn say(&self, user: (u64, &str), channel: Option<u64>, text: &str) -> u64 {
        let id = self.id();
        self.dispatch("MESSAGE_CREATE", self.message(id, user, channel, text));
        id
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
        self.slash_with(user, channel, name, options)
    }

    /// Like [`FakeDiscord::slash`] with the options as Discord sends them (any type and
    /// value, as a client that disagrees with the registered command would send them).
    pub fn slash_with(
        &self,
        user: (u64, &str),
        channel: u64,
        name: &str,
        options: Vec<Value>,
    ) -> u64 {
        let id = self.id();
        let mut interaction = self.interaction_base(id, user, channel);
        interaction["type"] = json!(2);
        interaction["data"] =
            json!({"id": self.id().to_string(), "name": name, "type": 1, "options": options});
        self.dispatch("INTERACTION_CREATE", interaction);
        id
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
            self.id(),
            (BOT_ID, "referee"),
            Some(post.channel),
            &post.content,
        );
        message["author"]["bot"] = json!(true);
        interaction["message"] = message;
        self.dispatch("INTERACTION_CREATE", interaction);
        id
    }

    fn interaction_base(&self, id: u64, user: (u64, &str), channel: u64) -> Value {
        json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "guild_id": GUILD.to_string(),
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

fn message_json(id: u64, channel: u64, author: Value, content: &str) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": author,
        "content": content,
        "timestamp": "2026-01-01T00:00:00.000000+00:00",
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

async fn dm_channel(Json(body): Json<Value>) -> Json<Value> {
    let user: u64 = body["recipient_id"]
        .as_str()
        .map(|s| s.parse().unwrap())
        .or_else(|| body["recipient_id"].as_u64())
        .unwrap();
    Json(json!({
        "id": (user + DM_BASE).to_string(),
        "type": 1,
        "last_message_id": null,
        "recipients": [user_json(user, &format!("user{user}"), false)]
    }))
}

async fn create_message(
    State(inner): State<Arc<Inner>>,
    Path(channel): Path<u64>,
    request: Request,
) -> Response {
    let dm_user = (channel >= DM_BASE).then(|| channel - DM_BASE);
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
            return (
                status,
                [("retry-after", "0.1")],
                Json(json!({"code": 0, "message": "You are being rate limited.", "retry_after": 0.1, "global": false})),
            )
                .into_response();
        }
        let reason = status.canonical_reason().unwrap_or("Server Error");
        return (status, Json(json!({"code": 0, "message": reason}))).into_response();
    }
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
        serde_json::from_slice(&bytes).unwrap()
    };
    let content = payload["content"].as_str().unwrap_or("").to_string();
    inner.posts.lock().unwrap().push(Posted {
        channel,
        dm_user,
        content: content.clone(),
        embeds: payload["embeds"].as_array().cloned().unwrap_or_default(),
        components: payload["components"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
        files,
    });
    let id = inner.next_id.fetch_add(1, Ordering::SeqCst);
    Json(message_json(
        id,
        channel,
        user_json(BOT_ID, "referee", true),
        &content,
    ))
    .into_response()
}

async fn interaction_callback(
    State(inner): State<Arc<Inner>>,
    Path((id, _token)): Path<(u64, String)>,
    body: Bytes,
) -> StatusCode {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let flags = body["data"]["flags"].as_u64().unwrap_or(0);
    inner.callbacks.lock().unwrap().push(Callback {
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
    });
    StatusCode::NO_CONTENT
}

async fn set_commands(State(inner): State<Arc<Inner>>, Json(body): Json<Value>) -> Json<Value> {
    let names: Vec<String> = body
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|c| c["name"].as_str().unwrap_or("").to_string())
        .collect();
    *inner.commands.lock().unwrap() = names;
    Json(json!([]))
}

async fn gateway_socket(ws: WebSocketUpgrade, State(inner): State<Arc<Inner>>) -> Response {
    ws.on_upgrade(move |socket| session(socket, inner))
}

async fn session(mut socket: WebSocket, inner: Arc<Inner>) {
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}});
    if socket.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    loop {
        tokio::select! {
            outgoing = rx.recv() => match outgoing {
                Some(text) => {
                    let reconnect = text.contains("\"op\":7");
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
                        inner.identifies.fetch_add(1, Ordering::SeqCst);
                        let addr = inner.addr.lock().unwrap().clone();
                        let seq = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                        Some(json!({"op": 0, "t": "READY", "s": seq, "d": {
                            "v": 10,
                            "user": {"id": BOT_ID.to_string(), "username": "referee", "discriminator": "0", "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0},
                            "guilds": [{"id": GUILD.to_string(), "unavailable": true}],
                            "session_id": "session-1",
                            "resume_gateway_url": format!("ws://{addr}/gateway"),
                            "shard": [0, 1],
                            "application": {"id": APP_ID.to_string(), "flags": 0}
                        }}))
                    }
                    Some(6) => {
                        inner.resumes.fetch_add(1, Ordering::SeqCst);
                        Some(json!({"op": 0, "t": "RESUMED", "s": seq, "d": {}}))
                    }
                    _ => None,
                };
                if let Some(reply) = reply {
                    let op = reply["t"].as_str().map(str::to_string);
                    if socket.send(Message::Text(reply.to_string())).await.is_err() {
                        return;
                    }
                    if matches!(op.as_deref(), Some("READY") | Some("RESUMED")) {
                        *inner.gateway.lock().unwrap() = Some(tx.clone());
                    }
                }
            }
        }
    }
}
