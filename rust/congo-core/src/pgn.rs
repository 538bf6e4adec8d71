//! Game records in the PGN-style format of `docs/api.md`: where one game ends and the next begins,
//! the tags, and the movetext with every move resolved in the position where it is played.
//!
//! Reading is tolerant and never fails: each problem becomes a [`RecordError`] with its line number,
//! and the rest of the record is still read (after a bad or illegal move, the other moves of that
//! line are skipped, so the game holds the moves up to the problem).
//!
//! The work is split in three, so that a caller reading a stream pays only for what it uses:
//!
//! * [`Scanner`] takes the input a line at a time and says where each game ends (a result token, a
//!   blank line after the moves, the next game's tags, or the end of the input), keeping the game's
//!   lines in a [`Record`];
//! * [`Record::tags`] reads the tags alone (a header index of a big file needs no more);
//! * [`Record::parse`] reads everything: tags, moves as [`Move`]s, comments, annotation glyphs,
//!   variations, and the result, as a flat list of [`Event`]s.
//!
//! ```
//! use congo_core::pgn::{Event, Scanner};
//!
//! let mut scanner = Scanner::new();
//! let mut games = Vec::new();
//! for line in "[White \"Ada\"]\n\n1. Zf3 Ec5 {fine} 2. cc3 *\n".split_inclusive('\n') {
//!     if scanner.feed(line) {
//!         games.push(scanner.take());
//!     }
//! }
//! let game = games[0].parse();
//! assert_eq!(game.tags, vec![("White".to_owned(), "Ada".to_owned())]);
//! assert!(matches!(game.events[..], [Event::Move(_), Event::Move(_), Event::Comment(_), Event::Move(_)]));
//! assert_eq!(game.result, Some("*"));
//! assert!(game.errors.is_empty());
//! ```

use core::fmt;

use crate::moves::Move;
use crate::position::Position;
use crate::san::parse_san;

/// The largest numeric annotation glyph (`$0` … `$255`, as in the PGN standard).
pub const MAX_NAG: u8 = 255;

/// The four game results a record can end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// A problem found in a record, at a line (counted from 1 in the whole input).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RecordError {
    /// The line of the input where the problem is.
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// The number of [`Event`]s before the problem, so that a reader can report it in order.
    pub at: usize,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RecordError {}

/// One item of a game's movetext, in reading order.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Event {
    /// A legal move of the current line.
    Move(Move),
    /// A numeric annotation glyph for the last move (`$4`, or a `??` suffix).
    Nag(u8),
    /// A comment (`{…}` or `; …`), trimmed, line breaks turned into spaces.
    Comment(String),
    /// `(`: the moves that follow replace the last move of the current line.
    BeginVariation,
    /// `)`: back to the line the variation branched from.
    EndVariation,
}

/// A game read in full by [`Record::parse`].
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct ParsedGame {
    /// The tags in the order they appear (a repeated name keeps its last value, at its first place).
    pub tags: Vec<(String, String)>,
    /// The movetext.
    pub events: Vec<Event>,
    /// The result token that ended the movetext, if one did.
    pub result: Option<&'static str>,
    /// Every problem, in the order met.
    pub errors: Vec<RecordError>,
    /// The position the moves start from: the `FEN` tag's, or the start position. `None` when it is
    /// unknown (a bad `FEN` tag or another variant), in which case no move was read.
    pub start: Option<Position>,
}

// -- where games end ---------------------------------------------------------------------------

#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Section {
    /// Before the game: blank lines and escape lines are skipped.
    Prelude,
    /// Tag lines.
    Tags,
    /// After the tags, before any movetext.
    Gap,
    /// The moves.
    Movetext,
}

/// Splits an input, fed a line at a time, into the lines of each game.
///
/// A game is a block of tag lines (`[Name "value"]`) followed by its movetext. The movetext ends
/// after the line holding its result token (`1-0`, `0-1`, `1/2-1/2`, `*`; anything after it on that
/// line is reported and ignored), at a blank line, before a line starting with `[` (the next game's
/// tags), or at the end of the input — except inside a `{…}` comment, which may span blank lines.
/// Lines starting with `%` outside comments are escape lines and ignored.
#[derive(Clone, Debug)]
pub struct Scanner {
    section: Section,
    in_comment: bool,
    /// Lines fed so far (the number of the last line fed).
    line: usize,
    record: Record,
    /// A line that ended the previous game and starts the next one.
    carried: Option<String>,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner::new()
    }
}

/// The lines of one game, as found by a [`Scanner`].
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Record {
    /// The tag lines, each with its line number.
    tag_lines: Vec<(usize, String)>,
    /// The movetext, lines joined as they came (with their line ends).
    movetext: String,
    /// The line number of the first movetext line.
    movetext_line: usize,
    /// Whether the game ended by its result token with more text after it on that line.
    trailing: Option<usize>,
}

impl Scanner {
    /// A scanner at the start of an input.
    pub fn new() -> Scanner {
        Scanner {
            section: Section::Prelude,
            in_comment: false,
            line: 0,
            record: Record::default(),
            carried: None,
        }
    }

    /// The number of lines fed so far.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Whether a game has started (its first line was fed) and not yet been taken.
    pub fn has_game(&self) -> bool {
        self.section != Section::Prelude
    }

    /// Feeds the next line of the input (with or without its line end). Returns `true` when a game
    /// is complete: take it with [`Scanner::take`] before feeding more. The line that starts the
    /// next game is kept for it.
    pub fn feed(&mut self, line: &str) -> bool {
        self.line += 1;
        let line = if self.line == 1 { line.strip_prefix('\u{feff}').unwrap_or(line) } else { line };
        self.feed_numbered(line)
    }

    fn feed_numbered(&mut self, line: &str) -> bool {
        let number = self.line;
        let content = line.trim_end_matches(['\n', '\r']);
        let blank = content.trim().is_empty();
        if self.in_comment {
            self.record.push_movetext(number, line);
            self.in_comment = !content.contains('}') || scan_movetext(after_brace(content)).unclosed;
            if !self.in_comment {
                return self.after_movetext_line(content);
            }
            return false;
        }
        let escape = line.starts_with('%');
        match self.section {
            Section::Prelude => {
                if blank || escape || content.starts_with(';') {
                    return false;
                }
                if content.trim_start().starts_with('[') {
                    self.section = Section::Tags;
                    self.record.tag_lines.push((number, content.to_owned()));
                    return false;
                }
                self.movetext_line(number, line, content)
            }
            Section::Tags => {
                if escape {
                    return false;
                }
                if blank {
                    self.section = Section::Gap;
                    return false;
                }
                if content.trim_start().starts_with('[') {
                    self.record.tag_lines.push((number, content.to_owned()));
                    return false;
                }
                self.movetext_line(number, line, content)
            }
            Section::Gap => {
                if blank || escape {
                    return false;
                }
                if content.trim_start().starts_with('[') {
                    // A game of tags alone; this line starts the next one.
                    self.carried = Some(line.to_owned());
                    self.line -= 1;
                    return true;
                }
                self.movetext_line(number, line, content)
            }
            Section::Movetext => {
                if blank {
                    return true;
                }
                if escape {
                    return false;
                }
                if content.starts_with('[') {
                    self.carried = Some(line.to_owned());
                    self.line -= 1;
                    return true;
                }
                self.movetext_line(number, line, content)
            }
        }
    }

    fn movetext_line(&mut self, number: usize, line: &str, content: &str) -> bool {
        self.section = Section::Movetext;
        self.record.push_movetext(number, line);
        let scan = scan_movetext(content);
        self.in_comment = scan.unclosed;
        if let Some(trailing) = scan.result_end {
            if !content[trailing..].trim().is_empty() {
                self.record.trailing = Some(number);
            }
            return true;
        }
        false
    }

    fn after_movetext_line(&mut self, content: &str) -> bool {
        // The line closed a comment: look for a result after it.
        let rest = after_brace(content);
        let scan = scan_movetext(rest);
        self.in_comment = scan.unclosed;
        if let Some(trailing) = scan.result_end {
            if !rest[trailing..].trim().is_empty() {
                self.record.trailing = Some(self.line);
            }
            return true;
        }
        false
    }

    /// The game fed so far (complete or cut off by the end of the input), leaving the scanner ready
    /// for the next one.
    pub fn take(&mut self) -> Record {
        let record = core::mem::take(&mut self.record);
        self.section = Section::Prelude;
        self.in_comment = false;
        if let Some(line) = self.carried.take() {
            let done = self.feed(&line);
            debug_assert!(!done, "a tag line never completes a game");
        }
        record
    }

    /// At the end of the input: the last game, if one was started.
    pub fn finish(&mut self) -> Option<Record> {
        if self.has_game() {
            Some(self.take())
        } else {
            None
        }
    }
}

/// The text after the first `}` of a line (the line ends a multi-line comment).
fn after_brace(content: &str) -> &str {
    content.find('}').map_or("", |i| &content[i + 1..])
}

struct LineScan {
    /// The line ends inside a `{` comment.
    unclosed: bool,
    /// The byte offset just after a result token outside comments, if the line has one.
    result_end: Option<usize>,
}

fn scan_movetext(text: &str) -> LineScan {
    let mut tokens = Tokenizer::new(text, 0);
    while let Some(token) = tokens.next_token() {
        match token {
            Token::UnclosedComment(_) => return LineScan { unclosed: true, result_end: None },
            Token::Result(_) => return LineScan { unclosed: false, result_end: Some(tokens.pos) },
            _ => {}
        }
    }
    LineScan { unclosed: false, result_end: None }
}

impl Record {
    fn push_movetext(&mut self, number: usize, line: &str) {
        if self.movetext.is_empty() {
            self.movetext_line = number;
        }
        self.movetext.push_str(line);
        if !line.ends_with('\n') {
            self.movetext.push('\n');
        }
    }

    /// The line number where the game starts.
    pub fn first_line(&self) -> usize {
        self.tag_lines.first().map_or(self.movetext_line, |(line, _)| *line)
    }

    /// The tags alone, with the problems found in them (malformed tag lines, line breaks in values).
    pub fn tags(&self) -> (Vec<(String, String)>, Vec<RecordError>) {
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut errors = Vec::new();
        for (line, text) in &self.tag_lines {
            parse_tag_line(text, *line, &mut tags, &mut errors);
        }
        (tags, errors)
    }

    /// The whole game: tags, moves, comments, glyphs, variations and result.
    pub fn parse(&self) -> ParsedGame {
        let (tags, mut errors) = self.tags();
        let last_line = self.movetext_line + self.movetext.matches('\n').count().saturating_sub(1);
        let line = if self.movetext.is_empty() { self.first_line() } else { self.movetext_line };
        let tag = |name: &str| tags.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str());
        let start = match tag("Variant") {
            Some(variant) if !variant.trim().eq_ignore_ascii_case("congo") => {
                errors.push(RecordError {
                    line,
                    message: format!("the game is not Congo but '{variant}'; its moves were skipped"),
                    at: 0,
                });
                None
            }
            _ => match tag("FEN") {
                None => Some(Position::start()),
                Some(fen) => match Position::from_fen(fen) {
                    Ok(position) => Some(position),
                    Err(error) => {
                        errors.push(RecordError {
                            line,
                            message: format!("bad FEN tag '{fen}': {error}; the moves were skipped"),
                            at: 0,
                        });
                        None
                    }
                },
            },
        };
        let mut parser = MovetextParser::new(start, errors);
        parser.run(&self.movetext, self.movetext_line.max(1));
        if let Some(number) = self.trailing {
            parser.error(number, "text after the result was ignored".to_owned());
        }
        let MovetextParser { events, mut errors, result, .. } = parser;
        if let Some(result) = result {
            match tag("Result") {
                Some(header) if !RESULTS.contains(&header) => errors.push(RecordError {
                    line: last_line,
                    message: format!("unknown result tag '{header}'; the moves end with '{result}'"),
                    at: events.len(),
                }),
                Some(header) if header != result => errors.push(RecordError {
                    line: last_line,
                    message: format!("the result tag says '{header}' but the moves end with '{result}'"),
                    at: events.len(),
                }),
                _ => {}
            }
        }
        ParsedGame { tags, events, result, errors, start }
    }
}

// -- tags ----------------------------------------------------------------------------------------

/// Whether `name` is a tag name: a letter, digit or `_`, then letters, digits and `_ + # = : -`.
pub fn is_tag_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
}

/// Reads the `[Name "value"]` tags of one line into `tags`.
fn parse_tag_line(text: &str, line: usize, tags: &mut Vec<(String, String)>, errors: &mut Vec<RecordError>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut found = false;
    let malformed = |errors: &mut Vec<RecordError>| {
        errors.push(RecordError {
            line,
            message: format!("malformed tag '{}' (expected [Name \"value\"])", text.trim()),
            at: 0,
        });
    };
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            break;
        }
        if bytes[i] != b'[' {
            if !found {
                malformed(errors);
            }
            return; // text after the tags is ignored, as in other readers
        }
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let name_start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'"' && bytes[i] != b']' {
            i += 1;
        }
        let name = &text[name_start..i];
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if !is_tag_name(name) || bytes.get(i) != Some(&b'"') {
            malformed(errors);
            return;
        }
        i += 1;
        let mut value = String::new();
        let mut closed = false;
        let mut chars = text[i..].char_indices();
        while let Some((offset, c)) = chars.next() {
            match c {
                '"' => {
                    i += offset + 1;
                    closed = true;
                    break;
                }
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(escaped);
                    }
                }
                _ => value.push(c),
            }
        }
        while closed && i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if !closed || bytes.get(i) != Some(&b']') {
            malformed(errors);
            return;
        }
        i += 1;
        found = true;
        if value.contains(['\r', '\n']) {
            errors.push(RecordError {
                line,
                message: format!("the value of tag '{name}' contains a line break; read as a space"),
                at: 0,
            });
            value = value.replace("\r\n", " ").replace(['\r', '\n'], " ");
        }
        match tags.iter_mut().find(|(key, _)| key == name) {
            Some(slot) => slot.1 = value,
            None => tags.push((name.to_owned(), value)),
        }
    }
}

// -- movetext tokens ---------------------------------------------------------------------------

/// One lexical item of movetext.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Token<'a> {
    /// `{…}`: the text between the braces.
    Comment(&'a str),
    /// `{…` running to the end of the text.
    UnclosedComment(&'a str),
    /// `; …`: the rest of the line.
    LineComment(&'a str),
    /// `(`
    Open,
    /// `)`
    Close,
    /// `$` and its digits (the digits, unchecked).
    Nag(&'a str),
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'static str),
    /// A move number (`12.`, `12...`, or digits alone).
    MoveNumber,
    /// A move: SAN or machine notation, with its `!`/`?` suffix, if any.
    Move(&'a str, &'a str),
    /// A glyph standing alone: `!`, `?`, `!!`, `??`, `!?`, `?!`.
    Annotation(&'a str),
    /// Any other character.
    Other(char),
}

/// Splits movetext into [`Token`]s, counting lines; escape lines (`%` at the start of a line) are
/// skipped.
#[derive(Clone, Debug)]
pub struct Tokenizer<'a> {
    text: &'a str,
    pos: usize,
    /// The line number of the current position.
    pub line: usize,
}

fn is_move_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"=,#+-".contains(&b)
}

fn ends_token(next: Option<&u8>) -> bool {
    next.is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'/' || b == b'-'))
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `text`, whose first line is line number `line`.
    pub fn new(text: &'a str, line: usize) -> Tokenizer<'a> {
        Tokenizer { text, pos: 0, line }
    }

    /// The byte offset reached.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next token, or `None` at the end of the text.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        loop {
            let b = *bytes.get(self.pos)?;
            if b == b'\n' {
                self.line += 1;
                self.pos += 1;
                if bytes.get(self.pos) == Some(&b'%') {
                    self.skip_line();
                }
            } else if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b == b'%' && self.pos == 0 {
                self.skip_line();
            } else {
                break;
            }
        }
        let start = self.pos;
        let b = bytes[start];
        self.pos += 1;
        let token = match b {
            b'{' => self.brace_comment(start),
            b';' => {
                let end = self.text[start..].find('\n').map_or(self.text.len(), |i| start + i);
                self.pos = end;
                Token::LineComment(&self.text[start + 1..end])
            }
            b'(' => Token::Open,
            b')' => Token::Close,
            b'*' => Token::Result("*"),
            b'$' => {
                while bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
                    self.pos += 1;
                }
                if self.pos == start + 1 {
                    Token::Other('$')
                } else {
                    Token::Nag(&self.text[start + 1..self.pos])
                }
            }
            b'0'..=b'9' => self.number_or_result(start),
            b'.' => {
                while bytes.get(self.pos) == Some(&b'.') {
                    self.pos += 1;
                }
                Token::MoveNumber
            }
            b'!' | b'?' => {
                if bytes.get(self.pos).is_some_and(|&b| b == b'!' || b == b'?') {
                    self.pos += 1;
                }
                Token::Annotation(&self.text[start..self.pos])
            }
            // `--`, the null move (python-chess's spelling), with any suffix as a move's.
            b'-' if bytes.get(self.pos) == Some(&b'-') && ends_token(bytes.get(self.pos + 1)) => {
                self.pos += 1;
                let end = self.pos;
                while self.pos < end + 2 && bytes.get(self.pos).is_some_and(|&b| b == b'!' || b == b'?') {
                    self.pos += 1;
                }
                Token::Move(&self.text[start..end], &self.text[end..self.pos])
            }
            _ if b.is_ascii_alphabetic() => {
                while bytes.get(self.pos).is_some_and(|&b| is_move_byte(b)) {
                    self.pos += 1;
                }
                let end = self.pos;
                if bytes.get(self.pos).is_some_and(|&b| b == b'!' || b == b'?') {
                    self.pos += 1;
                    if bytes.get(self.pos).is_some_and(|&b| b == b'!' || b == b'?') {
                        self.pos += 1;
                    }
                }
                Token::Move(&self.text[start..end], &self.text[end..self.pos])
            }
            _ => {
                let c = self.text[start..].chars().next().unwrap_or('?');
                self.pos = start + c.len_utf8();
                Token::Other(c)
            }
        };
        Some(token)
    }

    fn brace_comment(&mut self, start: usize) -> Token<'a> {
        let rest = &self.text[start + 1..];
        if let Some(end) = rest.find('}') {
            let body = &rest[..end];
            self.line += body.matches('\n').count();
            self.pos = start + 1 + end + 1;
            Token::Comment(body)
        } else {
            self.line += rest.matches('\n').count();
            self.pos = self.text.len();
            Token::UnclosedComment(rest)
        }
    }

    fn number_or_result(&mut self, start: usize) -> Token<'a> {
        let bytes = self.text.as_bytes();
        for result in ["1-0", "0-1", "1/2-1/2"] {
            if self.text[start..].starts_with(result) && ends_token(bytes.get(start + result.len())) {
                self.pos = start + result.len();
                return Token::Result(result);
            }
        }
        while bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        let mut after = self.pos;
        while bytes.get(after).is_some_and(|&b| b == b' ' || b == b'\t') {
            after += 1;
        }
        if bytes.get(after) == Some(&b'.') {
            self.pos = after;
            while bytes.get(self.pos) == Some(&b'.') {
                self.pos += 1;
            }
        }
        Token::MoveNumber
    }

    fn skip_line(&mut self) {
        self.pos = self.text[self.pos..].find('\n').map_or(self.text.len(), |i| self.pos + i);
    }
}

/// The glyph of a `!`/`?` suffix.
pub fn suffix_nag(suffix: &str) -> Option<u8> {
    match suffix {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    }
}

// -- movetext ----------------------------------------------------------------------------------

/// One line of play being read: where it stands and what came before its last move.
#[derive(Copy, Clone, Debug)]
struct Line {
    /// The position after the last move read on this line (`None` once the line is broken).
    position: Option<Position>,
    /// The position before that move (`None` before the line's first move).
    before: Option<Position>,
}

struct MovetextParser {
    events: Vec<Event>,
    errors: Vec<RecordError>,
    result: Option<&'static str>,
    line: Line,
    /// The lines the open variations branched from.
    stack: Vec<Line>,
    /// Variations being skipped (opened where no variation can be read).
    skipped: usize,
}

impl MovetextParser {
    fn new(start: Option<Position>, errors: Vec<RecordError>) -> MovetextParser {
        MovetextParser {
            events: Vec::new(),
            errors,
            result: None,
            line: Line { position: start, before: None },
            stack: Vec::new(),
            skipped: 0,
        }
    }

    fn error(&mut self, line: usize, message: String) {
        self.errors.push(RecordError { line, message, at: self.events.len() });
    }

    /// Whether tokens are being read (not in a skipped variation or after a problem on this line).
    fn reading(&self) -> bool {
        self.skipped == 0 && self.line.position.is_some()
    }

    fn run(&mut self, text: &str, first_line: usize) {
        let mut tokens = Tokenizer::new(text, first_line);
        while let Some(token) = tokens.next_token() {
            let line = tokens.line;
            match token {
                Token::Comment(body) | Token::LineComment(body) => self.comment(body),
                Token::UnclosedComment(body) => {
                    self.error(line, "a comment '{' is not closed before the end of the game".to_owned());
                    self.comment(body);
                }
                Token::Open => self.open(line),
                Token::Close => self.close(line),
                Token::Nag(digits) => {
                    if let Ok(nag) = digits.parse::<u8>() {
                        self.nag(line, nag);
                    } else {
                        let shown = if digits.len() > 12 {
                            format!("{}…", &digits[..12])
                        } else {
                            digits.to_owned()
                        };
                        self.error(
                            line,
                            format!("annotation glyph ${shown} is out of range ($0 to ${MAX_NAG})"),
                        );
                    }
                }
                Token::Annotation(text) => {
                    if let Some(nag) = suffix_nag(text) {
                        self.nag(line, nag);
                    }
                }
                Token::Result(result) => {
                    if self.skipped > 0 || !self.stack.is_empty() {
                        self.error(line, format!("a result {result} inside a variation"));
                        continue;
                    }
                    self.result = Some(result);
                    break;
                }
                Token::MoveNumber => {}
                Token::Move(text, suffix) => self.play(line, text, suffix),
                Token::Other(c) => self.error(line, format!("unexpected character {c:?} in the moves")),
            }
        }
        if self.skipped > 0 || !self.stack.is_empty() {
            self.error(tokens.line, "the record ends inside a variation".to_owned());
        }
    }

    fn comment(&mut self, body: &str) {
        if !self.reading() {
            return; // a comment on a move that was not read
        }
        let text = body.trim();
        let text = if text.contains(['\n', '\r']) {
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        } else {
            text.to_owned()
        };
        self.events.push(Event::Comment(text));
    }

    fn open(&mut self, line: usize) {
        if !self.reading() {
            self.skipped += 1;
            return;
        }
        let Some(before) = self.line.before else {
            self.error(line, "a variation '(' before any move".to_owned());
            self.skipped += 1;
            return;
        };
        self.stack.push(self.line);
        self.line = Line { position: Some(before), before: None };
        self.events.push(Event::BeginVariation);
    }

    fn close(&mut self, line: usize) {
        if self.skipped > 0 {
            self.skipped -= 1;
            return;
        }
        match self.stack.pop() {
            Some(outer) => {
                self.line = outer;
                self.events.push(Event::EndVariation);
            }
            None => self.error(line, "')' without a variation to close".to_owned()),
        }
    }

    fn nag(&mut self, line: usize, nag: u8) {
        if !self.reading() {
            return;
        }
        if self.stack.is_empty() && self.line.before.is_none() {
            self.error(line, format!("an annotation glyph ${nag} before any move"));
            return;
        }
        self.events.push(Event::Nag(nag));
    }

    fn play(&mut self, line: usize, text: &str, suffix: &str) {
        if !self.reading() {
            return;
        }
        let Some(position) = self.line.position else { return };
        if text == crate::san::NULL_SAN {
            // A null move passes (`Position::play_null`): records of analysis use it, as
            // python-chess reads and writes it.
            self.line = Line { position: Some(position.play_null()), before: Some(position) };
            self.events.push(Event::Move(Move::NULL));
            if let Some(nag) = suffix_nag(suffix) {
                self.events.push(Event::Nag(nag));
            }
            return;
        }
        match parse_san(&position, text) {
            Ok(m) => {
                self.line = Line { position: Some(position.play_unchecked(&m)), before: Some(position) };
                self.events.push(Event::Move(m));
                if let Some(nag) = suffix_nag(suffix) {
                    self.events.push(Event::Nag(nag));
                }
            }
            Err(error) => {
                let dots = if position.turn().is_white() { "." } else { "..." };
                self.error(line, format!("move {}{dots} {text}: {error}", position.fullmove()));
                self.line.position = None; // skip the rest of this line
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<ParsedGame> {
        let mut scanner = Scanner::new();
        let mut out = Vec::new();
        for line in text.split_inclusive('\n') {
            if scanner.feed(line) {
                out.push(scanner.take().parse());
            }
        }
        out.extend(scanner.finish().map(|r| r.parse()));
        out
    }

    fn moves(game: &ParsedGame) -> Vec<String> {
        game.events
            .iter()
            .filter_map(|e| if let Event::Move(m) = e { Some(m.path.uci()) } else { None })
            .collect()
    }

    #[test]
    fn a_null_move_is_read_as_a_pass() {
        let parsed = games("1. Zf3 -- 2. Zg5 -- *\n");
        assert_eq!(moves(&parsed[0]), ["g1f3", "0000", "f3g5", "0000"]);
        assert!(parsed[0].errors.is_empty(), "{:?}", parsed[0].errors);
    }

    #[test]
    fn games_end_at_results_blank_lines_and_tags() {
        let all = games(
            "[White \"A\"]\n1. Zf3 Ec5\n[White \"B\"]\n1. Ec3 *\n[White \"C\"]\n\n1. Zf3\n\n1. Ec3 1-0\n",
        );
        assert_eq!(all.len(), 4);
        assert_eq!(moves(&all[0]), ["g1f3", "c7c5"]);
        assert_eq!(all[1].result, Some("*"));
        assert_eq!(all[2].tags[0].1, "C");
        assert_eq!(moves(&all[2]), ["g1f3"]);
        assert_eq!(moves(&all[3]), ["c1c3"]);
        assert!(all.iter().all(|g| g.errors.is_empty()), "{all:?}");
    }

    #[test]
    fn comments_may_hold_blank_lines_and_results() {
        let all = games("1. Zf3 {a comment\n\n1-0 [not a tag]\n} Ec5 *\n\n1. Ec3 *\n");
        assert_eq!(all.len(), 2);
        assert_eq!(moves(&all[0]), ["g1f3", "c7c5"]);
        assert_eq!(all[0].events[1], Event::Comment("a comment 1-0 [not a tag]".to_owned()));
    }

    #[test]
    fn a_huge_nag_is_an_error_not_a_failure() {
        let text = format!("1. Zf3 ${} *", "9".repeat(5000));
        let game = &games(&text)[0];
        assert_eq!(moves(game), ["g1f3"]);
        assert!(game.errors[0].message.contains("out of range"));
    }

    #[test]
    fn tag_values_unescape_and_line_breaks_are_reported() {
        let mut scanner = Scanner::new();
        assert!(!scanner.feed("[Event \"a \\\"b\\\" \\\\ c\"] [Site \"x\ry\"]\n"));
        let (tags, errors) = scanner.finish().unwrap().tags();
        assert_eq!(tags, vec![("Event".into(), "a \"b\" \\ c".into()), ("Site".into(), "x y".into())]);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("line break"));
    }

    #[test]
    fn variations_and_errors_keep_their_places() {
        let game = &games("1. Zf3 (1. Ec3 Ec5) (1. Zz9) Ec5 $1 2. cc3 *")[0];
        assert_eq!(moves(game), ["g1f3", "c1c3", "c7c5", "c7c5", "c2c3"]);
        assert_eq!(game.errors.len(), 1);
        assert_eq!(game.errors[0].at, 6);
        assert!(matches!(game.events[5], Event::BeginVariation));
    }

    #[test]
    fn bad_fen_and_other_variants_skip_the_moves() {
        let bad = &games("[FEN \"nonsense\"]\n\n1. Zf3 *")[0];
        assert!(bad.start.is_none() && bad.events.is_empty());
        assert!(bad.errors[0].message.contains("bad FEN tag"));
        let chess = &games("[Variant \"chess\"]\n\n1. e4 *")[0];
        assert!(chess.errors[0].message.contains("not Congo"));
    }

    #[test]
    fn tokens() {
        let mut t = Tokenizer::new("12... Mxd3xf5!? $14 ; rest\n% escape\n(1-0)", 1);
        let mut all = Vec::new();
        while let Some(token) = t.next_token() {
            all.push(token);
        }
        assert_eq!(
            all,
            [
                Token::MoveNumber,
                Token::Move("Mxd3xf5", "!?"),
                Token::Nag("14"),
                Token::LineComment(" rest"),
                Token::Open,
                Token::Result("1-0"),
                Token::Close
            ]
        );
        assert_eq!(t.line, 3);
    }
}
