import Foundation

/// Paths for running a scenario in its own folder.
enum ScenarioPaths {
    /// `path` made absolute against the current directory, with `.` and `..` resolved as text.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `path` (absolute) relative to the folder `base` (absolute): `x.lua`, `sub/x.lua`,
    /// `../config.lua`.
    static func relative(_ path: String, from base: String) -> String {
        let target = path.split(separator: "/", omittingEmptySubsequences: true)
        let folder = base.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < min(target.count, folder.count), target[common] == folder[common] { common += 1 }
        let parts = Array(repeating: "..", count: folder.count - common) + target[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The folder of `path` (`.` for a bare name).
    static func folder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }
}
