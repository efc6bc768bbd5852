//! referee: a game master for play-by-post games. A message comes in, becomes a command
//! (`chat`), the table applies it to a game inside one database transaction (`table`, `store`),
//! and what must be said goes out through an outbox.
pub mod backup;
pub mod chat;
pub mod config;
pub mod dice;
pub mod discord;
pub mod duration;
pub mod games;
pub mod local;
pub mod phase;
pub mod picture;
pub mod records;
pub mod store;
pub mod table;
