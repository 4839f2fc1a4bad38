import Foundation
import ScreenMatesGroupStore
import ScreenMatesPostgresGroupStore

/// What a scale sitting is asked to do and what it found.
extension ScaleBenchmark {
    /// How large a run is.
    struct Plan: Sendable {
        var members: Int
        /// Members per group (the last group may have fewer).
        var groupSize: Int
        /// The compressed day the reports are spread over.
        var seconds: Double
        /// Profile reports each member sends over the day.
        var reports: Int
        /// Whether the members exchange the games too, as the dashboard's link does.
        var games: Games = .none
    }

    /// The games a member's dashboard reads at each move of its group's change number
    /// (`GroupGames.fetch`: the change marks, the settlement rules, and the challenges, coins and
    /// week results changed since), with the week's settlement before them at every move
    /// (`settleAlways`, as the link once did) or only after the member's own writes and on the
    /// day's first exchange (`settleOwn`); `marked` settles only after the member sent finished
    /// days and on the day's first exchange (`GroupLinkStep.settles`), and first asks for the games'
    /// own change number, reading the rest only when it moved past what the member read (as the
    /// dashboard does now).
    enum Games: String, Sendable, CaseIterable {
        case none
        case settleAlways = "settle-always"
        case settleOwn = "settle-own"
        case marked
    }

    /// Where the members connect, and where the server's figures come from.
    struct Route: Sendable {
        /// The server as its superuser: databases and roles are made through it.
        var server: PostgresAddress
        /// A pooler in front of the server, for the members; nil for directly.
        var pooler: PostgresAddress?
    }

    struct Result {
        var plan: Plan
        var groups: Int
        /// Members whose first look succeeded before the day ended.
        var watching: Int
        /// The most connections to the run's database that `pg_stat_activity` showed.
        var serverConnections: Int
        /// Reports whose profile write returned, and every write that did (profiles and totals).
        var profileWrites: Int
        var writes: Int
        var failedWrites: Failures
        var failedLooks: Failures
        /// From a profile write returning to a mate's look having read it, per (write, mate).
        var latencyMillis: [Double]
        /// (profile write, mate) pairs never seen by the end.
        var unseen: Int
        /// How long each look that found a change took, from its first call to its last answer.
        var lookMillis: [Double]
        var looks: Int
        var wholeLooks: Int
        var lookRows: Int
        var lookBytes: Int
        /// Every write counted once per other member of the writer's group.
        var mateWrites: Int
        var serverCPUSeconds: Double
        var poolerCPUSeconds: Double?
        /// This process's: the members' side, all of them.
        var clientCPUSeconds: Double
        /// Calls the members' stores made to the server's functions, from their start to the end.
        var serverCalls: Int
        var gameExchanges: Int
        var settlements: Int
        var measuredSeconds: Double
        /// From the first member's start to the day's: every member's first look (with its games).
        var warmUpSeconds: Double = 0
    }

    /// Failed operations by kind, with one message of each.
    struct Failures: Sendable {
        var counts: [String: Int] = [:]
        var examples: [String: String] = [:]

        mutating func add(_ error: any Error) {
            let message = (error as? GroupStoreError)?.message ?? String(describing: error)
            let kind = String(String(describing: error).prefix { $0 != "(" })
            counts[kind, default: 0] += 1
            if examples[kind] == nil { examples[kind] = String(message.prefix(160)) }
        }

        mutating func merge(_ other: Failures) {
            for (kind, count) in other.counts {
                counts[kind, default: 0] += count
                if examples[kind] == nil { examples[kind] = other.examples[kind] }
            }
        }

        var total: Int { counts.values.reduce(0, +) }

        var summary: String {
            counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key) (\(examples[$0.key] ?? ""))" }
                .joined(separator: "; ")
        }
    }

    /// What one member's watcher saw: each look's rows, and when each profile version showed.
    struct Sightings: Sendable {
        var looks = 0
        /// Looks that read the group whole (the first, and after a removal).
        var wholeLooks = 0
        var rows = 0
        var bytes = 0
        var firstLook = false
        var failures = Failures()
        /// How long each look that found a change took.
        var lookMillis: [Double] = []
        /// Exchanges of the games, and the settlements among them.
        var gameExchanges = 0
        var settlements = 0
        /// (member index, version, when the look that read it ended).
        var seen: [(member: Int, version: Int64, at: ContinuousClock.Instant)] = []
    }

    /// What a member's games exchanges have seen: the group's change number at the last one, and
    /// the one the games' rows were read up to (nil: read them whole).
    struct GamesSeen: Sendable {
        var exchangedMark: Int64?
        var readUpTo: Int64?
        var settled = false
    }
}
