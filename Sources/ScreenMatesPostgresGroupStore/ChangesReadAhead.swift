import ScreenMatesCore
import Synchronization

/// What a store that follows its groups by asking reads ahead for the look after each signal, so
/// that a member following a group behind a connection pooler costs the server one call every
/// 2 s, changes included, instead of two whenever something changed.
///
/// Each signal is followed by the group link's look, which asks what changed after the mark it
/// last saw (`readChanges`, one `group_changes_and_games_after`). So the store remembers, per group, what
/// that look will ask next — after the mark its last read reached, for the same days — and the
/// feed's question at each beat is that read itself: `group_changes_and_games_after` answers the marks
/// first, and nothing more when nothing moved. When the mark moved, its rows are kept for the
/// look, which takes them instead of asking the server again: once, and only when it asks exactly
/// that question — or, when the reader has read on meanwhile, a later one the answer covers
/// (`Kept.answers`): a beat's answer that takes longer than the beat (a busy server) must still
/// serve. Rows waiting for a look that is slow to come (a busy machine) are replaced at
/// each beat by the newer answer to the same question, so they are about a beat old at most;
/// rows older than `freshness` (no beat since: the feed stopped) go unused. A slow look must not
/// cost a second call, or a busy server gets busier. Rows are decoded where they are taken, so a
/// row left out is reported to the look that reads it.
///
/// Until a group's first read of changes (at first the look reads the group whole) there is
/// nothing to read ahead, and the feed asks for the change number alone.
final class ChangesReadAhead<Rows: Sendable>: Sendable {
    /// A `group_changes_and_games_after` question: after which mark, and the days of the sums.
    struct Question: Hashable, Sendable {
        var after: Int64
        var weekFirst: Int64?
        var weekLast: Int64?
        var monthFirst: Int64?
        var monthLast: Int64?
    }

    /// An answer read ahead: to `question`, reaching the change number `mark`.
    private struct Kept {
        var question: Question
        var mark: Int64
        /// Whether it holds every change after its question's mark (no row was taken away since).
        var complete: Bool
        var rows: Rows
        var at: ContinuousClock.Instant

        /// Whether it answers `asked` as the server would now have, as of its beat: the same
        /// question, or — holding every change after an earlier mark, up to one at least as late
        /// as the one asked after — a later one for the same days. Such an answer holds some rows
        /// the reader has already (as they are now), which merging takes again as they are.
        func answers(_ asked: Question) -> Bool {
            if asked == question { return true }
            var sameDays = asked
            sameDays.after = question.after
            return sameDays == question && complete && question.after <= asked.after && asked.after <= mark
        }
    }

    private struct Entry {
        /// What the group's reader asks next.
        var next: Question?
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
        entries.withLock { $0[code, default: Entry()].next = next }
    }

    /// Keeps the answer to `question` read ahead at `now` — reaching `mark`, with the last removal
    /// at `lastRemoval` — for the look the signal brings; it replaces any answer kept before.
    func keep(
        _ rows: Rows, answering question: Question, mark: Int64, lastRemoval: Int64, code: GroupCode,
        at now: ContinuousClock.Instant
    ) {
        let kept = Kept(
            question: question, mark: mark, complete: lastRemoval <= question.after, rows: rows, at: now)
        entries.withLock { $0[code, default: Entry()].kept = kept }
    }

    /// The rows kept that answer `question` (see `Kept.answers`), if they are fresh; handed out
    /// once. Rows that do not answer it are let go.
    func take(_ question: Question, code: GroupCode, at now: ContinuousClock.Instant) -> Rows? {
        entries.withLock { entries in
            guard let kept = entries[code]?.kept else { return nil }
            entries[code]?.kept = nil
            guard kept.answers(question), kept.at.duration(to: now) <= freshness else { return nil }
            return kept.rows
        }
    }
}
