import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// Starting, joining and giving up challenges: `screenmates challenge create | join | forfeit`.
extension ChallengeHome {
    /// The tracked app a name or id on the command line means (ignoring case). With
    /// `sharedWithGroup`, a hidden app is refused: its name never leaves this machine.
    public func app(named name: String, sharedWithGroup: Bool = false) throws(AppError) -> TrackedApp {
        let wanted = name.lowercased()
        guard
            let app = settings.apps.first(where: { $0.id.lowercased() == wanted || $0.name.lowercased() == wanted })
        else {
            let names = settings.apps.map(\.name).joined(separator: ", ")
            throw .usage(
                "\"\(SafeText.displayable(name))\" is not one of your apps (\(names)); add it with `screenmates apps add`."
            )
        }
        if sharedWithGroup && app.hidden {
            throw .usage(
                "\(app.name) is hidden: its name never leaves this machine, so a group challenge cannot name it.")
        }
        return app
    }

    /// Starts a challenge under `rule` at the next day start, or with `now` at once (today's
    /// blocks from now on count), with a new 4-character id. With `group` it goes to the group
    /// store, with the user as its first participant; otherwise into this home only.
    public func start(
        _ rule: ChallengeRule, days: Int, reward: Int, penalty: Int, now startsNow: Bool, group: Bool
    ) async throws(AppError) -> Challenge {
        let instant = clock.now()
        let today = calendar.day(containing: instant)
        var generator = SystemRandomNumberGenerator()
        let id = String((0..<4).map { _ in "abcdefghjkmnpqrstuvwxyz23456789".randomElement(using: &generator)! })
        var challenge = Challenge(
            id: id, rule: rule, firstDay: startsNow ? today : today.adding(days: 1), days: days, reward: reward,
            penalty: penalty, startsAt: startsNow ? instant : nil)
        if let problem = challenge.problem { throw .usage(problem) }
        if group {
            guard let (games, location) = try groupGames() else {
                throw AppError(
                    "You are not in a group: create one (`screenmates group create`) or join one to share a challenge.")
            }
            do throws(GroupStoreError) {
                challenge = try await location.using { store throws(GroupStoreError) in
                    try await games.create(challenge, in: store)
                }
            } catch {
                throw AppError(error.message)
            }
        } else {
            do { try store.addChallenge(challenge, createdAt: instant) } catch { throw AppError(error) }
        }
        return challenge
    }

    /// Joins the challenge with `id` (any case), until its first day ends: the group's challenge
    /// with that id, else the one open to all on the group store (a group's comes first: ids of
    /// open challenges have eight characters, a group's six).
    public func join(id: String) async throws(AppError) -> Challenge {
        guard let (games, location) = try groupGames() else {
            do throws(AppError) {
                return try await joinOpen(id: id)
            } catch {
                throw AppError("You are not in a group (so there is no group challenge to join). " + error.message)
            }
        }
        do throws(GroupStoreError) {
            return try await location.using { store throws(GroupStoreError) in
                try await games.join(id: id.lowercased(), in: store)
            }
        } catch {
            guard case .unknownChallenge = error else { throw AppError(error.message) }
            return try await joinOpen(id: id)
        }
    }

    /// The user's challenge with `id`, decided or not.
    public func challenge(id: String) throws(AppError) -> StoredChallenge {
        guard let stored = try challenges().first(where: { $0.challenge.id == id }) else {
            throw AppError(
                "There is no challenge \(SafeText.displayable(id)) of yours; `screenmates challenge list` shows them.")
        }
        return stored
    }

    /// Sets what the challenge `id` does when its app comes to the front while its rule forbids
    /// it; the challenge as it is now.
    @discardableResult
    public func setWhenOpened(id: String, _ action: OpenedAction) throws(AppError) -> StoredChallenge {
        var stored = try challenge(id: id)
        do { try store.setWhenOpened(challengeID: stored.challenge.id, action) } catch { throw AppError(error) }
        stored.whenOpened = action
        return stored
    }

    /// Gives `stored` up now: it costs its penalty, unless it ended meanwhile.
    public func forfeit(_ stored: StoredChallenge) throws(AppError) -> LocalStore.Forfeit {
        let instant = clock.now()
        do {
            return try store.forfeit(
                challengeID: stored.challenge.id, at: instant, day: calendar.day(containing: instant))
        } catch {
            throw AppError(error)
        }
    }

    /// Tells the group store what became of `stored` when it is a group challenge or one open to
    /// all: now, or with the next exchange when its store is out of reach.
    public func tellGroup(about stored: StoredChallenge) async {
        if stored.groupCode != nil { _ = try? await games() }
        if stored.openToAll { _ = try? await openBoards() }
    }
}
