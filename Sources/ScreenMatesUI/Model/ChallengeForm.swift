import ScreenMatesCore

/// The challenges screen's form for a new challenge: every field chosen with the arrows (no
/// typing), each value always one the rules accept, so what `enter` asks for can be created.
public struct ChallengeForm: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case atMost = "at most N blocks a day"
        case quiet = "quiet hours"
        case streak = "every day within the limit"
    }

    public enum Field: String, Hashable, Sendable, CaseIterable {
        case kind = "rule"
        case blocks = "blocks a day"
        case from = "quiet from"
        case until = "quiet until"
        case app = "apps"
        case days = "days"
        case reward = "reward"
        case penalty = "penalty"
        case start = "starts"
        case share = "for"
    }

    public var kind = Kind.atMost
    public var blocks = 2
    public var from = TimeOfDay(hour: 22, minute: 0)!
    public var until = TimeOfDay(hour: 7, minute: 0)!
    /// The app's id; nil for all vice apps.
    public var app: String?
    public var days = 7
    public var reward = 50
    public var penalty = 25
    public var startNow = false
    public var shared = false
    public var field = Field.kind

    public init() {}

    /// The fields this kind of rule has, in order (sharing only in a group).
    public func fields(inGroup: Bool) -> [Field] {
        var fields: [Field] = [.kind]
        switch kind {
        case .atMost: fields += [.blocks, .app]
        case .quiet: fields += [.from, .until, .app]
        case .streak: break
        }
        fields += [.days, .reward, .penalty, .start]
        if inGroup { fields.append(.share) }
        return fields
    }

    /// Moves to the next or previous field.
    mutating func move(_ delta: Int, inGroup: Bool) {
        let fields = fields(inGroup: inGroup)
        let index = fields.firstIndex(of: field) ?? 0
        field = fields[min(max(index + delta, 0), fields.count - 1)]
    }

    /// Steps the selected field's value (`delta` is +1 or -1). Apps a group challenge would
    /// share are those not hidden.
    mutating func step(_ delta: Int, apps: [TrackedApp], inGroup: Bool) {
        func stepped(_ value: Int, by amount: Int, in range: ClosedRange<Int>) -> Int {
            min(max(value + delta * amount, range.lowerBound), range.upperBound)
        }
        func shifted(_ time: TimeOfDay) -> TimeOfDay {
            let minutes = ((time.minutes + delta * 30) % 1440 + 1440) % 1440
            return TimeOfDay(hour: minutes / 60, minute: minutes % 60)!
        }
        switch field {
        case .kind:
            let all = Kind.allCases
            kind = all[((all.firstIndex(of: kind)! + delta) % all.count + all.count) % all.count]
        case .blocks: blocks = stepped(blocks, by: 1, in: Challenge.maxBlocksRange)
        case .from:
            from = shifted(from)
            if from == until { from = shifted(from) }
        case .until:
            until = shifted(until)
            if from == until { until = shifted(until) }
        case .app:
            let choices: [String?] = [nil] + choosable(apps).map(\.id)
            let index = choices.firstIndex(of: app) ?? 0
            app = choices[((index + delta) % choices.count + choices.count) % choices.count]
        case .days: days = stepped(days, by: 1, in: Challenge.daysRange)
        case .reward: reward = stepped(reward, by: 5, in: Challenge.coinsRange)
        case .penalty: penalty = stepped(penalty, by: 5, in: Challenge.coinsRange)
        case .start: startNow.toggle()
        case .share:
            guard inGroup else { return }
            shared.toggle()
            // A hidden app's name never leaves the machine: a shared challenge cannot name it.
            if shared, let app, !choosable(apps).contains(where: { $0.id == app }) { self.app = nil }
        }
        if !fields(inGroup: inGroup).contains(field) { field = .kind }
    }

    /// The apps the form offers: the vice apps, and only those not hidden when it is shared.
    func choosable(_ apps: [TrackedApp]) -> [TrackedApp] {
        apps.filter { $0.category == .vice && !(shared && $0.hidden) }
    }

    /// The selected field's value, in words.
    public func value(of field: Field, apps: [TrackedApp]) -> String {
        switch field {
        case .kind: kind.rawValue
        case .blocks: "\(blocks)"
        case .from: from.text
        case .until: until.text
        case .app: app.map { id in apps.first { $0.id == id }?.name ?? id } ?? "all vice apps"
        case .days: "\(days)"
        case .reward: "+\(reward) coins"
        case .penalty: "-\(penalty) coins"
        case .start: startNow ? "now" : "at the next day start"
        case .share: shared ? "the group (everyone may join)" : "just me"
        }
    }

    /// What `enter` asks the application to create.
    public var request: ChallengeRequest {
        let target = app.map(ChallengeTarget.app) ?? .allVice
        let rule: ChallengeRule =
            switch kind {
            case .atMost: .dailyBlocks(max: blocks, target: target)
            case .quiet: .quietHours(target: target, from: from, until: until)
            case .streak: .streak
            }
        return ChallengeRequest(
            rule: rule, days: days, reward: reward, penalty: penalty, startNow: startNow, shared: shared)
    }
}
