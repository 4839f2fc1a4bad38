import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesHome

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show, check or change the settings in config.toml.",
        discussion: """
            The config file is config.toml in the data directory: one `key = value` per line. It wins \
            over the settings saved in the database for every key it sets; the settings screen (s) and \
            `config set` change both.
            """,
        subcommands: [Show.self, Check.self, Set.self],
        defaultSubcommand: Show.self)

    /// The settings of the home the command line names.
    static func open(_ global: GlobalOptions) throws(AppError) -> HomeConfig {
        try HomeConfig.open(home: try global.resolveHome(), environment: ProcessInfo.processInfo.environment)
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every setting and where it comes from.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reporting { () throws(AppError) -> Int32 in
                let config = try ConfigCommand.open(global)
                let listing = try config.listing()
                print("# \(config.file.path)\(config.file.exists ? "" : " (not written yet)")")
                for entry in listing.entries {
                    print("\(entry.key.rawValue) = \(entry.value)  # \(entry.fromFile ? "config.toml" : "saved")")
                }
                // Not a key of the file: it goes with the membership, and the command line or the
                // environment wins over it.
                if let (store, code) = listing.groupStore {
                    print(
                        "# group store: \(SafeText.displayable(store))  (remembered with group \(code); --group-store or SCREENMATES_GROUP_STORE win over it)"
                    )
                } else if let store = try global.resolveHome().namedGroupStore {
                    print(
                        "# group store: \(SafeText.displayable(store))  (named at setup; --group-store or SCREENMATES_GROUP_STORE win over it)"
                    )
                }
                for problem in listing.problems { printError(problem) }
                return 0
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check config.toml; exit 1 and name each line it cannot use.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reporting { () throws(AppError) -> Int32 in
                let config = try ConfigCommand.open(global)
                let problems = config.problems()
                guard problems.isEmpty else {
                    for problem in problems { printError(problem) }
                    return 1
                }
                print(
                    "\(config.file.path): \(config.file.exists ? "every line is fine" : "not written yet; the saved settings apply")."
                )
                return 0
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one setting, in the database and in config.toml.",
            discussion: "Keys: \(ConfigKey.allCases.map(\.rawValue).joined(separator: ", ")).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The key, e.g. day_start_hour.")
        var key: String

        /// Taken as typed, so a negative number is a value (refused as out of range), not an option.
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "The value, e.g. 4, dark, on, or a list such as \"TikTok, YouTube\".", valueName: "value"))
        var values: [String] = []

        private var value: String { values.first ?? "" }

        func validate() throws {
            guard values.count == 1 else {
                throw ValidationError(
                    values.isEmpty
                        ? "config set needs a value after the key, e.g. `config set day_start_hour 4`."
                        : "config set takes one value; quote a list: \"TikTok, YouTube\".")
            }
            guard let key = ConfigKey(rawValue: key) else {
                throw ValidationError(
                    "Unknown key \"\(SafeText.displayable(key))\"; the keys are \(ConfigKey.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
            let (_, problems) = ConfigFile(text: "\(key.rawValue) = \(value)").read()
            if let problem = problems.first { throw ValidationError("\(key.rawValue): \(problem.reason).") }
        }

        func run() async throws {
            try await reporting { () throws(AppError) -> Int32 in
                let key = ConfigKey(rawValue: key)!
                let saved = try ConfigCommand.open(global).set(key, to: value)
                print("\(key.rawValue) = \(saved)")
                return 0
            }
        }
    }
}
