/// An error that says, in the user's words, what is wrong and what to do about it: what a
/// command prints before it exits, and what a screen shows. Each layer's errors keep their own
/// cases; the application needs only this to report any of them.
public protocol ExplainedError: Error {
    var message: String { get }
}
