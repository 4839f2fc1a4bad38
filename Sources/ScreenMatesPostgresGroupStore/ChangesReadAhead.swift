import ScreenMatesCore
import Synchronization

/// What a store that follows its groups by asking reads ahead for the look after each signal, so
/// that a member following a group behind a connection pooler costs the server one call every
/// 2 s, changes included, instead of two whenever something changed.
///
/// Each signal is followed by the group link's look, which asks what changed after the mark it
/// last saw (`readChanges`, one `group_changes_after`). So the store remembers, per group, what
/// that look will ask next — after the mark its last read reached, for the same days — and the
/// feed's question at each beat is that read itself: `group_changes_after` answers the marks
/// first, and nothing more when nothing moved, so it costs what asking for the change number
/// did. When the mark moved, its rows are kept for the look, which takes them instead of asking
/// the server again: once, only when it asks exactly that question, and only within `freshness`
/// of their answer (later, it asks the server). Rows are decoded where they are taken, so a row
/// left out is reported to the look that reads it.
///
/// Until a group's first read of changes (at first the look reads the group whole) there is
/// nothing to read ahead, and the feed asks for the change number alone.
final class ChangesReadAhead<Rows: Sendable>: Sendable {
    /// A `group_changes_after` question: after which mark, and the days of the sums.
    struct Question: Hashable, Sendable {
        var after: Int64
        var weekFirst: Int64?
        var weekLast: Int64?
        var monthFirst: Int64?
        var monthLast: Int64?
    }

    private struct Kept {
        var question: Question
        var rows: Rows
        var at: ContinuousClock.Instant
    }

    private struct Entry {
        /// What the group's reader asks next.
        var next: Question
        var kept: Kept?
    }

    private let entries = Mutex<[GroupCode: Entry]>([:])
    /// How long rows read ahead may wait for their look.
    let freshness: Duration

    init(freshness: Duration) {
        self.freshness = freshness
    }

    /// What to ask ahead for `code`: nil until its reader has read changes once.
    func nextQuestion(_ code: GroupCode) -> Question? {
        entries.withLock { $0[code]?.next }
    }

    /// The reader asked `question` and its answer reached `mark`: it asks after `mark` next.
    func read(_ code: GroupCode, question: Question, reaching mark: Int64) {
        var next = question
        next.after = mark
        entries.withLock { entries in
            if entries[code]?.next != next { entries[code] = Entry(next: next) }
        }
    }

    /// Keeps the answer to `question`, read ahead at `now`, for the look the signal brings.
    func keep(_ rows: Rows, answering question: Question, code: GroupCode, at now: ContinuousClock.Instant) {
        entries.withLock { entries in
            guard entries[code]?.next == question else { return }
            entries[code]?.kept = Kept(question: question, rows: rows, at: now)
        }
    }

    /// The rows kept for exactly `question`, if they are fresh; handed out once.
    func take(_ question: Question, code: GroupCode, at now: ContinuousClock.Instant) -> Rows? {
        entries.withLock { entries in
            guard let kept = entries[code]?.kept else { return nil }
            entries[code]?.kept = nil
            guard kept.question == question, kept.at.duration(to: now) <= freshness else { return nil }
            return kept.rows
        }
    }
}
