import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesStore

struct ConfigCommand: ParsableCommand {
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

    /// The store, the catalogue and the file of an existing home.
    static func open(_ global: GlobalOptions) throws(AppError) -> (LocalStore, AppCatalogue, SettingsFile) {
        let home = try global.resolveHome()
        try home.requireData()
        let catalogue = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment).appCatalogue()
        do {
            return (try home.openStore(), catalogue, SettingsFile(home: home))
        } catch {
            throw AppError(error)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every setting and where it comes from.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReportingErrors { () throws(AppError) -> Int32 in
                let (store, catalogue, file) = try ConfigCommand.open(global)
                let problems = file.apply(to: store, catalogue: catalogue)
                guard let settings = try? store.settings() else { throw AppError("No profile yet; run setup first.") }
                let preferences = file.read().preferences
                print("# \(file.path)\(file.exists ? "" : " (not written yet)")")
                for key in ConfigKey.allCases {
                    let source = preferences.sets(key) ? "config.toml" : "saved"
                    print("\(key.rawValue) = \(SettingsFile.value(of: key, in: settings))  # \(source)")
                }
                // Not a key of the file: it goes with the membership, and the command line or the
                // environment wins over it.
                if let store = settings.group?.store {
                    print(
                        "# group store: \(SafeText.displayable(store))  (remembered with group \(settings.group!.code); --group-store or SCREENMATES_GROUP_STORE win over it)"
                    )
                }
                for problem in problems { FileHandle.standardError.write(Data("screenmates: \(problem)\n".utf8)) }
                return 0
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check config.toml; exit 1 and name each line it cannot use.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReportingErrors { () throws(AppError) -> Int32 in
                let (store, catalogue, file) = try ConfigCommand.open(global)
                let reading = file.read()
                var problems = reading.problems
                if let settings = try? store.settings() {
                    problems += SettingsFile.merge(reading, into: settings, catalogue: catalogue).problems
                }
                guard problems.isEmpty else {
                    for problem in problems { FileHandle.standardError.write(Data("screenmates: \(problem)\n".utf8)) }
                    return 1
                }
                print(
                    "\(file.path): \(file.exists ? "every line is fine" : "not written yet; the saved settings apply")."
                )
                return 0
            }
        }
    }

    struct Set: ParsableCommand {
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

        func run() throws {
            try runReportingErrors { () throws(AppError) -> Int32 in
                let key = ConfigKey(rawValue: key)!
                let (store, catalogue, file) = try ConfigCommand.open(global)
                let reading = SettingsFile.Reading(file: ConfigFile(text: "\(key.rawValue) = \(value)"))
                do {
                    guard let saved = try store.settings() else { throw AppError("No profile yet; run setup first.") }
                    let (merged, problems) = SettingsFile.merge(reading, into: saved, catalogue: catalogue)
                    if let problem = problems.first {
                        throw AppError.usage(problem.replacingOccurrences(of: "config.toml line 1 ", with: ""))
                    }
                    try store.updateSettings(merged)
                    try file.save(merged, keys: [key])
                    print("\(key.rawValue) = \(SettingsFile.value(of: key, in: merged))")
                } catch let error as AppError {
                    throw error
                } catch {
                    throw AppError(error)
                }
                return 0
            }
        }
    }
}
