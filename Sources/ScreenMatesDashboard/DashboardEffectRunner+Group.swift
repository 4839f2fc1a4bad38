import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome

/// The effects of the user's group: where it lives, the one link to it, the games it exchanges
/// and the actions asked for on the group and challenge screens (in the background; their
/// outcomes come back through the inbox).
extension DashboardEffectRunner {
    /// Where the group joined through `remembered` lives (`SessionGroupStores` says which store);
    /// a remembered store is resolved once, so the group link and the open challenges' watch
    /// share it.
    func groupStore(remembered: String?) -> GroupStoreLocation {
        groupStores.location(remembered: remembered) { remembered in
            let home = dependencies.home
            let remembered = remembered ?? home.namedGroupStore
            if let resolved = resolvedGroupStores[remembered ?? ""] { return resolved }
            let resolved =
                (try? GroupStoreLocation.resolve(
                    option: nil, environment: dependencies.options.environment, home: home, remembered: remembered,
                    named: false)) ?? .sqlite(path: home.path + "/group-store.sqlite")
            resolvedGroupStores[remembered ?? ""] = resolved
            return resolved
        }
    }

    /// Connects to the group `settings` name, if any (after leaving the link there was): one
    /// link, owned by the session's tasks; and watches the challenges open to all, in a group or
    /// not.
    func connectGroup(_ settings: UserSettings) -> DashboardEvent {
        disconnectGroup()
        watchOpenChallenges(settings)
        guard let membership = settings.group else { return .groupConnected(nil) }
        let inbox = self.inbox
        let link = GroupLink(
            local: store, location: groupStore(remembered: membership.store), membership: membership,
            userID: settings.userID, clock: clock, timeZone: dependencies.timeZone, logger: logger,
            onChange: { inbox.post(.groupChanged($0)) })
        tasks.start { await link.run() }
        groupLink = link
        return .groupConnected(link.status)
    }

    func disconnectGroup() {
        groupLink?.stop()
        groupLink = nil
        openWatch?.stop()
        openWatch = nil
    }

    /// Starts the watch on the challenges open to all on the user's group store, owned by the
    /// session's tasks, once they take part in one (nothing runs for them before).
    func watchOpenChallenges(_ settings: UserSettings) {
        let calendar = DayCalendar(timeZone: dependencies.timeZone.current(), dayStartHour: settings.dayStartHour)
        guard openWatch == nil,
            let open = OpenChallenges.joined(local: store, settings: settings, clock: clock, calendar: calendar)
        else { return }
        let inbox = self.inbox
        let watch = OpenChallengeWatch(
            open: open,
            location: groupStore(remembered: settings.group?.store), logger: logger,
            onChange: { inbox.post(.openBoardsChanged) })
        tasks.start { await watch.run() }
        openWatch = watch
    }

    /// What the game screens need: the store, the clock, the day, the group's games.
    func gamesSupport(_ state: DashboardState) -> HomeGames {
        let settings = state.figures.settings
        let calendar = state.figures.calendar
        return HomeGames(
            local: store, clock: clock, calendar: calendar,
            games: settings.group.map {
                GroupGames(local: store, membership: $0, userID: settings.userID, clock: clock, calendar: calendar)
            },
            location: settings.group.map { groupStore(remembered: $0.store) })
    }

    /// Coins, challenges, badges and the group's weeks as the group link last exchanged them.
    func gatherGames(_ state: DashboardState) -> DashboardEvent {
        let group = state.group
        return .gamesRead(
            gamesSupport(state).gamesData(
                settings: state.figures.settings, snapshot: group?.games, offline: group?.offline ?? false,
                names: Self.memberNames(group)))
    }

    /// The group's members' names by user id, as the group link last saw them.
    private static func memberNames(_ group: GroupLink.Status?) -> [UserID: String] {
        Dictionary(
            (group?.snapshot?.members ?? []).map { ($0.userID, $0.displayName.value) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Does what the challenges screen asked for in the background (it may ask the group store),
    /// and says how it went through the inbox.
    func startGameAction(_ action: HomeGames.Action, support: HomeGames) {
        let inbox = self.inbox
        let logger = self.logger
        tasks.start {
            let (message, error) = await support.perform(action)
            logger.info("challenge screen: \(message)")
            inbox.post(.gameActionFinished(message: message, error: error))
        }
    }

    /// Runs a group action in the background (the group store may be slow or away); its outcome
    /// comes back through the inbox.
    func startGroupAction(_ request: GroupActionRequest, remembered: String?) {
        let actions = GroupActions(
            local: store, location: groupStore(remembered: remembered), clock: clock, timeZone: dependencies.timeZone)
        let inbox = self.inbox
        let logger = self.logger
        tasks.start {
            let outcome: GroupActionOutcome
            switch request {
            case .create(let goal):
                do throws(AppError) {
                    outcome = .created(try await actions.create(goal: goal))
                } catch {
                    outcome = .failed(message: error.message, nameTaken: false)
                }
            case .join(let code):
                do throws(GroupActions.Failure) {
                    outcome = .joined(try await actions.join(code))
                } catch {
                    if case .store(.nameTaken) = error {
                        outcome = .failed(message: error.message, nameTaken: true)
                    } else {
                        outcome = .failed(message: error.message, nameTaken: false)
                    }
                }
            case .leave:
                do throws(AppError) {
                    outcome = .left(try await actions.leave())
                } catch {
                    outcome = .failed(message: error.message, nameTaken: false)
                }
            }
            switch outcome {
            case .created(let group): logger.info("created group \(group.code)")
            case .joined(let group): logger.info("joined group \(group.code)")
            case .left(let code): logger.info("left group \(code)")
            case .failed(let message, _): logger.info("group action refused: \(message)")
            }
            inbox.post(.groupActionFinished(outcome))
        }
    }
}
