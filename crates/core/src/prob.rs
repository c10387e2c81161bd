//! Exact probabilities as reduced fractions.

use std::fmt;
use std::ops::{Add, Mul, Sub};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A probability held exactly, as a reduced fraction `numerator/denominator`.
///
/// Dice odds are small fractions (one die: sixths, two dice: thirty-sixths),
/// so `u64` parts are ample; arithmetic panics only on overflow far beyond
/// anything a rule book produces, and reduces after every step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "(u64, u64)", into = "(u64, u64)")]
pub struct Probability {
    num: u64,
    den: u64,
}

/// Why a fraction is not a probability.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProbabilityError {
    /// The denominator was zero.
    #[error("probability {0}/0 has a zero denominator")]
    ZeroDenominator(u64),
    /// The fraction is above one.
    #[error("probability {0}/{1} is greater than 1")]
    AboveOne(u64, u64),
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Probability {
    /// Certainty.
    pub const ONE: Probability = Probability { num: 1, den: 1 };
    /// Impossibility.
    pub const ZERO: Probability = Probability { num: 0, den: 1 };

    /// `num/den`, reduced; errs unless `0 <= num/den <= 1`.
    pub fn new(num: u64, den: u64) -> Result<Self, ProbabilityError> {
        if den == 0 {
            return Err(ProbabilityError::ZeroDenominator(num));
        }
        if num > den {
            return Err(ProbabilityError::AboveOne(num, den));
        }
        Ok(Self::reduced(num, den))
    }

    fn reduced(num: u64, den: u64) -> Self {
        let g = gcd(num, den).max(1);
        Probability {
            num: num / g,
            den: den / g,
        }
    }

    /// The numerator of the reduced fraction.
    pub const fn numerator(self) -> u64 {
        self.num
    }

    /// The denominator of the reduced fraction.
    pub const fn denominator(self) -> u64 {
        self.den
    }

    /// `1 - self`.
    pub fn complement(self) -> Self {
        Probability {
            num: self.den - self.num,
            den: self.den,
        }
    }

    /// The nearest `f64`, for display and for search.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Add for Probability {
    type Output = Probability;
    /// Sum of the probabilities of disjoint events. Panics if the sum exceeds one,
    /// which means the events were not disjoint: a logic error in the caller.
    fn add(self, rhs: Self) -> Self {
        let l = self.den / gcd(self.den, rhs.den) * rhs.den;
        let num = self.num * (l / self.den) + rhs.num * (l / rhs.den);
        assert!(num <= l, "probabilities {self} + {rhs} exceed 1");
        Self::reduced(num, l)
    }
}

impl Sub for Probability {
    type Output = Probability;
    /// Difference; panics if `rhs > self`.
    fn sub(self, rhs: Self) -> Self {
        let l = self.den / gcd(self.den, rhs.den) * rhs.den;
        let a = self.num * (l / self.den);
        let b = rhs.num * (l / rhs.den);
        assert!(b <= a, "probability {self} - {rhs} is negative");
        Self::reduced(a - b, l)
    }
}

impl Mul for Probability {
    type Output = Probability;
    /// Probability of two independent events both happening.
    fn mul(self, rhs: Self) -> Self {
        // Cross-reduce first so the products stay small.
        let g1 = gcd(self.num, rhs.den).max(1);
        let g2 = gcd(rhs.num, self.den).max(1);
        Self::reduced(
            (self.num / g1) * (rhs.num / g2),
            (self.den / g2) * (rhs.den / g1),
        )
    }
}

impl std::iter::Sum for Probability {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Probability::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl TryFrom<(u64, u64)> for Probability {
    type Error = ProbabilityError;
    fn try_from((num, den): (u64, u64)) -> Result<Self, Self::Error> {
        Probability::new(num, den)
    }
}

impl From<Probability> for (u64, u64) {
    fn from(p: Probability) -> Self {
        (p.num, p.den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_reduce_and_add_exactly() {
        let sixth = Probability::new(1, 6).unwrap();
        let total: Probability = std::iter::repeat_n(sixth, 6).sum();
        assert_eq!(total, Probability::ONE);
        assert_eq!(Probability::new(15, 36).unwrap().to_string(), "5/12");
        assert_eq!(sixth * sixth, Probability::new(1, 36).unwrap());
        assert_eq!(Probability::ONE - sixth, Probability::new(5, 6).unwrap());
        assert_eq!(sixth.complement(), Probability::new(5, 6).unwrap());
    }

    #[test]
    fn bad_fractions_are_refused() {
        assert_eq!(
            Probability::new(1, 0),
            Err(ProbabilityError::ZeroDenominator(1))
        );
        assert_eq!(
            Probability::new(7, 6),
            Err(ProbabilityError::AboveOne(7, 6))
        );
        assert!(serde_json::from_str::<Probability>("[3, 2]").is_err());
        let p: Probability = serde_json::from_str("[2, 4]").unwrap();
        assert_eq!(p.to_string(), "1/2");
    }
}
