/// How likely a simulated person is to be on a vice or a productive app in each hour of the
/// day. Loaded from `assets/scenarios/*.json`; the simulated monitor draws each block from it.
public struct UsageProfile: Hashable, Sendable, Codable {
    public struct Hour: Hashable, Sendable, Codable {
        /// Probability that a block in this hour is spent on a vice app.
        public var vice: Double
        /// Probability that a block in this hour is spent on a productive app.
        public var productive: Double

        public init(vice: Double, productive: Double) {
            self.vice = vice
            self.productive = productive
        }
    }

    public var name: String
    public var summary: String
    /// Exactly 24 entries, for local hours 0…23.
    public var hours: [Hour]
    /// Probability that a block continues on the same app as the block before, which makes
    /// sessions rather than a random app every 15 minutes.
    public var stickiness: Double

    public init(name: String, summary: String = "", hours: [Hour], stickiness: Double = 0.6) {
        self.name = name
        self.summary = summary
        self.hours = hours
        self.stickiness = stickiness
    }

    /// Checks the shape: 24 hours, probabilities in 0…1 that sum to at most 1 per hour.
    public func validated() throws(UsageProfileError) -> UsageProfile {
        guard hours.count == 24 else { throw .wrongHourCount(name: name, count: hours.count) }
        for (hour, entry) in hours.enumerated() {
            guard (0...1).contains(entry.vice), (0...1).contains(entry.productive), entry.vice + entry.productive <= 1
            else { throw .badProbability(name: name, hour: hour) }
        }
        guard (0...1).contains(stickiness) else { throw .badProbability(name: name, hour: -1) }
        return self
    }
}

/// A usage profile that cannot be used, with where the problem is.
public enum UsageProfileError: Error, Hashable, Sendable {
    case wrongHourCount(name: String, count: Int)
    case badProbability(name: String, hour: Int)

    public var message: String {
        switch self {
        case .wrongHourCount(let name, let count):
            return "Usage profile \"\(name)\" must list 24 hours; it lists \(count)."
        case .badProbability(let name, let hour):
            if hour < 0 { return "Usage profile \"\(name)\": stickiness must be between 0 and 1." }
            return "Usage profile \"\(name)\", hour \(hour): vice and productive must be between 0 and 1 "
                + "and add up to at most 1."
        }
    }
}
