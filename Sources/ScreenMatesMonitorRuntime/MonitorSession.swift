import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesStore
import Synchronization

/// How `screenmates monitor` was asked to run.
public struct MonitorOptions: Sendable {
    public enum Rate: Sendable, Equatable {
        case perSecond(Double)
        case unlimited
    }

    public var seed: UInt64?
    public var count: Int?
    public var rate: Rate?
    public var speed: Double?
    public var startAt: Date?
    public var scenario: String?
    public var quiet: Bool

    public init(
        seed: UInt64? = nil, count: Int? = nil, rate: Rate? = nil, speed: Double? = nil, startAt: Date? = nil,
        scenario: String? = nil, quiet: Bool = false
    ) {
        self.seed = seed
        self.count = count
        self.rate = rate
        self.speed = speed
        self.startAt = startAt
        self.scenario = scenario
        self.quiet = quiet
    }
}

/// The usage monitor as its own process: writes events for the user's apps into the local
/// store and nothing else (it never talks to the group store).
///
/// Each event's id goes to standard output only after its transaction committed, so a line
/// printed is an event kept. Problems go to standard error as they start and end; events that
/// cannot be written wait and are retried until they are.
public final class MonitorSession: Sendable {
    private let store: LocalStore
    private let options: MonitorOptions
    private let logger: Logger
    private let clockChoice: ClockSource.Choice
    private let source: any UsageSource
    private let pace: MonitorRunner.Pace
    private let lastProblem = Mutex<String?>(nil)
    /// The tracked apps' names by id, for what the monitor says.
    private let appNames: [String: String]

    /// `home` must exist (`HomeDirectory.prepare`); its days are counted in `timeZone`.
    public init(
        home: HomeDirectory, assets: AssetCatalog, options: MonitorOptions, timeZone: TimeZoneSource, logger: Logger
    ) throws(AppError) {
        self.options = options
        self.logger = logger
        let opened = try OpenedHome.forRecording(
            home: home, assets: assets, timeZone: timeZone, command: "the monitor", speed: options.speed,
            startAt: options.startAt)
        store = opened.store
        clockChoice = opened.clock
        let settings = opened.settings
        if let group = settings.group, !options.quiet {
            // The monitor never talks to the group store (reporting is not its job); say who does.
            FileHandle.standardError.write(
                Data(
                    ("screenmates monitor: this home is in group \(group.code); the monitor only records usage. The group sees it "
                        + "while a dashboard or `screenmates sync --watch` runs; `screenmates sync` sends it once.\n")
                        .utf8))
        }
        appNames = Dictionary(settings.apps.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour)
        let seed =
            options.seed
            ?? (options.rate == nil ? DemoMonitor.seed(for: settings.userID) : UInt64.random(in: 0...UInt64.max))
        if let name = options.scenario {
            source = try assets.scenario(name).source(
                seed: seed, apps: settings.apps, blockMinutes: settings.rules.blockMinutes, calendar: calendar,
                start: clockChoice.clock.now())
        } else if options.rate != nil {
            source = RateSource(seed: seed, apps: settings.apps, blockMinutes: settings.rules.blockMinutes)
        } else {
            source = try assets.scenario("typical-day").source(
                seed: seed, apps: settings.apps, blockMinutes: settings.rules.blockMinutes, calendar: calendar,
                start: clockChoice.clock.now())
        }
        switch options.rate {
        case .perSecond(let rate): pace = .perSecond(rate)
        case .unlimited: pace = .unlimited
        case nil: pace = .appClock
        }
        guard !settings.apps.isEmpty || options.scenario != nil else {
            throw AppError("There are no apps to track. Add some with `screenmates setup --name NAME --vice APP …`.")
        }
    }

    /// Runs until the count is reached, the source runs dry, or `stop` is requested (it then
    /// finishes the write in hand and reports it: the request cancels the writing, which wakes
    /// it). Returns the exit status.
    public func run(stop: StopRequest) async -> Int32 {
        let quiet = options.quiet
        let referee = ChallengeReferee(clock: clockChoice.clock, timeZone: clockChoice.timeZone, logger: logger)
        let pruner = DailyPrune(clock: clockChoice.clock, timeZone: clockChoice.timeZone, logger: logger)
        let runner = MonitorRunner(
            sink: ReopeningEventSink(
                store: store,
                afterRecording: {
                    referee.settleSoon($0)
                    pruner.runIfDue($0)
                }),
            clock: clockChoice.clock,
            onRecorded: { events in
                guard !quiet else { return }
                let lines = events.map { $0.id.uuidString + "\n" }.joined()
                FileHandle.standardOutput.write(Data(lines.utf8))
            },
            onError: { [self] error in report(error) },
            onWaiting: { [self] event, seconds in
                if !quiet, seconds >= Self.sayWaitsFrom { say(waitingFor: event, seconds) }
            })
        logger.info(
            "monitor started", metadata: ["pace": "\(pace)", "count": "\(options.count.map(String.init) ?? "-")"])
        let (source, pace, limit) = (self.source, self.pace, options.count)
        let recorded = await stop.cancelling { await runner.run(source, pace: pace, limit: limit) }
        // What the last blocks decided, if a write came too soon after the one before to decide.
        if recorded > 0 { _ = try? referee.settle(store) }
        if clockChoice.published { ClockSource.withdraw(from: store) }
        logger.info("monitor stopped", metadata: ["recorded": "\(recorded)"])
        return stop.exitStatus ?? 0
    }

    /// Waits shorter than this go unsaid.
    static let sayWaitsFrom = 2.0

    /// Says on standard error what the monitor waits for, so a quiet one does not look hung:
    /// a realistic pace leaves minutes, even hours, between blocks.
    private func say(waitingFor event: UsageEvent, _ seconds: Double) {
        let calendar = DayCalendar(timeZone: clockChoice.timeZone.current())
        let (hour, minute) = calendar.hourAndMinute(of: event.occurredAt)
        let line =
            "screenmates monitor: the next block (\(SafeText.displayable(appNames[event.appID] ?? event.appID)), \(event.category.rawValue)) is due at "
            + "\(TimeFormat.clock(hour: hour, minute: minute)) on the app clock, in \(TimeFormat.countdown(seconds: seconds)); "
            + "--rate N writes N a second.\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Says on standard error when writing starts failing (once per kind of problem) and when
    /// it works again.
    private func report(_ error: (any Error)?) {
        let message = error.map { ($0 as? StoreError)?.message ?? String(describing: $0) }
        let changed = lastProblem.withLock { last -> Bool in
            defer { last = message }
            return last != message
        }
        guard changed else { return }
        if let message {
            logger.error("monitor cannot write: \(message)")
            FileHandle.standardError.write(Data("screenmates monitor: \(message) Retrying; nothing is lost.\n".utf8))
        } else {
            logger.info("monitor writes again")
            FileHandle.standardError.write(Data("screenmates monitor: writing again; waiting events are saved.\n".utf8))
        }
    }
}
