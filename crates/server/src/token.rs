//! Seat and spectator secrets: 128 random bits from the operating system,
//! written as 32 hex digits, compared in constant time.

use std::fmt;

use subtle::ConstantTimeEq;

/// A secret that lets its holder act for a seat (or watch).
#[derive(Clone, PartialEq, Eq)]
pub struct Token([u8; 16]);

impl Token {
    /// A fresh token from the OS random source.
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Token(bytes))
    }

    /// The token as it goes into a link: 32 lower-case hex digits.
    pub fn reveal(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Whether `text` is this token, in time independent of where they
    /// differ. Text of the wrong length or with non-hex digits never matches.
    pub fn matches(&self, text: &str) -> bool {
        let Some(bytes) = parse(text) else {
            return false;
        };
        bool::from(self.0.ct_eq(&bytes))
    }
}

impl Token {
    /// The token `text` writes (32 hex digits), if it is one.
    pub fn parse(text: &str) -> Option<Self> {
        parse(text).map(Token)
    }
}

/// A token is written out only where it is kept: the table's setup in the
/// store, never a log or a record.
impl serde::Serialize for Token {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.reveal())
    }
}

impl<'de> serde::Deserialize<'de> for Token {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Token::parse(&text).ok_or_else(|| serde::de::Error::custom("a token is 32 hex digits"))
    }
}

/// Never prints the secret, so a token cannot end up in a log.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

fn parse(text: &str) -> Option<[u8; 16]> {
    let text = text.as_bytes();
    if text.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        let hi = (pair[0] as char).to_digit(16)?;
        let lo = (pair[1] as char).to_digit(16)?;
        out[i] = (hi * 16 + lo) as u8;
    }
    Some(out)
}

/// A random `u64` from the OS (seeds for tables created without one).
pub fn random_u64() -> Result<u64, getrandom::Error> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_differ() {
        let a = Token::generate().unwrap();
        let b = Token::generate().unwrap();
        assert_ne!(a, b);
        let text = a.reveal();
        assert_eq!(text.len(), 32);
        assert!(a.matches(&text));
        assert!(a.matches(&text.to_uppercase()));
        assert!(!b.matches(&text));
        assert!(!a.matches(&text[..31]));
        assert!(!a.matches(""));
        assert!(!a.matches(&"zz".repeat(16)));
        assert!(!a.matches("é".repeat(16).as_str()));
        assert_eq!(format!("{a:?}"), "Token(..)");
    }
}
