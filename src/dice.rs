//! Seeded dice: one ChaCha20 stream per game.
//!
//! Why a stream per game: anyone holding the revealed seed can re-run every draw of the game
//! with `referee replay` and check it. Every draw is recorded as a [`Draw`] (purpose, sides,
//! result), which the table writes to the audit log.
//!
//! The draw algorithm is part of the public contract (it must give the same numbers on every
//! machine): a die with `s` sides takes 32-bit words from ChaCha20 (rand_chacha's word order)
//! and rejects any word `w >= floor(2^32 / s) * s`; the result is `w % s + 1`.

use hmac::{Hmac, Mac};
use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::fmt;
use thiserror::Error;

/// The 32 bytes that fix every draw of one game.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Seed(pub [u8; 32]);

/// Why a `seed=` value was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SeedError {
    /// Neither a number nor 64 hex digits.
    #[error("a seed is a whole number (like 7) or 64 hex digits; got '{0}'")]
    Malformed(String),
}

impl Seed {
    /// Reads `seed=` values: a decimal number (its 8 little-endian bytes, then zeros), or
    /// exactly 64 hex digits.
    pub fn parse(text: &str) -> Result<Seed, SeedError> {
        let text = text.trim();
        if let Ok(number) = text.parse::<u64>() {
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&number.to_le_bytes());
            return Ok(Seed(bytes));
        }
        let hex_text = text.strip_prefix("0x").unwrap_or(text);
        let mut bytes = [0u8; 32];
        match hex::decode_to_slice(hex_text, &mut bytes) {
            Ok(()) => Ok(Seed(bytes)),
            Err(_) => Err(SeedError::Malformed(text.chars().take(80).collect())),
        }
    }

    /// A fresh seed from the operating system.
    pub fn random() -> Seed {
        let mut bytes = [0u8; 32];
        OsRng.fill_bytes(&mut bytes);
        Seed(bytes)
    }

    /// The seed as 64 lowercase hex digits (what the bot reveals at the end of a game).
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// SHA-256 of the 32 seed bytes, in hex: posted at the start so the seed cannot change later.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// SHA-256 of the 32 seed bytes followed by the 32 bytes of `salt`, in hex: the commitment
    /// to a seed someone chose, which a guess of the seed alone cannot match (the salt, drawn
    /// by the bot, is revealed with the seed).
    pub fn salted_commitment(&self, salt: &Seed) -> String {
        hex::encode(
            Sha256::new()
                .chain_update(self.0)
                .chain_update(salt.0)
                .finalize(),
        )
    }

    /// A receipt for `message` (a secret order with its game, round and seat): the first 8
    /// bytes, in hex, of HMAC-SHA-256 over it under a key only the seed gives (the SHA-256 of
    /// "referee receipt key " and the seed's 32 bytes). It proves the order without telling
    /// it: until the seed is revealed nobody can compute a receipt, so nobody can try likely
    /// orders against one; once it is, anyone can check every receipt.
    pub fn receipt(&self, message: &str) -> String {
        let key = Sha256::new()
            .chain_update(RECEIPT_KEY)
            .chain_update(self.0)
            .finalize();
        // HMAC takes a key of any length: this never fails.
        match <Hmac<Sha256> as Mac>::new_from_slice(&key) {
            Ok(mac) => hex::encode(&mac.chain_update(message).finalize().into_bytes()[..8]),
            Err(_) => String::new(),
        }
    }
}

/// What the receipts' key is made of besides the seed (so it is no other hash of the seed,
/// such as the commitment).
const RECEIPT_KEY: &[u8] = b"referee receipt key ";

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl From<Seed> for String {
    fn from(seed: Seed) -> String {
        seed.to_hex()
    }
}

impl TryFrom<String> for Seed {
    type Error = SeedError;
    fn try_from(text: String) -> Result<Seed, SeedError> {
        Seed::parse(&text)
    }
}

/// One die roll, as the audit log shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// What the roll was for, in words ("minimum bids", "red die 1"). A fixed purpose is
    /// kept without a copy: a shuffled deck of 71 tiles draws 70 times for "tile order".
    pub purpose: Cow<'static, str>,
    /// Number of sides of the die (at least 1).
    pub sides: u32,
    /// The result, from 1 to `sides`.
    pub result: u32,
    /// A secret draw (a shuffled deck): kept out of the public log; the revealed seed and
    /// `referee replay` still verify it after the game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sealed: bool,
}

/// A game's dice: the seeded stream plus the draws not yet written to the log.
pub struct Dice {
    rng: ChaCha20Rng,
    draws: Vec<Draw>,
}

impl Dice {
    /// The stream of a new game, at its first word.
    pub fn new(seed: Seed) -> Dice {
        Dice::resume(seed, 0)
    }

    /// The stream of a game in progress, at the word position saved by [`Dice::position`].
    pub fn resume(seed: Seed, position: u128) -> Dice {
        let mut rng = ChaCha20Rng::from_seed(seed.0);
        rng.set_word_pos(position);
        Dice {
            rng,
            draws: Vec::new(),
        }
    }

    /// Where the stream stands, to be saved with the game's state.
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// Rolls a die with `sides` sides (0 is read as 1) and records the draw.
    pub fn roll(&mut self, purpose: impl Into<Cow<'static, str>>, sides: u32) -> u32 {
        self.draw(purpose.into(), sides, false)
    }

    fn draw(&mut self, purpose: Cow<'static, str>, sides: u32, sealed: bool) -> u32 {
        let sides = sides.max(1);
        let limit = (u64::from(u32::MAX) + 1) / u64::from(sides) * u64::from(sides);
        let result = loop {
            let word = u64::from(self.rng.next_u32());
            if word < limit {
                break (word % u64::from(sides)) as u32 + 1;
            }
        };
        self.draws.push(Draw {
            purpose,
            sides,
            result,
            sealed,
        });
        result
    }

    /// Picks an index in `0..count` (a roll of a `count`-sided die, minus one).
    pub fn pick(&mut self, purpose: impl Into<Cow<'static, str>>, count: usize) -> usize {
        let sides = u32::try_from(count.max(1)).unwrap_or(u32::MAX);
        self.roll(purpose, sides) as usize - 1
    }

    /// Shuffles `items` in place (Fisher-Yates from the back, one draw per position).
    pub fn shuffle<T>(&mut self, purpose: &'static str, items: &mut [T]) {
        self.draws.reserve(items.len());
        for last in (1..items.len()).rev() {
            let other = self.pick(purpose, last + 1);
            items.swap(last, other);
        }
    }

    /// Rolls like [`Dice::roll`] but seals the draw: a secret (a face-down token) that stays
    /// out of the public log until the game tells it or the seed is revealed.
    pub fn roll_sealed(&mut self, purpose: impl Into<Cow<'static, str>>, sides: u32) -> u32 {
        self.draw(purpose.into(), sides, true)
    }

    /// Shuffles `items` like [`Dice::shuffle`] but seals the draws: the order stays secret
    /// (a deck of tiles) until the seed is revealed.
    pub fn shuffle_sealed<T>(&mut self, purpose: &'static str, items: &mut [T]) {
        self.draws.reserve(items.len());
        for last in (1..items.len()).rev() {
            let other = self.roll_sealed(purpose, (last + 1) as u32) as usize - 1;
            items.swap(last, other);
        }
    }

    /// The draws made since the last call, in order, for the audit log.
    pub fn take_draws(&mut self) -> Vec<Draw> {
        std::mem::take(&mut self.draws)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test that may stop at the first error.
    type Tested = Result<(), Box<dyn std::error::Error>>;

    #[test]
    fn a_receipt_is_the_keyed_hash_anyone_computes_with_the_seed() -> Tested {
        // Computed apart, with Python's hmac and hashlib, from the seed 7.
        let seed = Seed::parse("7")?;
        assert_eq!(seed.receipt("1:1:0:bid 6"), "42303f3522fc577e");
        assert_ne!(Seed::parse("8")?.receipt("1:1:0:bid 6"), "42303f3522fc577e");
        Ok(())
    }

    #[test]
    fn a_salted_commitment_hashes_the_seed_then_the_salt() -> Tested {
        // Computed apart, with Python's hashlib: sha256(seed 7's bytes + salt 1's bytes).
        let (seed, salt) = (Seed::parse("7")?, Seed::parse("1")?);
        assert_eq!(
            seed.salted_commitment(&salt),
            "1bbc0245c9ac49e3096b351ad366854d62d5356ee6ec711da2ebe657d35718b2"
        );
        assert_eq!(
            seed.commitment(),
            "f5411ec7e51e46159c654bdbdf3cc20785a217b87384810ed2e541dc0016943a"
        );
        Ok(())
    }

    #[test]
    fn same_seed_same_rolls_and_resume_continues_the_stream() -> Tested {
        let seed = Seed::parse("7")?;
        let mut a = Dice::new(seed);
        let first: Vec<u32> = (0..5).map(|_| a.roll("d6", 6)).collect();
        let position = a.position();
        let rest: Vec<u32> = (0..5).map(|_| a.roll("d6", 6)).collect();
        let mut b = Dice::new(seed);
        let again: Vec<u32> = (0..5).map(|_| b.roll("d6", 6)).collect();
        assert_eq!(first, again);
        let mut c = Dice::resume(seed, position);
        let resumed: Vec<u32> = (0..5).map(|_| c.roll("d6", 6)).collect();
        assert_eq!(rest, resumed);
        assert_eq!(a.take_draws().len(), 10);
        Ok(())
    }

    #[test]
    fn rolls_stay_in_range_and_cover_every_face() -> Tested {
        let mut dice = Dice::new(Seed::parse("1")?);
        let mut seen = [false; 6];
        for _ in 0..600 {
            let r = dice.roll("d6", 6);
            assert!((1..=6).contains(&r));
            seen[r as usize - 1] = true;
        }
        assert!(seen.iter().all(|s| *s));
        Ok(())
    }

    #[test]
    fn seeds_parse_from_numbers_and_hex_and_refuse_words() -> Tested {
        let hex64 = "00".repeat(31) + "ff";
        assert_eq!(Seed::parse(&hex64)?.0[31], 0xff);
        assert_eq!(Seed::parse("258")?.0[..2], [2, 1]);
        assert!(Seed::parse("tomorrow").is_err());
        assert_eq!(
            Seed::parse("0")?.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        Ok(())
    }

    #[test]
    fn sealed_shuffles_are_marked_and_follow_the_same_stream() -> Tested {
        let seed = Seed::parse("3")?;
        let (mut open, mut sealed) = (Dice::new(seed), Dice::new(seed));
        let (mut a, mut b): (Vec<u32>, Vec<u32>) = ((0..20).collect(), (0..20).collect());
        open.shuffle("deck", &mut a);
        sealed.shuffle_sealed("deck", &mut b);
        assert_eq!(a, b);
        assert!(sealed.take_draws().iter().all(|draw| draw.sealed));
        assert!(open.take_draws().iter().all(|draw| !draw.sealed));
        Ok(())
    }

    #[test]
    fn shuffle_is_a_permutation() -> Tested {
        let mut dice = Dice::new(Seed::parse("3")?);
        let mut items: Vec<u32> = (0..50).collect();
        dice.shuffle("deck", &mut items);
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(items, sorted);
        Ok(())
    }
}
