//! What the database keeps of the messages it applied: each id as long as the platform might
//! deliver the message again (`database.keep_message_ids`, 30 days), then only each
//! channel's last (catch-up after downtime reads on from it). The games lose nothing: every
//! input stays in their logs and every game replays.

mod common;

use chrono::{DateTime, Duration, Utc};
use common::{file_url, number, replay_every_game, service, start_time};
use referee::table::{Envelope, Inbound, Service, User};

/// A message as Discord gives it: its id, and where it was read (a channel or a player's DM
/// channel) with its number there.
async fn said(service: &Service, n: i64, place: &str, inbound: Inbound, now: DateTime<Utc>) {
    let envelope = Envelope {
        id: format!("m{n}"),
        place: Some((place.to_string(), n)),
        sent: Some(now),
        ..Envelope::default()
    };
    service.handle(&envelope, &inbound, now).await.unwrap();
}

fn in_channel(user: &str, text: &str) -> Inbound {
    Inbound::Channel {
        channel: "tag".to_string(),
        user: User::named(user),
        admin: false,
        text: text.to_string(),
    }
}

#[tokio::test]
async fn message_ids_are_forgotten_after_the_window_but_each_channels_last() {
    let dir = tempfile::tempdir().unwrap();
    let service = service(&file_url(dir.path())).await;
    let now = start_time();
    let mut n = 0;
    for (user, text) in [
        ("ann", "!new tag seed=7"),
        ("ann", "!join"),
        ("bob", "!join"),
        ("cat", "!join"),
        ("ann", "!start"),
    ] {
        n += 1;
        said(&service, n, "tag", in_channel(user, text), now).await;
    }
    for bid in 0..300 {
        n += 1;
        let dm = Inbound::Direct {
            user: User::named("ann"),
            text: format!("bid {}", 5 + bid % 7),
        };
        said(&service, n, "dm-ann", dm, now).await;
    }
    n += 1;
    said(&service, n, "tag", in_channel("bob", "!status"), now).await;
    let last_in_channel = n;
    assert_eq!(number(&service, "SELECT COUNT(*) FROM inbound").await, n);

    // A message delivered again within the window is not applied twice.
    let again = Inbound::Direct {
        user: User::named("ann"),
        text: "bid 11".to_string(),
    };
    said(&service, 6, "dm-ann", again, now).await;
    assert_eq!(number(&service, "SELECT COUNT(*) FROM inputs").await, 305);

    // A day later everything is kept; a month on, only each channel's last message.
    assert_eq!(
        service
            .store()
            .prune(now + Duration::days(1))
            .await
            .unwrap()
            .message_ids,
        0
    );
    let pruned = service
        .store()
        .prune(now + Duration::days(31))
        .await
        .unwrap();
    assert_eq!(pruned.message_ids as i64, n - 2);
    assert_eq!(
        number(
            &service,
            "SELECT MAX(position) FROM inbound WHERE channel = 'tag'"
        )
        .await,
        last_in_channel,
        "catch-up reads on from the channel's last message"
    );
    assert_eq!(
        number(
            &service,
            "SELECT MAX(position) FROM inbound WHERE channel = 'dm-ann'"
        )
        .await,
        last_in_channel - 1
    );
    // The games lost nothing.
    assert_eq!(number(&service, "SELECT COUNT(*) FROM inputs").await, 305);
    replay_every_game(&service).await;
    service.store().close().await;
}

/// The channels a catch-up after downtime reads: every channel with a game not over, and one
/// whose game ended as long as message ids are kept (a `!new` or `!audit` may follow the
/// end), then no longer.
#[tokio::test]
async fn a_channel_whose_game_ended_is_read_back_while_message_ids_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let service = service(&file_url(dir.path())).await;
    let now = start_time();
    let store = service.store();
    said(
        &service,
        1,
        "tag",
        in_channel("ann", "!new tag seed=7"),
        now,
    )
    .await;
    let channels = |at| async move {
        store
            .catch_up_ties(at)
            .await
            .unwrap()
            .into_iter()
            .filter(|tie| !tie.person)
            .map(|tie| tie.watched.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(channels(now).await, ["tag"]);
    let ended = now + Duration::days(2);
    said(&service, 2, "tag", in_channel("ann", "!end"), ended).await;
    assert_eq!(
        number(&service, "SELECT COUNT(*) FROM games WHERE status = 'over'").await,
        1
    );
    assert_eq!(channels(ended + Duration::days(29)).await, ["tag"]);
    // Its GM is tied to it while it is read back, not read: her DMs concern no game now.
    let ties = store.catch_up_ties(ended).await.unwrap();
    assert!(
        ties.iter()
            .any(|tie| tie.person && tie.watched.id == "ann" && !tie.read),
        "{ties:?}"
    );
    assert!(channels(ended + Duration::days(31)).await.is_empty());
    // Where a catch-up knows the bot last saw a server: the last message it applied in any
    // of the server's channels.
    let listed = ["elsewhere".to_string(), "tag".to_string()];
    assert_eq!(store.last_position_among(&listed).await.unwrap(), Some(2));
    let unseen = ["elsewhere".to_string()];
    assert_eq!(store.last_position_among(&unseen).await.unwrap(), None);
    assert_eq!(store.last_position_among(&[]).await.unwrap(), None);
    replay_every_game(&service).await;
}
