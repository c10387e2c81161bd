//! Table clocks: time plus an increment per turn (Fischer), kept in
//! milliseconds of wall-clock time so a restarted server can rebuild them
//! from when each stored action was appended.
//!
//! Each seat's first decision is untimed (a friend may take a while to open
//! the link); after it, the clock of the seat to act runs, and a seat whose
//! turn passes to another gains the increment.

use serde::{Deserialize, Serialize};
use tabula_core::Player;

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A clock's settings, as `POST /api/tables` gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// Each seat's time at the start, in seconds.
    pub initial_seconds: u64,
    /// Added after each of a seat's turns, in seconds.
    #[serde(default)]
    pub increment_seconds: u64,
}

impl ClockSettings {
    /// The longest start time a table takes: three hours.
    pub const MAX_INITIAL: u64 = 3 * 60 * 60;
    /// The largest increment: three minutes.
    pub const MAX_INCREMENT: u64 = 3 * 60;

    /// Checks the settings are within bounds.
    pub fn check(&self) -> Result<(), String> {
        if self.initial_seconds == 0 || self.initial_seconds > Self::MAX_INITIAL {
            return Err(format!(
                "a clock's initial_seconds is 1 to {}, not {}",
                Self::MAX_INITIAL,
                self.initial_seconds
            ));
        }
        if self.increment_seconds > Self::MAX_INCREMENT {
            return Err(format!(
                "a clock's increment_seconds is 0 to {}, not {}",
                Self::MAX_INCREMENT,
                self.increment_seconds
            ));
        }
        Ok(())
    }
}

/// The clock as a view message carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// Each seat's time left, in milliseconds, at the moment of sending.
    pub remaining_ms: Vec<i64>,
    /// The seat whose clock runs, if any.
    pub running: Option<Player>,
    /// The settings.
    pub initial_ms: i64,
    /// The increment.
    pub increment_ms: i64,
}

/// A running clock.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    initial_ms: i64,
    increment_ms: i64,
    remaining: Vec<i64>,
    /// The seat whose clock runs and since when.
    running: Option<(Player, i64)>,
    /// Which seats have made their first (untimed) decision.
    moved: Vec<bool>,
}

impl Clock {
    pub(crate) fn new(settings: ClockSettings, seats: usize) -> Self {
        let initial_ms = settings.initial_seconds as i64 * 1000;
        Clock {
            initial_ms,
            increment_ms: settings.increment_seconds as i64 * 1000,
            remaining: vec![initial_ms; seats],
            running: None,
            moved: vec![false; seats],
        }
    }

    fn left(&self, seat: Player, now: i64) -> i64 {
        let base = self.remaining.get(seat.index()).copied().unwrap_or(0);
        match self.running {
            Some((p, since)) if p == seat => base - (now - since).max(0),
            _ => base,
        }
    }

    /// The running seat's time left.
    pub(crate) fn running_left(&self, now: i64) -> Option<i64> {
        self.running.map(|(p, _)| self.left(p, now))
    }

    /// The seat whose time has run out, if any.
    pub(crate) fn fallen(&self, now: i64) -> Option<Player> {
        self.running
            .map(|(p, _)| p)
            .filter(|p| self.left(*p, now) <= 0)
    }

    /// The table changed at `now`: `decided` made a decision (or nobody did:
    /// a table action, a takeback) and `next` is to act.
    pub(crate) fn advance(&mut self, decided: Option<Player>, next: Option<Player>, now: i64) {
        if let Some((p, since)) = self.running.take()
            && let Some(r) = self.remaining.get_mut(p.index())
        {
            *r -= (now - since).max(0);
        }
        if let Some(d) = decided
            && let Some(moved) = self.moved.get_mut(d.index())
        {
            let first = !*moved;
            *moved = true;
            if next != Some(d) && !first {
                self.remaining[d.index()] += self.increment_ms;
            }
        }
        if let Some(n) = next
            && self.moved.get(n.index()) == Some(&true)
        {
            self.running = Some((n, now));
        }
    }

    /// Restarts the running clock at `now` without charging the time
    /// since it last started (the server was down): `next`'s clock runs
    /// from `now` if it has made its first decision.
    pub(crate) fn restart(&mut self, next: Option<Player>, now: i64) {
        self.running = None;
        if let Some(n) = next
            && self.moved.get(n.index()) == Some(&true)
        {
            self.running = Some((n, now));
        }
    }

    pub(crate) fn view(&self, now: i64) -> ClockView {
        ClockView {
            remaining_ms: (0..self.remaining.len())
                .map(|i| self.left(Player(i as u8), now).max(0))
                .collect(),
            running: self.running.map(|(p, _)| p),
            initial_ms: self.initial_ms,
            increment_ms: self.increment_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> Clock {
        Clock::new(
            ClockSettings {
                initial_seconds: 60,
                increment_seconds: 2,
            },
            2,
        )
    }

    #[test]
    fn first_decisions_are_untimed_then_time_runs_and_increments() {
        let (w, b) = (Player(0), Player(1));
        let mut c = clock();
        c.advance(None, Some(w), 0);
        assert_eq!(
            c.view(10_000).running,
            None,
            "White's first move is untimed"
        );
        c.advance(Some(w), Some(b), 10_000);
        assert_eq!(c.view(20_000).running, None, "so is Black's");
        c.advance(Some(b), Some(w), 20_000);
        assert_eq!(c.view(25_000).remaining_ms, vec![55_000, 60_000]);
        c.advance(Some(w), Some(b), 25_000);
        assert_eq!(c.view(25_000).remaining_ms, vec![57_000, 60_000]);
        assert_eq!(c.fallen(25_000 + 59_999), None);
        assert_eq!(c.fallen(25_000 + 60_000), Some(b));
        c.advance(None, None, 30_000);
        assert_eq!(c.view(90_000).remaining_ms, vec![57_000, 55_000]);
        assert_eq!(c.fallen(1_000_000), None);
    }

    #[test]
    fn a_turn_of_several_decisions_gains_one_increment() {
        let (w, b) = (Player(0), Player(1));
        let mut c = clock();
        c.advance(Some(w), Some(b), 0);
        c.advance(Some(b), Some(w), 0);
        c.advance(Some(w), Some(w), 1_000);
        c.advance(Some(w), Some(b), 2_000);
        assert_eq!(c.view(2_000).remaining_ms, vec![60_000, 60_000]);
    }

    #[test]
    fn settings_out_of_bounds_are_refused() {
        let s = |i, n| ClockSettings {
            initial_seconds: i,
            increment_seconds: n,
        };
        assert!(s(0, 0).check().is_err());
        assert!(s(10_801, 0).check().is_err());
        assert!(s(60, 181).check().is_err());
        assert!(s(60, 0).check().is_ok());
    }
}
