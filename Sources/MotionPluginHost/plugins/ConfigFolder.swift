import Foundation
import MotionCheck

/// The config folder: every `*.lua` at its top level is a plugin, named by its file name
/// without `.lua`, in name order; subfolders hold modules. Hidden files (an editor's
/// `.#name.lua`) are not plugins.
public struct ConfigFolder: Sendable {
    /// The folder, canonical (so the paths match what the file watcher reports).
    public let path: String

    public init(_ path: String) throws {
        guard let resolved = realpath(path, nil) else {
            throw DaemonError("cannot open the config folder \(path): \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        var isDirectory: ObjCBool = false
        let canonical = String(cString: resolved)
        guard FileManager.default.fileExists(atPath: canonical, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DaemonError("\(path) is not a folder (the daemon takes a folder of plugins)")
        }
        self.path = canonical
    }

    /// The folder of `run`'s script (its one-plugin host has no folder of plugins; a script may
    /// be a pipe): taken as it is, unchecked.
    init(scriptFolderOf script: String) {
        path = String(script.utf8.lastIndex(of: UInt8(ascii: "/")).map { script[..<$0] } ?? ".")
    }

    /// The default: `$XDG_CONFIG_HOME/motionscript`, else `~/.config/motionscript`.
    public static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/motionscript" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/motionscript"
    }

    /// The default folder, made when it is missing (with its parents, mode 0700): a fresh
    /// install's service runs, empty, until plugins are put there (docs/daemon.md), rather than
    /// exiting at once and restarting in a loop. Returns the path and whether it was made now.
    public static func makingDefault(at path: String = defaultPath) throws -> (path: String, created: Bool) {
        var info = stat()
        if stat(path, &info) == 0 { return (path, false) }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonError("cannot make the config folder \(path): \(error.localizedDescription)")
        }
        return (path, true)
    }

    /// Where the package puts the example plugins (docs/daemon.md "Install"); the first of these
    /// that exists, else the first (what a message may tell a user to copy from).
    public static var examplesFolder: String {
        let candidates = ["/usr/share/doc/motionscript/examples", "/usr/local/share/doc/motionscript/examples"]
        return candidates.first { access($0, F_OK) == 0 } ?? candidates[0]
    }

    /// The plugins now: (name, path) in name order.
    public func plugins() -> [(name: String, path: String)] {
        PluginFiles.list(path).files.map { file in
            let name = file.dropFirst(path.count + 1)
            return (String(name.dropLast(4)), file)
        }
    }

    /// The `*.lua` entries that are not loaded (a name that is not UTF-8, a dangling link, a
    /// FIFO, a folder), each a warning with the reason (docs/daemon.md).
    public func skippedEntries() -> [String] {
        PluginFiles.list(path).skipped.map(\.message)
    }

    /// Whether a top-level file name is a plugin's.
    static func isPluginFile(_ name: String) -> Bool {
        name.hasSuffix(".lua") && name.count > 4 && !name.hasPrefix(".")
    }

    /// The plugin a path names, if it is a top-level `*.lua` of this folder.
    func pluginName(of file: String) -> String? {
        guard file.hasPrefix(path + "/") else { return nil }
        let name = String(file.dropFirst(path.count + 1))
        guard !name.contains("/"), Self.isPluginFile(name) else { return nil }
        return String(name.dropLast(4))
    }

}

/// A daemon error that is the user's to fix (a missing folder): exit 2.
public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
