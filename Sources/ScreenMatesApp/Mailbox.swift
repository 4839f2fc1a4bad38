import Synchronization

/// Results posted from background work to the main loop, which takes them all at once.
final class Mailbox<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])

    func post(_ item: Item) { items.withLock { $0.append(item) } }

    func take() -> [Item] {
        items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}
