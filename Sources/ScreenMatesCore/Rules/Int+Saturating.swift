/// Arithmetic on counts that other people wrote (a group store's blocks, coins, week results):
/// held at `Int.max` or `Int.min` instead of trapping, so a value no honest client sends can
/// make a sum wrong but never stop the program.
extension Int {
    /// `self + other`, held at the nearest bound on overflow.
    public func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self × other`, held at the nearest bound on overflow.
    public func saturatingMultiplied(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }

    /// `-self`, with `-Int.min` held at `Int.max`.
    public var saturatingNegated: Int { self == .min ? .max : -self }
}

extension Sequence<Int> {
    /// The elements added up, each step held at the nearest bound instead of overflowing.
    public func saturatingSum() -> Int {
        reduce(0) { $0.saturatingAdding($1) }
    }
}
