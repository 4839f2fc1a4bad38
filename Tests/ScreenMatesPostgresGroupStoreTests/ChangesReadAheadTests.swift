import ScreenMatesCore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// What a store following by asking reads ahead for the look after each signal: only the question
/// that look will ask, handed out once, and only while fresh.
struct ChangesReadAheadTests {
    typealias ReadAhead = ChangesReadAhead<[String]>
    let code = try! GroupCode(validating: "ABCDEF")
    let other = try! GroupCode(validating: "GHJKLM")
    let start = ContinuousClock.now
    let week = ReadAhead.Question(after: 0, weekFirst: 20_400, weekLast: 20_405, monthFirst: nil, monthLast: nil)

    func question(after mark: Int64) -> ReadAhead.Question {
        var question = week
        question.after = mark
        return question
    }

    @Test func nothingIsAskedAheadBeforeTheGroupsFirstReadOfChanges() {
        let ahead = ReadAhead(freshness: .seconds(10))
        #expect(ahead.nextQuestion(code) == nil)
        ahead.read(code, question: question(after: 3), reaching: 7)
        #expect(ahead.nextQuestion(code) == question(after: 7), "after the mark the read reached, same days")
        #expect(ahead.nextQuestion(other) == nil)
    }

    /// Keeps an answer to `question` reaching `mark` (no row taken away since 1) at `at`.
    func keep(_ ahead: ReadAhead, _ rows: [String], after: Int64, mark: Int64, removal: Int64 = 1, at: Duration = .zero)
    {
        ahead.keep(
            rows, answering: question(after: after), mark: mark, lastRemoval: removal, code: code, at: start + at)
    }

    @Test func theLookThatAsksWhatWasReadAheadTakesItOnce() {
        let ahead = ReadAhead(freshness: .seconds(10))
        ahead.read(code, question: question(after: 3), reaching: 7)
        keep(ahead, ["marks 9", "bo"], after: 7, mark: 9)
        #expect(ahead.take(question(after: 7), code: code, at: start + .milliseconds(5)) == ["marks 9", "bo"])
        #expect(ahead.take(question(after: 7), code: code, at: start + .milliseconds(6)) == nil, "handed out once")
    }

    /// The beat asked after 7 while the look read on to 8 by itself: the beat's answer (every
    /// change after 7, up to 9) answers "after 8" too.
    @Test func anAnswerFromBeforeTheReaderReadOnStillServesAQuestionItCovers() {
        let ahead = ReadAhead(freshness: .seconds(10))
        ahead.read(code, question: question(after: 3), reaching: 7)
        keep(ahead, ["marks 9"], after: 7, mark: 9)
        ahead.read(code, question: question(after: 7), reaching: 8)
        #expect(ahead.nextQuestion(code) == question(after: 8))
        #expect(ahead.take(question(after: 8), code: code, at: start) == ["marks 9"])
    }

    @Test func anAnswerThatDoesNotCoverTheQuestionGoesToTheServer() {
        let ahead = ReadAhead(freshness: .seconds(10))
        ahead.read(code, question: question(after: 3), reaching: 7)
        keep(ahead, ["marks 9"], after: 7, mark: 9)
        #expect(ahead.take(question(after: 10), code: code, at: start) == nil, "asked after a later mark")
        keep(ahead, ["marks 9"], after: 7, mark: 9)
        #expect(ahead.take(question(after: 6), code: code, at: start) == nil, "asked after an earlier mark")
        keep(ahead, ["marks 9"], after: 7, mark: 9)
        var otherDays = question(after: 7)
        otherDays.monthFirst = 20_390
        #expect(ahead.take(otherDays, code: code, at: start) == nil, "other days")
        keep(ahead, ["marks 9"], after: 7, mark: 9)
        #expect(ahead.take(question(after: 7), code: code, at: start + .milliseconds(10_001)) == nil, "too old")
    }

    /// A row was taken away after 7: the answer says only the marks (read the group whole), which
    /// is right for "after 7" and wrong for "after 8".
    @Test func anAnswerAfterARemovalServesOnlyItsOwnQuestion() {
        let ahead = ReadAhead(freshness: .seconds(10))
        ahead.read(code, question: question(after: 3), reaching: 7)
        keep(ahead, ["marks 9"], after: 7, mark: 9, removal: 8)
        #expect(ahead.take(question(after: 8), code: code, at: start) == nil)
        keep(ahead, ["marks 9"], after: 7, mark: 9, removal: 8)
        #expect(ahead.take(question(after: 7), code: code, at: start) == ["marks 9"])
    }

    @Test func aNewerAnswerReplacesRowsStillWaiting() {
        let ahead = ReadAhead(freshness: .seconds(10))
        ahead.read(code, question: question(after: 3), reaching: 7)
        keep(ahead, ["marks 8"], after: 7, mark: 8)
        keep(ahead, ["marks 9"], after: 7, mark: 9, at: .seconds(2))
        #expect(ahead.take(question(after: 7), code: code, at: start + .seconds(5)) == ["marks 9"])
    }
}
