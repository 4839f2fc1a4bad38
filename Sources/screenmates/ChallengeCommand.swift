import ArgumentParser
import ScreenMatesGroupSync
import ScreenMatesHome

/// `screenmates challenge create | publish | join | list | show | when-opened | forfeit`.
struct ChallengeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge", abstract: "Challenges with coins at stake: your own, or your group's.",
        discussion: """
            A challenge holds you to a rule over a span of days: at most N blocks a day (of one app \
            or all vice apps), none of an app in quiet hours, or every day within the limit. It is \
            decided from your blocks the moment the rule is broken (the penalty) or when the span \
            ends (the reward), by whatever records them: the monitor, a dashboard, these commands. \
            A group challenge (create --group) is open to every member of your group until its first \
            day ends; each participant's part is decided from their own blocks, and the group sees \
            who is still in, who failed and who finished — never an app or a block of theirs. The group \
            store's owner may publish challenges open to everyone on the store (publish); anyone may join \
            one (join), and its board shows names and outcomes across groups.
            """,
        subcommands: [
            ChallengeCreateCommand.self, ChallengePublishCommand.self, ChallengeJoinCommand.self,
            ChallengeListCommand.self,
            ChallengeShowCommand.self, ChallengeWhenOpenedCommand.self, ChallengeForfeitCommand.self,
        ])
}

extension ChallengeHome {
    /// The home the command line names, opened on the clock `--speed` and `--start-at` choose.
    static func open(_ global: GlobalOptions, _ clock: ClockOptions) throws(AppError) -> ChallengeHome {
        try open(
            home: try global.resolveHome(), groupStore: global.groupStoreChoice, speed: clock.speed,
            startAt: clock.startInstant, timeZone: machineTimeZone)
    }
}
