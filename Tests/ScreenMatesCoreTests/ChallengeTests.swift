import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// A challenge made of its parameters says what is wrong with it.
@Suite struct ChallengeTests {
    @Test func aChallengeSaysWhatIsWrongWithIt() {
        #expect(ChallengeJudgeTests.challenge(.streak, days: 0).problem?.contains("1 to 365") == true)
        #expect(
            ChallengeJudgeTests.challenge(.dailyBlocks(max: 97, target: .allVice)).problem?.contains("0 to 96") == true)
        let noon = TimeOfDay(hour: 12, minute: 0)!
        #expect(ChallengeJudgeTests.challenge(.quietHours(target: .allVice, from: noon, until: noon)).problem != nil)
        #expect(ChallengeJudgeTests.challenge(.streak).problem == nil)
        #expect(TimeOfDay(parsing: "22:30")?.text == "22:30")
        for bad in ["24:00", "7:00", "22:60", "2230", "", "ab:cd", "-1:00"] { #expect(TimeOfDay(parsing: bad) == nil) }
    }
}
