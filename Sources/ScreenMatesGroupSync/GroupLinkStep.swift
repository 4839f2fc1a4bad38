import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore

/// Every decision of the group link, as the dashboard's `update` takes its own: a pure step from
/// the link's state and what just happened to the new state and what to do next
/// (`GroupLinkStep.Effect`), which `GroupLink`, the actor, only carries out.
///
/// A look at the group is one run of steps: a trigger comes in; the store is opened if it is not;
/// the profile is sent if it changed, then the finished days, then the group is read, then the
/// games are exchanged if the group's change mark moved (or a poke asks); the screen is told once,
/// at the end, never half of it. Each step asks for at most one call to the store, whose outcome
/// is the next event. What fails decides the rest: a refusal is said on the screen and the look
/// goes on; a write the store cannot take now makes the look's other writes wait and only read;
/// a store out of reach ends the look offline, and a retry is asked for after a back-off.
public struct GroupLinkStep: Sendable {
    /// What starts a look.
    public enum Trigger: Sendable, Hashable, CustomStringConvertible {
        /// The profile to report changed.
        case report
        /// The member's numbers changed: their games are exchanged.
        case poke
        /// The store's change signal: another member (or this one) wrote.
        case changed
        case retry
        /// Report and fetch now, whatever seems to have changed (the key `u`).
        case sync

        public var description: String {
            switch self {
            case .report: "report"
            case .poke: "poke"
            case .changed: "changed"
            case .retry: "retry"
            case .sync: "sync"
            }
        }
    }

    /// What happened: a trigger, or what a call to the store the last step asked for came to.
    public enum Event: Sendable {
        /// `draft`: the profile to report now; `today`: the user's day now, for a look before
        /// anything was reported; `gamesDay`: the day on the games' calendar.
        case trigger(Trigger, draft: ProfileDraft?, today: LocalDate, gamesDay: LocalDate)
        case opened
        case profileSent(version: Int64, at: Date)
        case daysSent([LocalDate])
        /// The group read, and how the store's changes reach the link.
        case looked(GroupLook, following: ChangeFollowing?)
        case gamesExchanged(GroupGamesSnapshot, waiting: GroupStoreError?)
        /// The link is stopping: the games were not exchanged.
        case gamesSkipped
        /// The call the last step asked for failed.
        case failed(GroupStoreError)
    }

    /// What the link does. At most one call to the store per step, always the last effect.
    public enum Effect: Sendable {
        // Calls to the store; each one's outcome is the next event.
        case open
        case sendProfile(ProfileDraft)
        case sendDays
        case look(today: LocalDate, previous: GroupSnapshot?)
        /// `writing` false: only a read of the games.
        case exchangeGames(writing: Bool, settling: Bool, known: GroupGamesMarks?, previous: GroupGamesSnapshot?)
        // The local store and the link's own tasks.
        case recordSent(version: Int64)
        case markSent([LocalDate])
        case cache(GroupSnapshot)
        /// Stop watching the store and close it.
        case dropStore
        /// Trigger `.retry` after the back-off for this many failures in a row.
        case retry(afterFailures: Int)
        // What others see.
        case publish(GroupLink.Status)
        case log(Logger.Level, String, metadata: [String: String] = [:])
        /// The rows left out of the group or its games that were not left out before, logged once.
        case logLeftOut([LeftOutRow], previously: [LeftOutRow]?)

        /// Whether the effect is a call to the store, whose outcome is the next event.
        public var callsTheStore: Bool {
            switch self {
            case .open, .sendProfile, .sendDays, .look, .exchangeGames: true
            default: false
            }
        }
    }

    /// The look under way, from its trigger to the screen being told.
    struct Look: Sendable {
        enum Stage: Sendable { case opening, profile, days, reading, games }
        var trigger: Trigger
        var stage: Stage = .opening
        var wanted: ProfileDraft?
        var today: LocalDate
        var gamesDay: LocalDate
        var synced: Date?
        var daysSent = false
        var problem: String?
        /// A write the store could not take now: the look's other writes wait for the retry.
        var waiting: GroupStoreError?
        var fresh: GroupSnapshot?
        var mark: Int64?
        var games: GroupGamesSnapshot?
        var settling = false
        var following: ChangeFollowing?
    }

    /// What the screen shows; the link publishes it when a look changed it.
    public private(set) var status: GroupLink.Status
    /// A store is open (and watched).
    private(set) var storeOpen = false
    /// The group's change mark at the last look at this store; nil: the next look reads it whole.
    private(set) var lastMark: Int64?
    /// The change mark at the last exchange of the games.
    private(set) var exchangedMark: Int64?
    /// The games were read at the last look, but what this member tells the group of them was
    /// not taken (the store busy): the next look exchanges them whatever the mark says.
    private(set) var gamesOwed = false
    /// The day (on the games' calendar) the group's weeks were last settled on with this store.
    private(set) var settledOn: LocalDate?
    /// The profile last reported (or refused: it is not sent again until it changes).
    private(set) var reported: ProfileDraft?
    /// Failed tries in a row (of a report or a look), for the next one's wait.
    private(set) var failures = 0
    private(set) var look: Look?

    public init(status: GroupLink.Status) {
        self.status = status
    }

    /// The one step: the state moved on by `event`, and what to do.
    public mutating func step(_ event: Event) -> [Effect] {
        switch event {
        case .trigger(let trigger, let draft, let today, let gamesDay):
            return start(trigger, draft: draft, today: today, gamesDay: gamesDay)
        case .opened:
            storeOpen = true
            lastMark = nil
            exchangedMark = nil
            settledOn = nil
            return sendProfileOrDays()
        case .profileSent(let version, let now):
            look?.synced = now
            reported = look?.wanted
            return [.recordSent(version: version)] + sendDaysOrRead()
        case .daysSent(let days):
            guard !days.isEmpty else { return read() }
            look?.daysSent = true
            return [.markSent(days)] + read()
        case .looked(let result, let following):
            return looked(result, following: following)
        case .gamesExchanged(let snapshot, let waiting):
            return exchanged(snapshot, waiting: waiting)
        case .gamesSkipped:
            return finish()
        case .failed(let error):
            return failed(error)
        }
    }

    private mutating func start(_ trigger: Trigger, draft: ProfileDraft?, today: LocalDate, gamesDay: LocalDate)
        -> [Effect]
    {
        if trigger == .sync {
            lastMark = nil
            exchangedMark = nil
            settledOn = nil
            reported = nil
        }
        look = Look(trigger: trigger, wanted: draft, today: draft?.day ?? today, gamesDay: gamesDay)
        guard storeOpen else { return [.open] }
        return sendProfileOrDays()
    }

    private mutating func sendProfileOrDays() -> [Effect] {
        if let wanted = look?.wanted, wanted != reported {
            look?.stage = .profile
            return [.sendProfile(wanted)]
        }
        return sendDaysOrRead()
    }

    private mutating func sendDaysOrRead() -> [Effect] {
        guard look?.waiting == nil else { return read() }
        look?.stage = .days
        return [.sendDays]
    }

    private mutating func read() -> [Effect] {
        guard let current = look else { return [] }
        look?.stage = .reading
        return [.look(today: current.today, previous: lastMark == nil ? nil : status.snapshot)]
    }

    private mutating func looked(_ result: GroupLook, following: ChangeFollowing?) -> [Effect] {
        guard var current = look else { return [] }
        let mark = result.snapshot.mark
        var effects: [Effect] = [
            .log(
                .debug, "group link: \(current.trigger) handled",
                metadata: ["mark": "\(mark ?? -1)", "seen": "\(lastMark ?? -1)", "whole": "\(result.whole)"])
        ]
        if result.changed {
            effects.append(.logLeftOut(result.snapshot.leftOut, previously: status.snapshot?.leftOut))
            current.fresh = result.snapshot
        }
        current.mark = mark
        current.following = following
        lastMark = mark
        // The games follow the same mark; a poke exchanges them whatever it says.
        guard current.trigger == .poke || mark != exchangedMark || gamesOwed else {
            look = current
            return effects + finish()
        }
        current.settling = Self.settles(
            poked: current.trigger == .poke, sentDays: current.daysSent, settledOn: settledOn,
            today: current.gamesDay)
        current.stage = .games
        look = current
        return effects + [
            .exchangeGames(
                writing: current.waiting == nil, settling: current.settling, known: result.games,
                previous: exchangedMark == nil ? nil : status.games)
        ]
    }

    private mutating func exchanged(_ snapshot: GroupGamesSnapshot?, waiting: GroupStoreError?) -> [Effect] {
        guard var current = look else { return [] }
        var effects: [Effect] = []
        if let snapshot {
            effects.append(.logLeftOut(snapshot.leftOut, previously: status.games?.leftOut))
            current.games = snapshot
        }
        if current.settling, current.waiting == nil, waiting == nil { settledOn = current.gamesDay }
        exchangedMark = current.mark
        gamesOwed = current.waiting != nil || waiting != nil
        current.waiting = current.waiting ?? waiting
        look = current
        return effects + finish()
    }

    /// The look's end: the screen told what it changed, all at once; the group cached after the
    /// screen has it (a large group takes a moment to write); a retry if a write waits.
    private mutating func finish() -> [Effect] {
        guard let current = look else { return [] }
        look = nil
        var effects = publish {
            if let fresh = current.fresh { $0.snapshot = fresh }
            if let games = current.games { $0.games = games }
            if let synced = current.synced { $0.lastSyncedAt = synced }
            if current.daysSent { $0.unsyncedDays = 0 }
            $0.offline = false
            $0.following = current.following
            $0.busy = current.waiting != nil
            $0.problem = current.problem
        }
        if let fresh = current.fresh { effects.append(.cache(fresh)) }
        if let waiting = current.waiting {
            effects.append(.log(.warning, "group store took no report now, trying again: \(waiting.message)"))
            failures += 1
            effects.append(.retry(afterFailures: failures))
        } else {
            failures = 0
        }
        return effects
    }

    private mutating func failed(_ error: GroupStoreError) -> [Effect] {
        guard var current = look else { return [] }
        switch current.stage {
        case .profile:
            // A report the store refuses (a name, a day its clock does not have) is said on the
            // screen, and one it cannot take now (a member's open transaction holding the group
            // past the lock timeout) is tried again later; either way the group is still read:
            // one member's numbers must not freeze everyone else's board.
            var effects: [Effect] = []
            if error.isTransient {
                current.waiting = error
            } else {
                effects.append(.log(.error, "group store refused the profile: \(error.message)"))
                current.problem = Self.problem(error)
                reported = current.wanted
            }
            look = current
            return effects + sendDaysOrRead()
        case .days:
            var effects: [Effect] = []
            if error.isTransient {
                current.waiting = error
            } else {
                effects.append(.log(.error, "group store refused the finished days: \(error.message)"))
                current.problem = current.problem ?? Self.problem(error)
            }
            look = current
            return effects + read()
        case .games:
            // The group was just read: a store that cannot take the exchange now (a file locked)
            // is busy, and the exchange is tried again; a refusal is logged, the group stays.
            guard error.isTransient else {
                return [.log(.error, "group games: \(error.message)")] + exchanged(nil, waiting: nil)
            }
            current.waiting = current.waiting ?? error
            look = current
            return finish()
        case .opening, .reading:
            return lookFailed(error, current)
        }
    }

    /// The store could not be opened or the group not read: nothing of the look reaches the
    /// screen but what was sent.
    private mutating func lookFailed(_ error: GroupStoreError, _ current: Look) -> [Effect] {
        look = nil
        func sent(_ status: inout GroupLink.Status) {
            if let synced = current.synced { status.lastSyncedAt = synced }
            if current.daysSent { status.unsyncedDays = 0 }
        }
        if case .busy = error {
            // The store answered but could not be read now (a migration waiting for a file
            // another program keeps locked): it is busy, not out of reach. The screen keeps the
            // group it has, and the look is tried again.
            failures += 1
            return [.log(.warning, "group store could not be read now, trying again: \(error.message)")]
                + publish {
                    sent(&$0)
                    $0.offline = false
                    $0.busy = true
                } + [.retry(afterFailures: failures)]
        }
        if error.isTransient {
            let said: [Effect] = status.offline ? [] : [.log(.warning, "group store unreachable: \(error.message)")]
            storeOpen = false
            failures += 1
            return said + [.dropStore]
                + publish {
                    sent(&$0)
                    $0.offline = true
                    // Waiting for the store's owner is not the network: the screen says so.
                    if case .awaitingApproval = error { $0.problem = error.message }
                } + [.retry(afterFailures: failures)]
        }
        // Not "offline": the store answered, and someone must act (a name taken, a login
        // refused…). The update stays; the next change tries again.
        return [.log(.error, "group store: \(error.message)")]
            + publish {
                sent(&$0)
                $0.offline = false
                $0.problem = Self.problem(error)
            }
    }

    /// The status changed by `change`, published when it changed.
    private mutating func publish(_ change: (inout GroupLink.Status) -> Void) -> [Effect] {
        let before = status
        change(&status)
        return status != before ? [.publish(status)] : []
    }

    /// Whether an exchange of the games settles the group's weeks first. Settling locks the
    /// group's row and counts its weeks: done at every move of the mark by every member, a
    /// 50-member group's change had 50 members queue for that lock. A mate's change needs none
    /// of it from this member, and nor does this member's own profile (today's numbers are in no
    /// closed week): the weeks are settled by whoever sent finished days (a late day total
    /// recounts a pending week when its writer settles after it), and once a day by each member
    /// (a week that closed, the day totals kept); a poke settles too.
    static func settles(poked: Bool, sentDays: Bool, settledOn: LocalDate?, today: LocalDate) -> Bool {
        poked || sentDays || settledOn != today
    }

    /// What the dashboard's one-line warning says: a store that cannot be used is said by its
    /// reason (the server's words first), not its URL, which would fill the line.
    static func problem(_ error: GroupStoreError) -> String {
        guard case .unusable(_, let detail) = error else { return error.message }
        return "group store: " + detail
    }
}
