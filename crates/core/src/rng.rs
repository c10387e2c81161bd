//! The one seeded random number generator every game and computer player uses.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The seed a game record carries, so the game's chance and its computer
/// players can be replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seed(pub u64);

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Seed {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim().parse().map(Seed)
    }
}

/// A seeded, portable random number generator (ChaCha8).
///
/// ChaCha8's stream is fixed by its specification, and the range and shuffle
/// algorithms below are our own, so the same seed gives the same dice on every
/// platform and with every version of the `rand` crates. `StdRng` makes no
/// such promise, which is why it is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRng {
    inner: ChaCha8Rng,
}

impl GameRng {
    /// A generator started from `seed`.
    pub fn from_seed(seed: Seed) -> Self {
        GameRng {
            inner: ChaCha8Rng::seed_from_u64(seed.0),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n`. `n` must be positive.
    ///
    /// Lemire's multiply-and-reject method: unbiased, and usually one draw.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "GameRng::below(0) has no value to return");
        let threshold = n.wrapping_neg() % n;
        loop {
            let wide = u128::from(self.next_u64()) * u128::from(n);
            if (wide as u64) >= threshold {
                return (wide >> 64) as u64;
            }
        }
    }

    /// A roll of a die with `sides` faces, `1..=sides`.
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.below(u64::from(sides)) as u32 + 1
    }

    /// A uniform `f64` in `[0, 1)`, for search (never for rules).
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len() as u64) as usize)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = GameRng::from_seed(Seed(42));
        let mut b = GameRng::from_seed(Seed(42));
        let xs: Vec<u32> = (0..100).map(|_| a.roll(6)).collect();
        let ys: Vec<u32> = (0..100).map(|_| b.roll(6)).collect();
        assert_eq!(xs, ys);
        let mut c = GameRng::from_seed(Seed(43));
        let zs: Vec<u32> = (0..100).map(|_| c.roll(6)).collect();
        assert_ne!(xs, zs);
    }

    #[test]
    fn the_stream_is_pinned() {
        // A record written today must replay tomorrow: these first rolls of
        // seed 1 are part of the format.
        let mut rng = GameRng::from_seed(Seed(1));
        let rolls: Vec<u32> = (0..12).map(|_| rng.roll(6)).collect();
        assert_eq!(rolls, PINNED_SEED_1_ROLLS);
    }

    const PINNED_SEED_1_ROLLS: [u32; 12] = [3, 1, 4, 2, 2, 5, 3, 1, 6, 5, 3, 4];

    #[test]
    fn dice_are_fair_over_many_rolls() {
        let mut rng = GameRng::from_seed(Seed(9));
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[(rng.roll(6) - 1) as usize] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "counts {counts:?}");
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = GameRng::from_seed(Seed(3));
        let mut v: Vec<u32> = (0..52).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..52).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..52).collect::<Vec<_>>());
    }
}
