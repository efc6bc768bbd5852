//! Scoring: majorities, features completed during play (roads, cities, monasteries) with
//! their followers sent home, and the final scoring (unfinished features, then fields at 3 per
//! completed city each touches, every field on its own). A ringmaster on a scored feature
//! earns its bonus right after the feature's points, whoever won the feature.

use super::map::{Figure, Follower, Map, RingmasterBonus, Scored, Seats};
use super::tiles::{Kind, NONE};

impl Map {
    /// The seats with most followers on feature `root` (monastery: its own segment).
    fn majority(&self, root: u32) -> Seats {
        let mut counts = [0u32; Seats::ROOM];
        for f in &self.followers {
            if self.root(self.follower_segment(f)) == root {
                if let Some(c) = counts.get_mut(f.seat) {
                    *c += 1;
                }
            }
        }
        let counts = &counts[..self.scores.len().min(Seats::ROOM)];
        let best = counts.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return Seats::default();
        }
        (0..counts.len()).filter(|&s| counts[s] == best).collect()
    }

    fn neighbours(&self, x: i32, y: i32) -> u32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if self.tile_at(x + dx, y + dy).is_some() {
                    n += 1;
                }
            }
        }
        n
    }

    fn award(
        &mut self,
        kind: Kind,
        root: u32,
        complete: bool,
        size: u32,
        points: u32,
        at: (i32, i32),
    ) {
        let winners = self.majority(root);
        for w in winners.iter() {
            if let Some(s) = self.scores.get_mut(w) {
                *s += points;
            }
        }
        if let Some(f) = self.features.get_mut(root as usize) {
            f.scored = true;
        }
        let mut ringmasters = Vec::new();
        for f in &self.followers {
            if f.figure != Figure::Ringmaster || self.root(self.follower_segment(f)) != root {
                continue;
            }
            let Some(t) = self.tiles.get(f.tile) else {
                continue;
            };
            let tiles = self.show_tiles_around(t.x, t.y);
            ringmasters.push(RingmasterBonus {
                seat: f.seat,
                at: (t.x, t.y),
                tiles,
                points: 2 * tiles,
            });
        }
        for bonus in &ringmasters {
            if let Some(s) = self.scores.get_mut(bonus.seat) {
                *s += bonus.points;
            }
        }
        self.history.push(Scored {
            kind,
            feature: root,
            complete,
            size,
            points,
            winners,
            at,
            ringmasters,
        });
    }

    fn release(&mut self, root: u32) {
        let mut followers = std::mem::take(&mut self.followers);
        followers.retain(|f| {
            let home = self.root(self.follower_segment(f)) == root;
            if home {
                self.send_home(f.seat, f.figure);
            }
            !home
        });
        self.followers = followers;
        if let Some(f) = self.features.get_mut(root as usize) {
            f.followers = 0;
        }
    }

    /// Scores every feature the tile `tile` completed (roads, cities, and monasteries around
    /// it) and returns their followers. Features nobody occupies are marked done silently.
    pub fn score_completed(&mut self, tile: usize) -> Vec<Scored> {
        let start = self.history.len();
        let Some(t) = self.tiles.get(tile).copied() else {
            return Vec::new();
        };
        let shape = t.shape();
        for (i, part) in shape.parts.iter().enumerate() {
            if !matches!(part.kind, Kind::Road | Kind::City) {
                continue;
            }
            let root = self.find(t.base + i as u32);
            let Some(f) = self.features.get(root as usize) else {
                continue;
            };
            if f.open > 0 || f.scored {
                continue;
            }
            let size = f.size();
            let points = match f.kind {
                Kind::City => 2 * size + 2 * u32::from(f.pennants),
                _ => size,
            };
            let kind = f.kind;
            if f.followers > 0 {
                self.award(kind, root, true, size, points, (t.x, t.y));
                self.release(root);
            } else if let Some(f) = self.features.get_mut(root as usize) {
                f.scored = true;
            }
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(other) = self.placed_at(t.x + dx, t.y + dy).copied() else {
                    continue;
                };
                if other.monastery == NONE {
                    continue;
                }
                let seg = other.base + u32::from(other.monastery);
                let done = self.features.get(seg as usize).is_none_or(|f| f.scored);
                if done || self.neighbours(other.x, other.y) < 9 {
                    continue;
                }
                let occupied = self
                    .features
                    .get(seg as usize)
                    .is_some_and(|f| f.followers > 0);
                if occupied {
                    self.award(Kind::Monastery, seg, true, 9, 9, (other.x, other.y));
                    self.release(seg);
                } else if let Some(f) = self.features.get_mut(seg as usize) {
                    f.scored = true;
                }
            }
        }
        self.history
            .get(start..)
            .map(<[Scored]>::to_vec)
            .unwrap_or_default()
    }

    /// Scores every occupied feature left at the end: incomplete roads, cities and
    /// monasteries, then fields (3 per completed city each touches). Followers stay.
    pub fn final_scoring(&mut self) -> Vec<Scored> {
        let start = self.history.len();
        let mut roots: Vec<u32> = Vec::new();
        for f in &self.followers {
            let root = self.root(self.follower_segment(f));
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        let mut fields = Vec::new();
        for root in roots {
            let Some(f) = self.features.get(root as usize) else {
                continue;
            };
            if f.scored {
                continue;
            }
            let at = self
                .tiles
                .get(usize::from(f.first))
                .map_or((0, 0), |t| (t.x, t.y));
            let size = f.size();
            match f.kind {
                Kind::Road => self.award(Kind::Road, root, false, size, size, at),
                Kind::City => {
                    let points = size + u32::from(f.pennants);
                    self.award(Kind::City, root, false, size, points, at);
                }
                Kind::Monastery => {
                    let n = self.neighbours(at.0, at.1);
                    self.award(Kind::Monastery, root, false, n, n, at);
                }
                Kind::Field => fields.push((root, at)),
            }
        }
        let scored: Vec<u32> = fields.iter().map(|&(root, _)| root).collect();
        let touching = if fields.is_empty() {
            Vec::new()
        } else {
            self.completed_cities_by_field(&scored)
        };
        for (root, at) in fields {
            let n = touching.iter().filter(|&&(field, _)| field == root).count() as u32;
            self.award(Kind::Field, root, false, n, 3 * n, at);
        }
        self.history
            .get(start..)
            .map(<[Scored]>::to_vec)
            .unwrap_or_default()
    }

    /// Every (field, completed city) pair where a segment of one of the fields `fields` (roots)
    /// touches a segment of the city, each pair once.
    fn completed_cities_by_field(&mut self, fields: &[u32]) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for t in 0..self.tiles.len() {
            let Some(&placed) = self.tiles.get(t) else {
                continue;
            };
            for (i, part) in placed.shape().parts.iter().enumerate() {
                if part.cities.is_empty() {
                    continue;
                }
                let field = self.find(placed.base + i as u32);
                if !fields.contains(&field) {
                    continue;
                }
                for &c in &part.cities {
                    let city = self.find(placed.base + u32::from(c));
                    if self
                        .features
                        .get(city as usize)
                        .is_some_and(|f| f.open == 0)
                    {
                        pairs.push((field, city));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// The feature (root) under a follower.
    pub fn feature_of(&self, f: &Follower) -> u32 {
        self.root(self.follower_segment(f))
    }

    /// Whether the feature `root` is complete (roads, cities: no open edge; monasteries: 8
    /// neighbours).
    pub fn is_complete(&self, root: u32) -> bool {
        match self.features.get(root as usize) {
            Some(f) if f.kind == Kind::Monastery => {
                let at = self.tiles.get(usize::from(f.first));
                at.is_some_and(|t| self.neighbours(t.x, t.y) == 9)
            }
            Some(f) => f.kind != Kind::Field && f.open == 0,
            None => false,
        }
    }
}
