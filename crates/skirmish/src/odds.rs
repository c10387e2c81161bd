//! The skirmish arithmetic: piece values, totals, and exact odds.
//!
//! A skirmish compares `attacking value + roll + attack bonus` with
//! `defending value + roll`. Each roll is the total of the [`Dice`] of the
//! options; ties go by the [`TieRule`]. Everything here is exact: the
//! probabilities are fractions over `sides^(2·count)` equally likely rolls.

use serde::{Deserialize, Serialize};
use tabula_chess::Role;
use tabula_core::Probability;

use crate::options::{Dice, Sequential, SkirmishOptions, TieRule};

/// The book's value of a piece ("Standardish Chesspiece Values": Pawn 1,
/// Bishop 3, Knight 3, Rook 5, Queen 9, King 4), with the King's value taken
/// from the options (1 to 9, default 4).
pub const fn piece_value(role: Role, king_value: u8) -> i64 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => king_value as i64,
    }
}

/// The attack bonus of a piece's `k`-th attack in a turn (k = 1 for the
/// first): the book lowers it "by half the attacking piece's original value
/// (rounded up) with each new attack".
pub fn sequential_bonus(options: &SkirmishOptions, k: u32, original_value: i64) -> i64 {
    let bonus = i64::from(options.attack_bonus);
    let half_up = (original_value + 1).div_euclid(2);
    let steps = match options.sequential {
        Sequential::Cumulative => i64::from(k.saturating_sub(1)),
        Sequential::Flat => i64::from(k > 1),
    };
    bonus - steps * half_up
}

/// Who wins a skirmish, given the rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The attacker wins.
    Attacker,
    /// The defender wins.
    Defender,
    /// A tie under the re-roll rule: both roll again.
    Reroll,
}

/// The numbers of one skirmish: what each side adds to its roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Odds {
    /// The attacking value: the piece's value, halved (tactical movement) or
    /// divided (divided skirmish) where the book says so; for a check or
    /// checkmate roll, the checking pieces' value.
    pub attack_value: i64,
    /// The attack bonus, lowered for a sequential attack.
    pub bonus: i64,
    /// The defending value.
    pub defence_value: i64,
    /// The dice each side rolls.
    pub dice: Dice,
    /// How a tie is settled.
    pub ties: TieRule,
}

impl Odds {
    /// A skirmish under `options` between these values (the bonus is the
    /// options' attack bonus; adjust `bonus` for sequential attacks).
    pub fn new(options: &SkirmishOptions, attack_value: i64, defence_value: i64) -> Odds {
        Odds {
            attack_value,
            bonus: i64::from(options.attack_bonus),
            defence_value,
            dice: options.dice,
            ties: options.ties,
        }
    }

    /// The attacker's total for a roll of `roll`.
    pub fn attack_total(&self, roll: u32) -> i64 {
        self.attack_value + i64::from(roll) + self.bonus
    }

    /// The defender's total for a roll of `roll`.
    pub fn defence_total(&self, roll: u32) -> i64 {
        self.defence_value + i64::from(roll)
    }

    /// Who wins when the attacker rolls `attack_roll` and the defender
    /// `defence_roll`.
    pub fn verdict(&self, attack_roll: u32, defence_roll: u32) -> Verdict {
        let a = self.attack_total(attack_roll);
        let d = self.defence_total(defence_roll);
        match a.cmp(&d) {
            std::cmp::Ordering::Greater => Verdict::Attacker,
            std::cmp::Ordering::Less => Verdict::Defender,
            std::cmp::Ordering::Equal => match self.ties {
                TieRule::Defender => Verdict::Defender,
                TieRule::Attacker => Verdict::Attacker,
                TieRule::Reroll => Verdict::Reroll,
            },
        }
    }

    /// Counts of the `sides^(2·count)` equally likely rolls: (attacker wins,
    /// defender wins, re-roll).
    fn counts(&self) -> (u64, u64, u64) {
        let ways = self.dice.ways();
        let min = self.dice.min_total();
        let (mut win, mut lose, mut again) = (0u64, 0u64, 0u64);
        for (i, wa) in ways.iter().enumerate() {
            for (j, wd) in ways.iter().enumerate() {
                let n = wa * wd;
                match self.verdict(min + i as u32, min + j as u32) {
                    Verdict::Attacker => win += n,
                    Verdict::Defender => lose += n,
                    Verdict::Reroll => again += n,
                }
            }
        }
        (win, lose, again)
    }

    /// The exact probability that the attacker wins (re-rolls included:
    /// under the re-roll rule, the chance of winning once the totals differ).
    pub fn win_probability(&self) -> Probability {
        let (win, lose, _) = self.counts();
        fraction(win, win + lose)
    }

    /// The exact probability that the defender wins.
    pub fn loss_probability(&self) -> Probability {
        self.win_probability().complement()
    }

    /// `Some(true)` when the attacker is certain to win, `Some(false)` when
    /// certain to lose: a "given", decided without dice.
    pub fn given(&self) -> Option<bool> {
        // The extremes decide: the attacker's worst roll against the
        // defender's best, and the other way round.
        let (lo, hi) = (self.dice.min_total(), self.dice.max_total());
        let worst = self.verdict(lo, hi);
        let best = self.verdict(hi, lo);
        match (worst, best) {
            (Verdict::Attacker, _) => Some(true),
            (_, Verdict::Defender) => Some(false),
            // Under re-rolls, "never loses" (or "never wins") is certain too.
            (Verdict::Reroll, Verdict::Attacker) if self.ties == TieRule::Reroll => {
                (self.counts().1 == 0).then_some(true)
            }
            (Verdict::Defender, Verdict::Reroll) if self.ties == TieRule::Reroll => {
                (self.counts().0 == 0).then_some(false)
            }
            _ => None,
        }
    }

    /// Every roll `(attacker total, defender total)` with its exact
    /// probability, attacker's total first, then defender's, ascending.
    /// Empty for a given.
    pub fn rolls(&self) -> Vec<(u32, u32, Probability)> {
        if self.given().is_some() {
            return Vec::new();
        }
        let ways = self.dice.ways();
        let min = self.dice.min_total();
        let total = self.dice.combinations() * self.dice.combinations();
        let mut out = Vec::with_capacity(ways.len() * ways.len());
        for (i, wa) in ways.iter().enumerate() {
            for (j, wd) in ways.iter().enumerate() {
                out.push((min + i as u32, min + j as u32, fraction(wa * wd, total)));
            }
        }
        out
    }
}

/// The exact probability that an attacker of value `attack_value` beats a
/// defender of value `defence_value` under `options` (attack bonus, dice,
/// tie rule): the first attack of a piece at full value.
///
/// ```
/// use tabula_skirmish::{win_probability, SkirmishOptions};
/// use tabula_core::Probability;
///
/// let o = SkirmishOptions::default();
/// // Knight (3) against Bishop (3), bonus 1, one d6 each, the defender
/// // holds ties: the attacker wins when its die is at least the defender's,
/// // 21 of 36 rolls.
/// assert_eq!(win_probability(&o, 3, 3), Probability::new(7, 12).unwrap());
/// ```
pub fn win_probability(
    options: &SkirmishOptions,
    attack_value: i64,
    defence_value: i64,
) -> Probability {
    Odds::new(options, attack_value, defence_value).win_probability()
}

fn fraction(num: u64, den: u64) -> Probability {
    // num <= den and den > 0 by construction; fall back to certainty bounds
    // rather than panicking if that were ever not so.
    Probability::new(num, den.max(1)).unwrap_or(if num == 0 {
        Probability::ZERO
    } else {
        Probability::ONE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_sum_to_one_and_agree_with_the_win_probability() {
        let o = SkirmishOptions::default();
        let odds = Odds::new(&o, 3, 3);
        let rolls = odds.rolls();
        assert_eq!(rolls.len(), 36);
        let total: Probability = rolls.iter().map(|r| r.2).sum();
        assert_eq!(total, Probability::ONE);
        let wins: Probability = rolls
            .iter()
            .filter(|r| odds.verdict(r.0, r.1) == Verdict::Attacker)
            .map(|r| r.2)
            .sum();
        assert_eq!(wins, odds.win_probability());
    }

    #[test]
    fn sequential_bonus_falls_by_half_the_value_rounded_up() {
        let mut o = SkirmishOptions::default();
        assert_eq!(sequential_bonus(&o, 1, 3), 1);
        assert_eq!(sequential_bonus(&o, 2, 3), -1);
        assert_eq!(sequential_bonus(&o, 3, 3), -3);
        assert_eq!(sequential_bonus(&o, 2, 1), 0);
        assert_eq!(sequential_bonus(&o, 2, 9), -4);
        o.sequential = Sequential::Flat;
        assert_eq!(sequential_bonus(&o, 3, 3), -1);
    }
}
