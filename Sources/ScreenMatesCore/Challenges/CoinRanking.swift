/// One line of a ranking by coins: a name, the coins and how many badges; never an app name or
/// a usage figure.
public struct CoinStanding: Hashable, Sendable, Codable {
    /// The member's user id within a group; nil in the public ranking, which never shows ids.
    public var userID: UserID?
    public var name: String
    public var coins: Int
    public var badges: Int
    public var isMe: Bool

    public init(userID: UserID?, name: String, coins: Int, badges: Int, isMe: Bool) {
        self.userID = userID
        self.name = name
        self.coins = coins
        self.badges = badges
        self.isMe = isMe
    }
}

/// The ranking by coins: most coins first, ties to more badges, then by name. Standings equal
/// on coins and badges share a rank ("1, 1, 3").
public enum CoinRanking {
    public static func rank(_ standings: [CoinStanding]) -> [(rank: Int, standing: CoinStanding)] {
        let sorted = standings.sorted(by: ranksBefore)
        var result: [(rank: Int, standing: CoinStanding)] = []
        for (index, standing) in sorted.enumerated() {
            if let last = result.last, last.standing.coins == standing.coins,
                last.standing.badges == standing.badges
            {
                result.append((last.rank, standing))
            } else {
                result.append((index + 1, standing))
            }
        }
        return result
    }

    public static func ranksBefore(_ a: CoinStanding, _ b: CoinStanding) -> Bool {
        if a.coins != b.coins { return a.coins > b.coins }
        if a.badges != b.badges { return a.badges > b.badges }
        let keyA = a.name.lowercased()
        let keyB = b.name.lowercased()
        if keyA != keyB { return keyA < keyB }
        if a.name != b.name { return a.name < b.name }
        return (a.userID?.value ?? "") < (b.userID?.value ?? "")
    }
}
