import Foundation

/// The repository's `assets/` folder, for tests that read the themes, scenarios and catalogue.
package enum RepositoryAssets {
    package static var directory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("assets").path
    }
}
