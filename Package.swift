// swift-tools-version: 6.1

import PackageDescription

/// How `screenmates` is linked so that it stays small in memory, above all when built with
/// `--static-swift-stdlib` (the README's installation): with lld, its code laid out in the order
/// of `assets/linking/screenmates.order` (the functions the idle dashboard and the monitors run
/// while they wait, then start-up's, packed together: the kernel maps code in 64 KiB windows,
/// see `.ci/order-file`);
/// relative relocations packed (`DT_RELR`, glibc 2.36+), so the loader does not read megabytes
/// of them at every start; no dynamic symbol table of everything (the static runtime's link
/// arguments ask for `-export-dynamic`; nothing looks the program's symbols up); and the
/// read-only data in a read-only segment (`assets/linking/screenmates.ld`: Swift marks its
/// objects' `.rodata` writable), whose pages start-up touched can be handed back.
let leanLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
            "-Xlinker", "--symbol-ordering-file=" + packageDirectory + "/assets/linking/screenmates.order",
            "-Xlinker", "--no-warn-symbol-ordering",
            "-Xlinker", "--script=" + packageDirectory + "/assets/linking/screenmates.ld",
        ],
        .when(platforms: [.linux]))
]

/// The folder this manifest is in, for paths the linker reads (it runs elsewhere).
var packageDirectory: String {
    var path = #filePath
    while let last = path.last, last != "/" { path.removeLast() }
    return String(path.dropLast())
}

/// One target per layer, data flowing one way:
/// monitor → local store → core state → frame (UI) → terminal.
let package = Package(
    name: "ScreenMates",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "screenmates", targets: ["screenmates"]),
        .executable(name: "screenmates-bench", targets: ["ScreenMatesBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // Child processes (tmux queries, the demo's monitors): no Foundation trait needed.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2", traits: []),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // The C side of ncursesw: a module map and a shim that exposes the wide-character API.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),

        // SQLite's defensive mode, which only the variadic sqlite3_db_config turns on.
        .systemLibrary(name: "CSQLiteDefensive", path: "Sources/CSQLiteDefensive"),

        // Domain rules: blocks, balance, day, rollover, streak, ranking, validation, safe text.
        // Imports neither ncurses nor a database.
        .target(name: "ScreenMatesCore"),

        // Reading rows of a SQLite file that may be damaged or written by anyone: a missing or
        // mistyped value throws instead of stopping the program. Shared by both SQLite stores,
        // with the core's values both keep (a user id) as database values, checked when read.
        .target(
            name: "ScreenMatesSQLiteRows",
            dependencies: ["ScreenMatesCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // The local SQLite store (GRDB): events append-only, settings, history.
        .target(
            name: "ScreenMatesStore",
            dependencies: [
                "ScreenMatesCore", "ScreenMatesSQLiteRows", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // The group store: the protocol every implementation keeps, its values, errors and rules.
        .target(name: "ScreenMatesGroupStore", dependencies: ["ScreenMatesCore"]),

        // Waking a loop that sleeps in poll(2): notices of files written by other processes
        // (inotify), the wake-up pipe, and when to look again after a notice.
        .target(name: "ScreenMatesWatch"),

        // The group store in a SQLite file shared by everyone on a host.
        .target(
            name: "ScreenMatesSQLiteGroupStore",
            dependencies: [
                "ScreenMatesGroupStore", "ScreenMatesCore", "ScreenMatesSQLiteRows", "ScreenMatesWatch",
                "CSQLiteDefensive", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // The group store on a PostgreSQL server (postgres-nio), for members on different machines.
        .target(
            name: "ScreenMatesPostgresGroupStore",
            dependencies: [
                "ScreenMatesGroupStore", "ScreenMatesCore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The schema's SQL, compiled into the binary (no resource bundle to carry around).
            resources: [
                .embedInCode("Schema/Migrations"), .embedInCode("Schema/Functions"),
                .embedInCode("Schema/reset_functions.sql"),
            ]
        ),

        // The simulated usage monitor: seeded, deterministic, writes through an event sink.
        .target(name: "ScreenMatesMonitor", dependencies: ["ScreenMatesCore"]),

        // Reading ActivityWatch (its REST API, async-http-client): buckets, window and AFK events.
        .target(
            name: "ScreenMatesActivityWatch",
            dependencies: [
                "ScreenMatesCore", "ScreenMatesMonitor",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),

        // Sampling sources that look at the machine itself: the terminal's foreground program
        // (tmux, /proc), the focused X11 window (libX11/libXss, loaded at run time), and sway's
        // and Hyprland's focused window over their sockets (idle from the Wayland protocol).
        .target(
            name: "ScreenMatesSources",
            dependencies: [
                "ScreenMatesMonitor", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),

        // Frames (grids of styled cells), views, key table and the dashboard model. No terminal.
        .target(name: "ScreenMatesUI", dependencies: ["ScreenMatesCore"]),

        // The one module that talks to ncurses.
        .target(
            name: "ScreenMatesTerminal",
            dependencies: ["CNcursesw", "ScreenMatesCore", "ScreenMatesUI", "ScreenMatesWatch"]),

        // The home and what is in it: the directory, its config and settings, the identity file,
        // the clock, the log, the stop signals, the figures read from its local store and the
        // challenges judged from them. What every command and both long-running programs share.
        .target(
            name: "ScreenMatesHome",
            dependencies: [
                "ScreenMatesCore", "ScreenMatesStore", "ScreenMatesGroupStore", "ScreenMatesMonitor", "ScreenMatesUI",
                "ScreenMatesWatch",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The monitor's runtime: the usage monitor as a process, the followers of real sources and
        // of ActivityWatch, the import, the demo's in-process monitor and desktop notices.
        // Never the dashboard.
        .target(
            name: "ScreenMatesMonitorRuntime",
            dependencies: [
                "ScreenMatesHome", "ScreenMatesCore", "ScreenMatesStore", "ScreenMatesMonitor",
                "ScreenMatesActivityWatch", "ScreenMatesSources", "ScreenMatesWatch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // Group sync: the group link, group and account actions, the group's games and challenges,
        // the demo's mates. The one target that picks a group store engine (`GroupStoreLocation`).
        .target(
            name: "ScreenMatesGroupSync",
            dependencies: [
                "ScreenMatesHome", "ScreenMatesCore", "ScreenMatesStore", "ScreenMatesGroupStore",
                "ScreenMatesSQLiteGroupStore", "ScreenMatesPostgresGroupStore", "ScreenMatesMonitor",
                "ScreenMatesUI", "ScreenMatesWatch", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Reports: the status report (`status --json`), the group report, the history export, and
        // the dashboard's content as a value (`DashboardContentBuilder`), which the status prints too.
        .target(
            name: "ScreenMatesReports",
            dependencies: [
                "ScreenMatesHome", "ScreenMatesGroupSync", "ScreenMatesCore", "ScreenMatesStore",
                "ScreenMatesGroupStore", "ScreenMatesUI", .product(name: "CSV", package: "CSV.swift"),
            ]
        ),

        // The dashboard: its state, pure update, effects and their runner, the loop and the
        // session. Draws through ScreenMatesUI and ScreenMatesTerminal; reaches the group only
        // through ScreenMatesGroupSync, never a store engine.
        .target(
            name: "ScreenMatesDashboard",
            dependencies: [
                "ScreenMatesHome", "ScreenMatesMonitorRuntime", "ScreenMatesGroupSync", "ScreenMatesReports",
                "ScreenMatesCore", "ScreenMatesStore", "ScreenMatesGroupStore", "ScreenMatesMonitor", "ScreenMatesUI",
                "ScreenMatesTerminal", "ScreenMatesWatch", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The `screenmates` command line: it parses, asks the application, and prints.
        .executableTarget(
            name: "screenmates",
            dependencies: [
                "ScreenMatesHome", "ScreenMatesMonitorRuntime", "ScreenMatesGroupSync", "ScreenMatesReports",
                "ScreenMatesDashboard", "ScreenMatesCore", "ScreenMatesWatch", "ScreenMatesGroupStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: leanLinking
        ),

        // Measurements the Performance article quotes (frame build time, bytes per frame, idle CPU, RSS, the
        // PostgreSQL group store).
        .executableTarget(
            name: "ScreenMatesBench",
            dependencies: [
                "ScreenMatesCore", "ScreenMatesUI", "ScreenMatesGroupSync", "ScreenMatesStore", "ScreenMatesGroupStore",
                "ScreenMatesSQLiteGroupStore", "ScreenMatesPostgresGroupStore", "ScreenMatesWatch",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // What several test targets share: values written out in tests (a user id from a literal),
        // and the one way tests start child processes (through swift-subprocess).
        .target(
            name: "ScreenMatesTestSupport",
            dependencies: [
                "ScreenMatesCore", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/ScreenMatesTestSupport"),
        .testTarget(
            name: "ScreenMatesCoreTests",
            dependencies: [
                "ScreenMatesCore", "ScreenMatesTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ScreenMatesStoreTests",
            dependencies: [
                "ScreenMatesTestSupport",
                "ScreenMatesStore", "ScreenMatesCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The group-store contract every store keeps, the hostile rows both are tested with, and
        // the shared file's scratch stores the server's tests compare with.
        .target(
            name: "ScreenMatesGroupStoreContract",
            dependencies: [
                "ScreenMatesTestSupport", "ScreenMatesGroupStore", "ScreenMatesSQLiteGroupStore", "ScreenMatesCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/ScreenMatesGroupStoreContract"),
        .testTarget(
            name: "ScreenMatesGroupStoreTests",
            dependencies: ["ScreenMatesGroupStore", "ScreenMatesCore", "ScreenMatesTestSupport"]
        ),
        .testTarget(
            name: "ScreenMatesSQLiteGroupStoreTests",
            dependencies: [
                "ScreenMatesSQLiteGroupStore", "ScreenMatesGroupStoreContract", "ScreenMatesTestSupport",
                "ScreenMatesGroupStore", "ScreenMatesCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ScreenMatesPostgresGroupStoreTests",
            dependencies: [
                "ScreenMatesPostgresGroupStore", "ScreenMatesGroupStoreContract", "ScreenMatesSQLiteGroupStore",
                "ScreenMatesTestSupport", "ScreenMatesGroupStore", "ScreenMatesCore",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // The PostgreSQL schema's statement (structure.sql) and its levels as releases shipped
            // them (Released/), read by the schema and upgrade tests.
            exclude: ["Schemas"]
        ),
        .testTarget(
            name: "ScreenMatesMonitorTests",
            dependencies: [
                "ScreenMatesMonitor", "ScreenMatesCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "ScreenMatesActivityWatchTests",
            dependencies: [
                "ScreenMatesActivityWatch", "ScreenMatesMonitor", "ScreenMatesCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "ScreenMatesSourcesTests",
            dependencies: [
                "ScreenMatesSources", "ScreenMatesMonitor", "ScreenMatesCore", "ScreenMatesTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "ScreenMatesUITests",
            dependencies: ["ScreenMatesUI", "ScreenMatesCore", "ScreenMatesTestSupport"],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "ScreenMatesTerminalTests",
            dependencies: ["CNcursesw", "ScreenMatesTerminal", "ScreenMatesUI", "ScreenMatesWatch"]),
        .testTarget(name: "ScreenMatesWatchTests", dependencies: ["ScreenMatesWatch"]),
        // A home for a test (`Scenario`): a store, a clock and a time zone the test moves, and
        // the figures the dashboard would read. Shared by the tests of the home, reports and dashboard.
        .target(
            name: "ScreenMatesHomeTestSupport",
            dependencies: ["ScreenMatesHome", "ScreenMatesTestSupport", "ScreenMatesStore", "ScreenMatesCore"],
            path: "Tests/ScreenMatesHomeTestSupport"),
        .testTarget(
            name: "ScreenMatesHomeTests",
            dependencies: [
                "ScreenMatesHome", "ScreenMatesHomeTestSupport", "ScreenMatesTestSupport", "ScreenMatesStore",
                "ScreenMatesCore", "ScreenMatesMonitor", "ScreenMatesSources", "ScreenMatesWatch",
                .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "ScreenMatesMonitorRuntimeTests",
            dependencies: [
                "ScreenMatesMonitorRuntime", "ScreenMatesHome", "ScreenMatesHomeTestSupport", "ScreenMatesTestSupport",
                "ScreenMatesCore", "ScreenMatesStore", "ScreenMatesMonitor", "ScreenMatesSources",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "ScreenMatesGroupSyncTests",
            dependencies: [
                "ScreenMatesGroupSync", "ScreenMatesHome", "ScreenMatesHomeTestSupport", "ScreenMatesTestSupport",
                "ScreenMatesStore",
                "ScreenMatesCore", "ScreenMatesGroupStore", "ScreenMatesUI",
                .product(name: "GRDB", package: "GRDB.swift"),
                "ScreenMatesReports", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ScreenMatesReportsTests",
            dependencies: [
                "ScreenMatesReports", "ScreenMatesHome", "ScreenMatesHomeTestSupport", "ScreenMatesGroupSync",
                "ScreenMatesStore", "ScreenMatesCore", "ScreenMatesGroupStore",
                .product(name: "CSV", package: "CSV.swift"),
            ]),
        .testTarget(
            name: "ScreenMatesDashboardTests",
            dependencies: [
                "ScreenMatesDashboard", "ScreenMatesHome", "ScreenMatesHomeTestSupport", "ScreenMatesGroupSync",
                "ScreenMatesMonitorRuntime",
                "ScreenMatesStore", "ScreenMatesCore", "ScreenMatesGroupStore", "ScreenMatesUI", "ScreenMatesWatch",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ScreenMatesEndToEndTests",
            dependencies: [
                "screenmates", "ScreenMatesStore", "ScreenMatesCore", "ScreenMatesTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "CSV", package: "CSV.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
