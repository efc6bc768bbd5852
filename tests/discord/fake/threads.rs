//! Threads and forums as Discord has them: a thread is a channel with a parent (a text
//! channel, or a forum whose every post is a thread), public or private (its members only);
//! Discord archives a thread nobody wrote in for a while, and a post in an archived one is
//! refused until it is reopened (a locked one only a moderator reopens). A forum takes no
//! plain message: a post is a new thread with its first message, and carries tags from the
//! forum's list. The routes here answer for them; the test drives what users and moderators
//! do (open, archive, lock, delete) and reads back what the bot did.

use super::{discord_error, message_json, user_json, FakeDiscord, Inner, Posted, BOT_ID};
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Discord's channel types the fake serves beside text channels and DMs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A forum: its posts are threads.
    Forum,
    /// A thread anyone who sees its parent may read.
    PublicThread,
    /// A thread only its members (and moderators) read.
    PrivateThread,
}

impl Kind {
    fn number(self) -> u64 {
        match self {
            Kind::Forum => 15,
            Kind::PublicThread => 11,
            Kind::PrivateThread => 12,
        }
    }
}

/// A forum or a thread, as the fake keeps it.
#[derive(Clone, Debug)]
pub struct Place {
    /// What it is.
    pub kind: Kind,
    /// Its server.
    pub guild: u64,
    /// The channel or forum a thread belongs to.
    pub parent: Option<u64>,
    /// Its name.
    pub name: String,
    /// Who opened it.
    pub owner: u64,
    /// Archived (a thread nobody wrote in for a while, or closed).
    pub archived: bool,
    /// Locked: only a moderator may reopen it.
    pub locked: bool,
    /// Deleted: every request about it is answered 404.
    pub deleted: bool,
    /// A private thread's members.
    pub members: HashSet<u64>,
    /// A forum post's tags (ids from its forum's list).
    pub applied_tags: Vec<u64>,
    /// A forum's tags: id and name.
    pub tags: Vec<(u64, String)>,
}

impl Place {
    /// A thread of `parent` in `guild`, open, that `owner` opened and is the one member of.
    pub fn thread(kind: Kind, guild: u64, parent: u64, name: String, owner: u64) -> Place {
        Place {
            kind,
            guild,
            parent: Some(parent),
            name,
            owner,
            archived: false,
            locked: false,
            deleted: false,
            members: HashSet::from([owner]),
            applied_tags: Vec::new(),
            tags: Vec::new(),
        }
    }
}

/// What the bot may do beyond posting, in the fake's server (all, unless a test says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Permission {
    /// Manage Channels: change a forum's list of tags.
    ManageChannels,
    /// Manage Threads: reopen a locked thread, tag a post it did not open.
    ManageThreads,
    /// Create Private Threads.
    CreatePrivateThreads,
}

impl Inner {
    /// The forum or thread `id`, if the test made one.
    pub(super) fn place(&self, id: u64) -> Option<Place> {
        self.places.lock().unwrap().get(&id).cloned()
    }

    /// Whether the bot lacks `permission`.
    fn denied(&self, permission: Permission) -> bool {
        self.denied.lock().unwrap().contains(&permission)
    }

    /// A forum or thread as Discord writes it.
    pub(super) fn place_json(&self, id: u64, place: &Place) -> Value {
        let last = self
            .history
            .lock()
            .unwrap()
            .get(&id)
            .and_then(|messages| messages.last().cloned())
            .map(|message| message["id"].clone())
            .unwrap_or(Value::Null);
        let mut channel = json!({
            "id": id.to_string(),
            "type": place.kind.number(),
            "guild_id": place.guild.to_string(),
            "name": place.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": false,
            "last_message_id": last,
        });
        if place.owner != 0 {
            channel["owner_id"] = json!(place.owner.to_string());
        }
        if let Some(parent) = place.parent {
            channel["parent_id"] = json!(parent.to_string());
        }
        match place.kind {
            Kind::Forum => {
                channel["available_tags"] = Value::Array(
                    place
                        .tags
                        .iter()
                        .map(|(id, name)| json!({"id": id.to_string(), "name": name, "moderated": false, "emoji_id": null, "emoji_name": null}))
                        .collect(),
                );
            }
            Kind::PublicThread | Kind::PrivateThread => {
                channel["thread_metadata"] = json!({
                    "archived": place.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": "2026-11-27T12:00:00.000000+00:00",
                    "locked": place.locked,
                });
                channel["applied_tags"] = Value::Array(
                    place
                        .applied_tags
                        .iter()
                        .map(|t| json!(t.to_string()))
                        .collect(),
                );
                channel["member_count"] = json!(place.members.len().min(50));
                channel["message_count"] = json!(0);
            }
        }
        channel
    }

    /// Why a message cannot be posted in `channel` now, as Discord refuses it.
    pub(super) fn refuses_posts(&self, channel: u64) -> Option<Response> {
        let place = self.place(channel)?;
        if place.deleted {
            return Some(discord_error(
                StatusCode::NOT_FOUND,
                10003,
                "Unknown Channel",
            ));
        }
        match place.kind {
            Kind::Forum => Some(discord_error(
                StatusCode::BAD_REQUEST,
                50008,
                "Cannot send messages in a non-text channel",
            )),
            _ if place.archived => Some(discord_error(
                StatusCode::BAD_REQUEST,
                50083,
                "Thread is archived",
            )),
            _ => None,
        }
    }

    /// Records a new thread and tells the bot (THREAD_CREATE).
    fn add_place(&self, id: u64, place: Place) -> Value {
        let json = self.place_json(id, &place);
        self.places.lock().unwrap().insert(id, place);
        json
    }

    /// Records a message the bot created in `channel`.
    fn bot_posted(&self, channel: u64, content: &str, payload: &Value) -> Value {
        let id = self.snowflake();
        let message = message_json(id, channel, user_json(BOT_ID, "referee", true), content);
        self.posts.lock().unwrap().push(Posted {
            id,
            channel,
            dm_user: None,
            content: content.to_string(),
            embeds: payload["embeds"].as_array().cloned().unwrap_or_default(),
            components: payload["components"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
            files: Vec::new(),
            nonce: payload["nonce"].as_str().map(str::to_string),
            at: Instant::now(),
        });
        self.remember(channel, message.clone());
        message
    }
}

impl FakeDiscord {
    /// Makes a forum channel on server `guild` with the tags `tags`; returns its id.
    pub fn open_forum(&self, guild: u64, tags: &[&str]) -> u64 {
        let id = self.id();
        let tags = tags
            .iter()
            .map(|name| (self.id(), name.to_string()))
            .collect();
        self.inner.add_place(
            id,
            Place {
                kind: Kind::Forum,
                guild,
                parent: None,
                name: format!("forum-{id}"),
                owner: 0,
                archived: false,
                locked: false,
                deleted: false,
                members: HashSet::new(),
                applied_tags: Vec::new(),
                tags,
            },
        );
        id
    }

    /// `user` opens a public thread of `parent` named `name` (THREAD_CREATE); returns its id.
    pub fn open_thread(&self, user: (u64, &str), parent: u64, name: &str) -> u64 {
        let id = self.id();
        let guild = self.inner.server_of(parent);
        let json = self.inner.add_place(
            id,
            Place::thread(Kind::PublicThread, guild, parent, name.to_string(), user.0),
        );
        self.dispatch("THREAD_CREATE", json);
        id
    }

    /// Discord archives `thread` (nobody wrote in it for a while): THREAD_UPDATE.
    pub fn archive(&self, thread: u64) {
        self.change(thread, |place| place.archived = true);
    }

    /// A moderator locks and archives `thread`: only a moderator may reopen it.
    pub fn lock(&self, thread: u64) {
        self.change(thread, |place| {
            place.archived = true;
            place.locked = true;
        });
    }

    /// A moderator deletes `channel` (a thread or a forum): THREAD_DELETE.
    pub fn delete_channel(&self, channel: u64) {
        self.change(channel, |place| place.deleted = true);
    }

    /// The next `n` forum posts the bot makes are made, but answered with a 502, as if the
    /// answer was lost on the way.
    pub fn lose_post_answers(&self, n: usize) {
        self.inner.lost_post_answers.store(n, Ordering::SeqCst);
    }

    /// Takes `permission` from the bot in the fake's servers.
    pub fn deny(&self, permission: Permission) {
        self.inner.denied.lock().unwrap().insert(permission);
    }

    /// The forum or thread `id` as it stands.
    pub fn place(&self, id: u64) -> Option<Place> {
        self.inner.place(id)
    }

    /// The threads of `parent` (a channel or a forum), oldest first.
    pub fn threads_of(&self, parent: u64) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .inner
            .places
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, place)| place.parent == Some(parent))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The names of the tags applied to the forum post `thread`.
    pub fn tags_of(&self, thread: u64) -> Vec<String> {
        let Some(place) = self.inner.place(thread) else {
            return Vec::new();
        };
        let forum = place.parent.and_then(|forum| self.inner.place(forum));
        place
            .applied_tags
            .iter()
            .filter_map(|tag| {
                forum
                    .as_ref()?
                    .tags
                    .iter()
                    .find(|(id, _)| id == tag)
                    .map(|(_, name)| name.clone())
            })
            .collect()
    }

    /// Changes `id` with `edit` and tells the bot, as Discord does (THREAD_UPDATE, or
    /// THREAD_DELETE for a deleted one).
    fn change(&self, id: u64, edit: impl FnOnce(&mut Place)) {
        let place = {
            let mut places = self.inner.places.lock().unwrap();
            let Some(place) = places.get_mut(&id) else {
                return;
            };
            edit(place);
            place.clone()
        };
        if place.deleted {
            self.dispatch(
                "THREAD_DELETE",
                json!({"id": id.to_string(), "guild_id": place.guild.to_string(), "parent_id": place.parent.map(|p| p.to_string()), "type": place.kind.number()}),
            );
        } else {
            self.dispatch("THREAD_UPDATE", self.inner.place_json(id, &place));
        }
    }
}

/// PATCH a channel: a thread reopened, locked, renamed or tagged; a forum's tags.
pub(super) async fn modify_channel(
    State(inner): State<Arc<Inner>>,
    Path(channel): Path<u64>,
    Json(body): Json<Value>,
) -> Response {
    let Some(mut place) = inner.place(channel).filter(|place| !place.deleted) else {
        return discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
    };
    if let Some(tags) = body["available_tags"].as_array() {
        if inner.denied(Permission::ManageChannels) {
            return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
        }
        place.tags = tags
            .iter()
            .map(|tag| {
                let id = tag["id"]
                    .as_str()
                    .and_then(|id| id.parse().ok())
                    .unwrap_or_else(|| inner.snowflake());
                (id, tag["name"].as_str().unwrap_or_default().to_string())
            })
            .collect();
    }
    if body["archived"] == json!(false) {
        if place.locked && inner.denied(Permission::ManageThreads) {
            return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
        }
        place.archived = false;
        place.locked = place.locked && body["locked"] != json!(false);
    } else if place.archived && body.as_object().is_some_and(|body| !body.is_empty()) {
        // Anything else asked of an archived thread is refused until it is reopened.
        return discord_error(StatusCode::BAD_REQUEST, 50083, "Thread is archived");
    }
    if let Some(tags) = body["applied_tags"].as_array() {
        let owner = place.owner == BOT_ID;
        if !owner && inner.denied(Permission::ManageThreads) {
            return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
        }
        place.applied_tags = tags
            .iter()
            .filter_map(|tag| tag.as_str().and_then(|id| id.parse().ok()))
            .collect();
    }
    if let Some(name) = body["name"].as_str() {
        place.name = name.to_string();
    }
    inner.places.lock().unwrap().insert(channel, place.clone());
    Json(inner.place_json(channel, &place)).into_response()
}

/// POST a thread: a post in a forum (with its first message and tags), or a thread of a text
/// channel (a private one needs Create Private Threads).
pub(super) async fn create_thread(
    State(inner): State<Arc<Inner>>,
    Path(parent): Path<u64>,
    request: Request,
) -> Response {
    // A forum post comes as a form (its first message may carry files), a thread as JSON.
    let body = super::payload_of(request).await.0;
    inner.post_attempts.lock().unwrap().push(Instant::now());
    let name = body["name"].as_str().unwrap_or("thread").to_string();
    let guild = inner.server_of(parent);
    let id = inner.snowflake();
    match inner.place(parent) {
        Some(place) if place.deleted => {
            discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel")
        }
        Some(forum) if forum.kind == Kind::Forum => {
            let applied_tags = body["applied_tags"]
                .as_array()
                .map(|tags| {
                    tags.iter()
                        .filter_map(|tag| tag.as_str().and_then(|id| id.parse().ok()))
                        .collect()
                })
                .unwrap_or_default();
            let mut thread = inner.add_place(
                id,
                Place {
                    applied_tags,
                    ..Place::thread(Kind::PublicThread, guild, parent, name, BOT_ID)
                },
            );
            let first = &body["message"];
            let content = first["content"].as_str().unwrap_or_default();
            thread["message"] = inner.bot_posted(id, content, first);
            let lost = inner
                .lost_post_answers
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
            if lost {
                return discord_error(StatusCode::BAD_GATEWAY, 0, "Bad Gateway");
            }
            Json(thread).into_response()
        }
        Some(_) => discord_error(
            StatusCode::BAD_REQUEST,
            50024,
            "Cannot execute action on this channel type",
        ),
        None => {
            let private = body["type"].as_u64() == Some(12);
            if private && inner.denied(Permission::CreatePrivateThreads) {
                return discord_error(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
            }
            let kind = if private {
                Kind::PrivateThread
            } else {
                Kind::PublicThread
            };
            let thread = inner.add_place(id, Place::thread(kind, guild, parent, name, BOT_ID));
            Json(thread).into_response()
        }
    }
}

/// DELETE a thread (the bot removes one it made and could not use).
pub(super) async fn delete_channel(
    State(inner): State<Arc<Inner>>,
    Path(channel): Path<u64>,
) -> Response {
    let mut places = inner.places.lock().unwrap();
    match places.get_mut(&channel) {
        Some(place) if !place.deleted && place.kind != Kind::Forum => {
            place.deleted = true;
            Json(json!({"id": channel.to_string(), "type": place.kind.number()})).into_response()
        }
        _ => discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel"),
    }
}

/// PUT a member into a thread.
pub(super) async fn add_member(
    State(inner): State<Arc<Inner>>,
    Path((thread, user)): Path<(u64, u64)>,
) -> Response {
    let mut places = inner.places.lock().unwrap();
    match places.get_mut(&thread) {
        Some(place) if !place.deleted && place.archived => {
            discord_error(StatusCode::BAD_REQUEST, 50083, "Thread is archived")
        }
        Some(place) if !place.deleted => {
            place.members.insert(user);
            StatusCode::NO_CONTENT.into_response()
        }
        _ => discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel"),
    }
}

/// GET a server's active threads (not archived, not deleted).
pub(super) async fn active_threads(
    State(inner): State<Arc<Inner>>,
    Path(guild): Path<u64>,
) -> Json<Value> {
    let threads = active_of(&inner, guild);
    Json(json!({"threads": threads, "members": [], "has_more": false}))
}

/// The threads of `guild` that are neither archived nor deleted, as Discord lists them.
pub(super) fn active_of(inner: &Inner, guild: u64) -> Vec<Value> {
    let places: Vec<(u64, Place)> = inner
        .places
        .lock()
        .unwrap()
        .iter()
        .map(|(id, place)| (*id, place.clone()))
        .collect();
    places
        .iter()
        .filter(|(_, place)| {
            place.guild == guild && place.kind != Kind::Forum && !place.archived && !place.deleted
        })
        .map(|(id, place)| inner.place_json(*id, place))
        .collect()
}

/// Whether a session that asked for `intents` receives `event` about `data`, as Discord
/// decides: server messages need GUILD_MESSAGES, direct messages DIRECT_MESSAGES, threads
/// and channels GUILDS; a slash command or a press always comes.
pub(super) fn covered(intents: u64, event: &str, data: &Value) -> bool {
    const GUILDS: u64 = 1;
    const GUILD_MESSAGES: u64 = 1 << 9;
    const DIRECT_MESSAGES: u64 = 1 << 12;
    let needs = match event {
        "MESSAGE_CREATE" | "MESSAGE_UPDATE" | "MESSAGE_DELETE" => {
            match data["guild_id"].is_string() {
                true => GUILD_MESSAGES,
                false => DIRECT_MESSAGES,
            }
        }
        event if event.starts_with("THREAD_") || event.starts_with("CHANNEL_") => GUILDS,
        "GUILD_CREATE" | "GUILD_UPDATE" | "GUILD_DELETE" => GUILDS,
        _ => 0,
    };
    intents & needs == needs
}

/// The message text a session that asked for `intents` reads: without MESSAGE_CONTENT a
/// server message's text comes empty (unless it mentions the bot), as Discord sends it.
pub(super) fn readable(intents: u64, event: &str, mut data: Value) -> Value {
    const MESSAGE_CONTENT: u64 = 1 << 15;
    let mentions_bot = data["content"]
        .as_str()
        .is_some_and(|text| text.contains(&format!("<@{BOT_ID}>")));
    if event.starts_with("MESSAGE_")
        && data["guild_id"].is_string()
        && intents & MESSAGE_CONTENT == 0
        && !mentions_bot
    {
        data["content"] = json!("");
    }
    data
}

/// The intents of a session's IDENTIFY, noted for what it is sent.
pub(super) fn note_intents(inner: &Inner, identify: &Value) {
    let intents = identify["d"]["intents"].as_u64().unwrap_or(0);
    inner.intents.store(intents, Ordering::SeqCst);
}
