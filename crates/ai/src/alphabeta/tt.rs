//! The transposition table: one entry a slot, indexed by the low bits of
//! the key, the whole key kept to tell positions apart.

/// What a stored score says about the true one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// It is the score.
    Exact,
    /// The score is at least this (a cut).
    Lower,
    /// The score is at most this (nothing beat alpha).
    Upper,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub generation: u8,
    /// The table's stamp when stored: entries of an older stamp are gone.
    pub stamp: u32,
}

pub(crate) struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    generation: u8,
    /// Raised by [`Table::clear`]: emptying the table without touching it.
    stamp: u32,
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (at least one slot), a power of two slots.
    pub fn new(mb: usize) -> Table<M> {
        let bytes = mb.clamp(1, 1 << 16) << 20;
        let per = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let mut n = 1usize;
        while n * 2 * per <= bytes {
            n *= 2;
        }
        Table {
            slots: vec![None; n],
            mask: n - 1,
            generation: 0,
            stamp: 0,
        }
    }

    /// Empties the table at once (the slots are only overwritten later).
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| *s = None);
        }
    }

    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let e = self.slots[key as usize & self.mask]?;
        (e.key == key && e.stamp == self.stamp).then_some(e)
    }

    /// Keeps the deeper entry of the same search; anything older gives way.
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.is_some_and(|old| old.stamp != self.stamp) {
            *slot = None;
        }
        if let Some(old) = slot
            && old.key != key
            && old.generation == self.generation
            && old.depth > depth
        {
            return;
        }
        let mv = match (mv, *slot) {
            (None, Some(old)) if old.key == key => old.mv,
            _ => mv,
        };
        *slot = Some(Entry {
            key,
            mv,
            score,
            depth,
            bound,
            generation: self.generation,
            stamp: self.stamp,
        });
    }
}
