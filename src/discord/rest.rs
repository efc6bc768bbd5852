//! Posting a message with Discord's whole answer in hand. serenity's error for a refused
//! request keeps the status and Discord's error code but drops the rate limit's wait
//! (`retry_after` in the body, `Retry-After` and `X-RateLimit-Reset-After` in the headers).
//! Straight to Discord, serenity's ratelimiter waits for it by itself; behind a proxy
//! (`discord.api_url`) that ratelimiter is off, and the wait Discord names is the only pacing
//! there is, so the outbox posts through here and honours it.

use poise::serenity_prelude as serenity;
use serenity::http::{LightMethod, Multipart, MultipartUpload, Request, Route};
use std::time::Duration;

/// Discord's error code for "Cannot send messages to this user".
const DMS_CLOSED: i64 = 50007;
/// Discord's error code for "Invalid Form Body": the message breaks one of Discord's limits.
const INVALID_FORM: i64 = 50035;
/// Discord's error code for "Thread is archived": it must be reopened before a post.
const THREAD_ARCHIVED: i64 = 50083;
/// The name of an attached board picture.
pub(super) const PICTURE: &str = "board.png";

/// Why a post did not go through.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// It may pass (Discord's server error, network): try again after the outbox's backoff.
    Passing(String),
    /// Rate limited: try again after `wait`, for every channel when `global`.
    RateLimited {
        /// How long Discord asked to wait.
        wait: Duration,
        /// Whether the limit is the bot's global one rather than this channel's.
        global: bool,
    },
    /// The user does not accept direct messages from the bot.
    DmsClosed,
    /// The thread the post goes to was archived (for inactivity, or by a moderator): it may
    /// be reopened, and the post sent again.
    ThreadArchived,
    /// Discord refused the message itself as malformed (a field too long, say): the same
    /// message will never pass, a plainer one may.
    Malformed(String),
    /// It will not pass (no access, unknown channel, a malformed message): give up.
    Permanent(String),
}

/// Sorts a serenity error (of a request other than a post) into passing, closed DMs, or
/// permanent.
pub fn classify(error: &serenity::Error) -> Failure {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            let code = i64::try_from(response.error.code).unwrap_or_default();
            if code == DMS_CLOSED {
                Failure::DmsClosed
            } else if code == THREAD_ARCHIVED {
                Failure::ThreadArchived
            } else if status == 429 || status >= 500 {
                Failure::Passing(format!("HTTP {status}: {}", response.error.message))
            } else if status == 400 && code == INVALID_FORM {
                Failure::Malformed(format!(
                    "HTTP {status}, Discord error {code}: {}",
                    response.error.message
                ))
            } else {
                Failure::Permanent(format!(
                    "HTTP {status}, Discord error {}: {}",
                    response.error.code, response.error.message
                ))
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(error)) => {
            Failure::Passing(error.to_string())
        }
        serenity::Error::Io(error) => Failure::Passing(error.to_string()),
        other => Failure::Permanent(other.to_string()),
    }
}

/// The HTTP client the bot's serenity client and its own posts share.
pub(super) struct Rest {
    client: reqwest::Client,
    proxy: Option<String>,
}

impl Rest {
    /// A client for Discord itself (`proxy` empty) or for the proxy at `proxy`, whose every
    /// request fails after `timeout` without an answer.
    pub(super) fn new(proxy: Option<String>, timeout: std::time::Duration) -> Rest {
        Rest {
            client: reqwest::Client::builder()
                .use_rustls_tls()
                .timeout(timeout)
                .build()
                .unwrap_or_default(),
            proxy,
        }
    }

    /// serenity's HTTP client on the same connection pool: through serenity's ratelimiter
    /// straight to Discord, or through the proxy, which keeps the rate limits itself.
    pub(super) fn serenity_http(&self, token: &str) -> serenity::Http {
        let builder = serenity::HttpBuilder::new(token).client(self.client.clone());
        match &self.proxy {
            Some(url) => builder
                .proxy(url.clone())
                .ratelimiter_disabled(true)
                .build(),
            None => builder.build(),
        }
    }

    /// Creates `message` in `channel`, with `files` attached; returns the id Discord gave
    /// it, where its answer says.
    pub(super) async fn post(
        &self,
        http: &serenity::Http,
        channel: serenity::ChannelId,
        mut message: serenity::CreateMessage,
        files: Vec<serenity::CreateAttachment>,
    ) -> Result<Option<u64>, Failure> {
        for file in &files {
            message = message.add_file(file.clone());
        }
        let json = serde_json::to_string(&message)
            .map_err(|error| Failure::Permanent(format!("the message does not encode: {error}")))?;
        let request = Request::new(
            Route::ChannelMessages {
                channel_id: channel,
            },
            LightMethod::Post,
        );
        let request = if files.is_empty() {
            request.body(Some(json.into_bytes()))
        } else {
            request.multipart(Some(Multipart {
                upload: MultipartUpload::Attachments(files),
                fields: Vec::new(),
                payload_json: Some(json),
            }))
        };
        let response = match &http.ratelimiter {
            Some(ratelimiter) => ratelimiter.perform(request).await.map_err(|e| classify(&e)),
            None => {
                let built = request
                    .build(&self.client, http.token(), self.proxy.as_deref())
                    .map_err(|e| classify(&e))?
                    .build()
                    .map_err(|e| Failure::Permanent(e.to_string()))?;
                self.client
                    .execute(built)
                    .await
                    .map_err(|e| Failure::Passing(e.to_string()))
            }
        }?;
        if response.status().is_success() {
            let bytes = response.bytes().await.unwrap_or_default();
            let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
            return Ok(body["id"].as_str().and_then(|id| id.parse().ok()));
        }
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.unwrap_or_default();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
        Err(refusal(status, &headers, &body))
    }
}

/// What a refused post means, from its status, headers and body.
fn refusal(status: u16, headers: &reqwest::header::HeaderMap, body: &serde_json::Value) -> Failure {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string)
    };
    let seconds = |text: Option<String>| text.and_then(|t| t.trim().parse::<f64>().ok());
    let code = body["code"].as_i64().unwrap_or(0);
    let message = body["message"].as_str().unwrap_or("no message");
    if code == DMS_CLOSED {
        return Failure::DmsClosed;
    }
    if code == THREAD_ARCHIVED {
        return Failure::ThreadArchived;
    }
    if status == 429 {
        let wait = [
            body["retry_after"].as_f64(),
            seconds(header("retry-after")),
            seconds(header("x-ratelimit-reset-after")),
        ]
        .into_iter()
        .flatten()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .fold(0.0, f64::max);
        let global = body["global"].as_bool().unwrap_or(false)
            || header("x-ratelimit-global").is_some()
            || header("x-ratelimit-scope").as_deref() == Some("global");
        return Failure::RateLimited {
            wait: Duration::from_secs_f64(wait.min(3600.0)),
            global,
        };
    }
    if status >= 500 {
        return Failure::Passing(format!("HTTP {status}: {message}"));
    }
    let reason = format!("HTTP {status}, Discord error {code}: {message}");
    if status == 400 && code == INVALID_FORM {
        return Failure::Malformed(reason);
    }
    Failure::Permanent(reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};
    use serde_json::json;

    #[test]
    fn a_rate_limit_waits_the_longest_time_discord_names() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("1"));
        headers.insert("x-ratelimit-reset-after", HeaderValue::from_static("1.25"));
        let body =
            json!({"message": "You are being rate limited.", "retry_after": 1.5, "global": false});
        assert_eq!(
            refusal(429, &headers, &body),
            Failure::RateLimited {
                wait: Duration::from_millis(1500),
                global: false
            }
        );
        headers.insert("x-ratelimit-scope", HeaderValue::from_static("global"));
        assert_eq!(
            refusal(429, &headers, &json!({})),
            Failure::RateLimited {
                wait: Duration::from_millis(1250),
                global: true
            }
        );
    }

    #[test]
    fn a_malformed_message_is_told_from_other_refusals() {
        let none = HeaderMap::new();
        assert_eq!(
            refusal(
                400,
                &none,
                &json!({"code": 50035, "message": "Invalid Form Body"})
            ),
            Failure::Malformed("HTTP 400, Discord error 50035: Invalid Form Body".to_string())
        );
    }

    #[test]
    fn closed_dms_server_errors_and_refusals_are_told_apart() {
        let none = HeaderMap::new();
        assert_eq!(
            refusal(
                403,
                &none,
                &json!({"code": 50007, "message": "Cannot send messages to this user"})
            ),
            Failure::DmsClosed
        );
        assert_eq!(
            refusal(502, &none, &json!({"message": "Bad Gateway"})),
            Failure::Passing("HTTP 502: Bad Gateway".to_string())
        );
        assert_eq!(
            refusal(
                403,
                &none,
                &json!({"code": 50013, "message": "Missing Permissions"})
            ),
            Failure::Permanent("HTTP 403, Discord error 50013: Missing Permissions".to_string())
        );
    }
}
