import ScreenMatesCore

extension UserID {
    /// An id a test writes out; one that is not valid stops the test at once.
    public init(_ text: String) {
        do {
            try self.init(validating: text)
        } catch {
            fatalError("\(text): \(error.message)")
        }
    }
}
