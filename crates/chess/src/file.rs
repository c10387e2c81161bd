//! Files (columns) a to h.

use std::fmt;

/// A file (column) of the board, `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, a first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i & 7` (a = 0).
    #[inline]
    #[must_use]
    pub const fn new_masked(i: u32) -> File {
        File::ALL[(i & 7) as usize]
    }

    /// The file with index `i` (a = 0), or `None` past h.
    #[inline]
    #[must_use]
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 {
            Some(File::new_masked(i))
        } else {
            None
        }
    }

    /// `0` for a to `7` for h.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file `delta` files to the right (negative: left), if on the board.
    #[inline]
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self as i32 + delta;
        if i >= 0 && i < 8 {
            Some(File::new_masked(i as u32))
        } else {
            None
        }
    }

    /// The letter `a` to `h`.
    #[inline]
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `a` to `h`.
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new_masked(c as u32 - 'a' as u32)),
            _ => None,
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
