import Foundation

/// The evemu recordings beside the repository (`../shared/recordings` from the package root, as in
/// CI and in a worktree under /work); nil where they are not, and the tests that read them are
/// skipped, saying so.
public let sharedRecordings: String? = ["../shared/recordings", "../../shared/recordings", "/work/shared/recordings"]
    .map { repositoryRoot.appendingPathComponent($0).standardizedFileURL.path }
    .first { FileManager.default.fileExists(atPath: $0 + "/3m.evemu") }
