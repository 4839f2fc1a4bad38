import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// A participant's standing in a challenge, and the challenge's leaderboard (`ChallengeStandings`).
@Suite struct ParticipantStandingTests {
    /// Property 16: a participant's standing only moves forward: the first decided state is
    /// kept for good, and while still in the days kept never go down.
    @Test func aParticipantsStandingOnlyMovesForward() async {
        await propertyCheck(count: 100, input: GroupGameTests.reports) { reports in
            var standing = ParticipantStanding(
                userID: UserID("u1"), name: "bo", state: .stillIn, daysKept: 0, joinedAt: GroupGameTests.at0)
            var firstDecision: ParticipantState?
            for (index, (state, days)) in reports.enumerated() {
                let before = standing
                if let next = standing.taking(
                    state: state, daysKept: days, decidedAt: GroupGameTests.at0.addingTimeInterval(Double(index)))
                {
                    standing = next
                }
                if before.state.isDecided { #expect(standing == before, "a decided standing never changes") }
                if !standing.state.isDecided { #expect(standing.daysKept >= before.daysKept) }
                if firstDecision == nil && state.isDecided { firstDecision = state }
            }
            #expect(standing.state == (firstDecision ?? .stillIn))
        }
    }

    /// Property 16: the participants' leaderboard is ordered (finished, still in, failed, gave
    /// up; more days first), its ranks count who is strictly ahead, and it does not depend on
    /// the order the participants come in.
    @Test func theParticipantsLeaderboardIsOrdered() async {
        let standings = Generator<[ParticipantStanding], Shrink.None<[ParticipantStanding]>> { rng in
            (0..<Int.random(in: 0...12, using: &rng)).map { index in
                let state = ParticipantState.allCases.randomElement(using: &rng)!
                return ParticipantStanding(
                    userID: UserID("u\(index)"), name: ["ana", "bo", "Cy", "dee"].randomElement(using: &rng)!,
                    state: state,
                    daysKept: Int.random(in: 0...3, using: &rng), joinedAt: GroupGameTests.at0,
                    decidedAt: state.isDecided
                        ? GroupGameTests.at0.addingTimeInterval(Double(Int.random(in: 0...3, using: &rng))) : nil)
            }
        }
        await propertyCheck(count: 100, input: standings) { standings in
            let ranked = ChallengeStandings.rank(standings)
            #expect(ranked.count == standings.count)
            func key(_ s: ParticipantStanding) -> (Int, Int) {
                (ParticipantState.allCases.firstIndex(of: s.state).map { [1, 0, 2, 3][$0] }!, -s.daysKept)
            }
            for (a, b) in zip(ranked, ranked.dropFirst()) {
                #expect(key(a.standing) <= key(b.standing))
                #expect(a.rank <= b.rank)
            }
            for entry in ranked {
                let ahead = standings.filter { key($0) < key(entry.standing) }.count
                #expect(entry.rank == ahead + 1)
            }
            #expect(ChallengeStandings.rank(standings.reversed()).map(\.standing) == ranked.map(\.standing))
        }
    }
}
