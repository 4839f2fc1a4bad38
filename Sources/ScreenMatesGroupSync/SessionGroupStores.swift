/// Where the groups of one dashboard run live, stated once: the demo's own store (a demo that
/// brings mates) for a group joined through it or through none; else the store named for the run
/// (`--group-store`, `SCREENMATES_GROUP_STORE`); else the store the group was joined through, the
/// one setup was pointed at, or the home's default file (`GroupStoreLocation.resolve`).
///
/// The dashboard's runner opens what `location` answers; its pure update asks `isDemo`, which
/// opens and resolves nothing. Neither says the rule again.
public struct SessionGroupStores: Hashable, Sendable {
    /// The demo's own store, where its simulated mates live (a demo with mates only).
    public var demo: GroupStoreLocation?
    /// The store named for this run, which every group is looked for in.
    public var named: GroupStoreLocation?

    /// Which of the stores a group is in.
    public enum Source: Hashable, Sendable {
        case demo
        case named
        /// The store the group was joined through, resolved for the home.
        case remembered
    }

    public init(demo: GroupStoreLocation? = nil, named: GroupStoreLocation? = nil) {
        self.demo = demo
        self.named = named
    }

    /// Where a group joined through the store `remembered` (none: the default) is looked for.
    public func source(remembered: String?) -> Source {
        if let demo, remembered == nil || remembered == demo.remembered { return .demo }
        return named == nil ? .remembered : .named
    }

    /// Whether that group is in the demo's own store: the demo keeps its groups there unless the
    /// home is in a group elsewhere.
    public func isDemo(remembered: String?) -> Bool {
        guard let demo else { return false }
        switch source(remembered: remembered) {
        case .demo: return true
        case .named: return named == demo
        case .remembered: return false
        }
    }

    /// The store of a group joined through `remembered`; `resolve` finds a remembered one for the
    /// home, asked only when neither the demo's nor the named store is it.
    public func location(remembered: String?, resolve: (String?) -> GroupStoreLocation) -> GroupStoreLocation {
        switch source(remembered: remembered) {
        case .demo: demo ?? resolve(remembered)
        case .named: named ?? resolve(remembered)
        case .remembered: resolve(remembered)
        }
    }
}
