//! Fixed-capacity move lists.

use crate::Move;

/// A list of moves on the stack: no allocation. Capacity 256; no standard
/// chess position has more than 218 legal moves. Generation into a full
/// list (only possible on boards far beyond chess material) drops the extra
/// moves instead of panicking; use the `for_each_*` generators when that matters.
pub type MoveList = arrayvec::ArrayVec<Move, 256>;
