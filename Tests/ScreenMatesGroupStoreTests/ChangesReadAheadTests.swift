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
        let ahead = ReadAhead(freshness: .seconds(2))
        #expect(ahead.nextQuestion(code) == nil)
        ahead.read(code, question: question(after: 3), reaching: 7)
        #expect(ahead.nextQuestion(code) == question(after: 7), "after the mark the read reached, same days")
        #expect(ahead.nextQuestion(other) == nil)
    }

    @Test func theLookThatAsksExactlyWhatWasReadAheadTakesItOnce() {
        let ahead = ReadAhead(freshness: .seconds(2))
        ahead.read(code, question: question(after: 3), reaching: 7)
        ahead.keep(["marks 9", "bo"], answering: question(after: 7), code: code, at: start)
        #expect(ahead.take(question(after: 7), code: code, at: start + .milliseconds(5)) == ["marks 9", "bo"])
        #expect(ahead.take(question(after: 7), code: code, at: start + .milliseconds(6)) == nil, "handed out once")
    }

    @Test func anotherQuestionOrStaleRowsGoToTheServer() {
        let ahead = ReadAhead(freshness: .seconds(2))
        ahead.read(code, question: question(after: 3), reaching: 7)
        ahead.keep(["marks 9"], answering: question(after: 7), code: code, at: start)
        #expect(ahead.take(question(after: 8), code: code, at: start) == nil, "another mark")
        ahead.keep(["marks 9"], answering: question(after: 7), code: code, at: start)
        var otherDays = question(after: 7)
        otherDays.monthFirst = 20_390
        #expect(ahead.take(otherDays, code: code, at: start) == nil, "other days")
        ahead.keep(["marks 9"], answering: question(after: 7), code: code, at: start)
        #expect(ahead.take(question(after: 7), code: code, at: start + .milliseconds(2001)) == nil, "too old")
    }

    @Test func rowsAnsweringAQuestionTheReaderNoLongerAsksAreNotKept() {
        let ahead = ReadAhead(freshness: .seconds(2))
        ahead.read(code, question: question(after: 3), reaching: 7)
        // The beat asked after 7; meanwhile the look read on to 9 by itself.
        ahead.read(code, question: question(after: 7), reaching: 9)
        ahead.keep(["marks 9"], answering: question(after: 7), code: code, at: start)
        #expect(ahead.take(question(after: 7), code: code, at: start) == nil)
        #expect(ahead.nextQuestion(code) == question(after: 9))
    }
}
