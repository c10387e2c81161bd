//! Chess test suites in EPD (Extended Position Description): a position,
//! then operations such as `bm Qxh7+;` (the best move or moves, in SAN),
//! `am Rxb2;` (a move to avoid) and `id "WAC.001";`. The `tactics` example
//! and the tactical tests read the Win at Chess set with it.

use tabula_chess::{Move, Position};
use thiserror::Error;

use super::{ChessNode, Engine, Limits, Outcome, Root};

/// One position of a suite and its answer.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The `id` operation, or `line N` if there is none.
    pub id: String,
    /// The 1-based line of the file it came from.
    pub line: usize,
    /// The position to move from.
    pub position: Position,
    /// The moves that solve it (`bm`); empty if only moves to avoid are given.
    pub best: Vec<Move>,
    /// The moves that fail it (`am`).
    pub avoid: Vec<Move>,
}

impl Problem {
    /// Whether playing `mv` solves the problem.
    pub fn solved_by(&self, mv: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }

    /// The expected moves as the file would write them (`Qg6`, `am Rxb2`).
    pub fn answer(&self) -> String {
        let mut parts: Vec<String> = self.best.iter().map(|&m| self.position.san(m)).collect();
        parts.extend(
            self.avoid
                .iter()
                .map(|&m| format!("am {}", self.position.san(m))),
        );
        parts.join(" ")
    }
}

/// A line of a suite that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct EpdError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Reads a suite: one position a line; blank lines and lines starting with
/// `#` are skipped. Every line must have a `bm` or an `am` whose moves are
/// legal in its position.
pub fn parse(text: &str) -> Result<Vec<Problem>, EpdError> {
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let line = i + 1;
        let problem = parse_line(trimmed, line).map_err(|message| EpdError { line, message })?;
        problems.push(problem);
    }
    Ok(problems)
}

fn parse_line(text: &str, line: usize) -> Result<Problem, String> {
    // The first four fields are FEN's; the clocks may follow (some files
    // write six), since an opcode never starts with a digit.
    let mut rest = text;
    let mut fields = Vec::new();
    while let Some(field) = next_token(&mut rest) {
        let clock = fields.len() >= 4 && field.bytes().all(|b| b.is_ascii_digit());
        if fields.len() < 4 || (clock && fields.len() < 6) {
            fields.push(field);
        } else {
            // Put the opcode back for the operations.
            rest = &text[text.len() - rest.len() - field.len()..];
            break;
        }
    }
    if fields.len() < 4 {
        return Err(format!(
            "a position needs four FEN fields, found {}",
            fields.len()
        ));
    }
    let fen = fields.join(" ");
    let position = Position::from_fen(&fen).map_err(|e| format!("position {fen:?}: {e}"))?;

    let mut id = None;
    let (mut best, mut avoid) = (Vec::new(), Vec::new());
    for op in operations(rest)? {
        let Some((opcode, operands)) = op.split_first() else {
            continue;
        };
        match opcode.as_str() {
            "id" => id = operands.first().cloned(),
            "bm" | "am" => {
                if operands.is_empty() {
                    return Err(format!("{opcode} with no move"));
                }
                for san in operands {
                    let mv = position
                        .parse_san(san)
                        .map_err(|e| format!("{opcode} {san}: {e}"))?;
                    if opcode == "bm" {
                        best.push(mv);
                    } else {
                        avoid.push(mv);
                    }
                }
            }
            _ => {}
        }
    }
    if best.is_empty() && avoid.is_empty() {
        return Err("no bm or am operation: nothing to solve".to_owned());
    }
    Ok(Problem {
        id: id.unwrap_or_else(|| format!("line {line}")),
        line,
        position,
        best,
        avoid,
    })
}

/// The next whitespace-separated token of `rest`, advancing past it.
fn next_token<'a>(rest: &mut &'a str) -> Option<&'a str> {
    let s = rest.trim_start();
    if s.is_empty() {
        *rest = s;
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    *rest = &s[end..];
    Some(&s[..end])
}

/// The operations, each its opcode then its operands, split at `;` and
/// whitespace outside double quotes (an `id` or comment may hold either).
fn operations(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut ops = Vec::new();
    let mut op: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut in_word = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if quoted => word.push(c),
            ';' => {
                if in_word {
                    op.push(std::mem::take(&mut word));
                    in_word = false;
                }
                if !op.is_empty() {
                    ops.push(std::mem::take(&mut op));
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    op.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err("a quoted operand is not closed".to_owned());
    }
    if in_word {
        op.push(word);
    }
    if !op.is_empty() {
        // EPD ends each operation with `;`, but a missing last one is harmless.
        ops.push(op);
    }
    Ok(ops)
}

/// Searches `problem` from a cleared engine (so no problem is helped by
/// the one before) and returns the outcome and whether its move solves it.
pub fn solve(
    engine: &mut Engine<ChessNode>,
    problem: &Problem,
    limits: Limits,
) -> (Outcome<Move>, bool) {
    engine.clear();
    let out = engine.search(&Root::new(ChessNode(problem.position)), limits, |_| {});
    let solved = out.best.is_some_and(|m| problem.solved_by(m));
    (out, solved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_its_position_moves_and_id() {
        let text = "# a comment\n\n\
            2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
            8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 40 am Rc3 Ke6; bm Rxb2; id \"a; b\"";
        let problems = parse(text).unwrap();
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].id, "WAC.001");
        assert_eq!(problems[0].line, 3);
        assert_eq!(problems[0].answer(), "Qg6");
        let p = &problems[1];
        assert_eq!((p.id.as_str(), p.line), ("a; b", 4));
        assert_eq!(p.position.fullmove_number(), 40);
        assert_eq!(p.answer(), "Rxb2 am Rc3 am Ke6");
        assert!(p.solved_by(p.position.parse_san("Rxb2").unwrap()));
        assert!(!p.solved_by(p.position.parse_san("Rc3").unwrap()));
    }

    #[test]
    fn a_bad_line_is_named() {
        let good = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6;\n";
        for (bad, says) in [
            ("2rr3k/pp3pp1 w - - bm Qg6;", "position"),
            (
                "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w -",
                "four FEN fields",
            ),
            (
                "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg8;",
                "bm Qg8",
            ),
            (
                "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - id \"x\";",
                "no bm",
            ),
            (
                "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"x;",
                "quoted",
            ),
        ] {
            let err = parse(&format!("{good}{bad}\n")).unwrap_err();
            assert_eq!(err.line, 2, "{bad}");
            assert!(err.to_string().starts_with("line 2: "), "{err}");
            assert!(err.message.contains(says), "{bad}: {err}");
        }
    }
}
