import Testing

@testable import ScreenMatesGroupSync

/// The one rule of where a dashboard run's groups live: the store the runner opens and the
/// state's question "is it the demo's?" cannot disagree.
@Suite struct SessionGroupStoresTests {
    static let demo = GroupStoreLocation.sqlite(path: "/home/ana/.screenmates/demo-group.sqlite")
    static let friends = GroupStoreLocation.sqlite(path: "/srv/friends.sqlite")
    static let home = GroupStoreLocation.sqlite(path: "/home/ana/.screenmates/group-store.sqlite")

    @Test func theStateSaysDemoExactlyWhenTheRunnerOpensTheDemosStore() {
        let remembered: [String?] = [nil, Self.demo.remembered, Self.friends.remembered, "/elsewhere.sqlite"]
        var cases = 0
        for demo in [nil, Self.demo] {
            for named in [nil, Self.demo, Self.friends] {
                let stores = SessionGroupStores(demo: demo, named: named)
                for store in remembered {
                    let opened = stores.location(remembered: store) { $0.map { .sqlite(path: $0) } ?? Self.home }
                    #expect(
                        stores.isDemo(remembered: store) == (demo != nil && opened == demo),
                        "demo \(String(describing: demo)), named \(String(describing: named)), joined through \(store ?? "none")"
                    )
                    cases += 1
                }
            }
        }
        #expect(cases == 24)
    }

    @Test func aDemoKeepsItsGroupsInItsOwnStoreUnlessTheHomeIsInAGroupElsewhere() {
        let stores = SessionGroupStores(demo: Self.demo, named: nil)
        #expect(stores.source(remembered: nil) == .demo)
        #expect(stores.source(remembered: Self.demo.remembered) == .demo)
        #expect(stores.source(remembered: Self.friends.remembered) == .remembered)
    }

    @Test func aStoreNamedForTheRunHoldsEveryGroupButTheDemos() {
        let stores = SessionGroupStores(demo: nil, named: Self.friends)
        #expect(stores.location(remembered: "/elsewhere.sqlite") { _ in Self.home } == Self.friends)
        #expect(stores.location(remembered: nil) { _ in Self.home } == Self.friends)
        #expect(SessionGroupStores().location(remembered: nil) { _ in Self.home } == Self.home)
    }
}
