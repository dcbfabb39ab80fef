import Foundation
import MotionGestures

/// KDE Plasma (KWin 5.27 and 6) over the session bus: KWin tells the focused window only to
/// its scripts, so the provider loads one (`KWinScript`) through `org.kde.KWin /Scripting
/// loadScript`, runs it (`/Scripting/Script<id>` on KWin 6, `/<id>` on 5, then `start`), and the script
/// calls `Activated` on this connection at every activation and title change. The script is
/// unloaded when the provider disconnects. KWin missing from the bus, or leaving it (a
/// restart), is said once and waited for: the script is loaded again when KWin is back.
public final class KWinFocusSource: FocusSource {
    public let name = "kwin"
    static let service = "org.kde.KWin"
    let address: String?
    let scriptDirectory: String
    private var bus: SessionBus?
    private var state = State.connecting
    private var kwin: String?
    private var changes: [AppInfo?] = []
    private var notices: [String] = []
    private var failure: FocusError?
    private var scriptFile: String?
    private var pluginName: String?
    private var loads = 0
    private var saidMissing = false

    enum State: Equatable {
        /// The bus connection is being made (its `Hello`): our name is not known yet.
        case connecting
        /// `loadScript` or `run` sent.
        case loading
        /// KWin is not on the bus: waiting for its name to get an owner.
        case waitingForKWin
        /// The script runs.
        case running
    }

    /// - Parameters:
    ///   - address: the bus (nil: the user's session bus).
    ///   - scriptDirectory: where the script file is written for KWin to read (nil:
    ///     `$XDG_RUNTIME_DIR/motionscript`, else the temporary folder).
    public init(address: String? = nil, scriptDirectory: String? = nil) {
        self.address = address
        self.scriptDirectory = scriptDirectory ?? Self.defaultScriptDirectory()
    }

    public func connect() throws {
        let bus = try SessionBus(address: address)
        try bus.serve(path: KWinScript.objectPath) { [unowned self] message in
            guard message.interface == KWinScript.interface, message.member == KWinScript.member else { return false }
            // Only the KWin that loaded the script; other callers are answered and ignored.
            if let kwin, message.sender == kwin, let change = KWinScript.app(from: message.arguments()) {
                changes.append(change)
            }
            return true
        }
        try bus.subscribe(SessionBus.ownerChangeRule(of: Self.service)) { [unowned self] message in
            ownerChanged(message.arguments())
        }
        self.bus = bus
        state = .connecting
        kwin = nil
        failure = nil
        try step()
    }

    public var fileDescriptor: Int32 { bus?.fileDescriptor ?? -1 }
    public var wantsToWrite: Bool { bus?.wantsToWrite ?? false }

    public func read() throws -> [AppInfo?] {
        guard let bus else { throw FocusError("not connected") }
        try bus.process()
        try step()
        if let failure { throw failure }
        defer { changes.removeAll() }
        return changes
    }

    public func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    public func disconnect() {
        if let bus, let pluginName, state == .running || state == .loading {
            bus.send(Self.service, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [pluginName])
        }
        removeScriptFile()
        bus = nil
        pluginName = nil
        state = .connecting
    }

    /// Loads the script once the connection knows its name.
    private func step() throws {
        guard state == .connecting, let bus, let unique = bus.uniqueName else { return }
        try load(bus: bus, unique: unique)
    }

    private func load(bus: SessionBus, unique: String) throws {
        removeScriptFile()
        loads += 1
        // Unique names are never reused on a bus: a script left behind by a killed process
        // calls a name nobody has, and this one's name is new.
        let plugin = "motionscript-focus-" + unique.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + "-\(loads)"
        let file = scriptDirectory + "/kwin-focus-\(getpid())-\(loads).js"
        do {
            try FileManager.default.createDirectory(atPath: scriptDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try KWinScript.text(destination: unique).write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw FocusError("cannot write the KWin script \(file): \(error.localizedDescription)")
        }
        scriptFile = file
        pluginName = plugin
        state = .loading
        try bus.call(Self.service, "/Scripting", "org.kde.kwin.Scripting", "loadScript", [file, plugin]) { [unowned self] reply in
            loaded(reply, bus: bus)
        }
    }

    private func loaded(_ reply: BusMessage, bus: SessionBus) {
        if let error = reply.error {
            if Self.isMissing(error.name) {
                waitForKWin()
            } else {
                failure = FocusError("KWin did not load the focus script: \(error.name): \(error.text)")
            }
            return
        }
        guard let id = reply.arguments().first.flatMap({ Int($0) }), id >= 0 else {
            failure = FocusError("KWin did not load the focus script (loadScript answered \(reply.arguments()))")
            return
        }
        kwin = reply.sender
        run(bus: bus, paths: ["/Scripting/Script\(id)", "/\(id)"], errors: [])
    }

    /// `run` on the script's object: KWin 6's path, then 5.27's.
    private func run(bus: SessionBus, paths: [String], errors: [String]) {
        guard let path = paths.first else {
            failure = FocusError("KWin loaded the focus script but did not run it: \(errors.joined(separator: "; "))")
            return
        }
        do {
            try bus.call(Self.service, path, "org.kde.kwin.Script", "run") { [unowned self] reply in
                if let error = reply.error {
                    run(bus: bus, paths: Array(paths.dropFirst()), errors: errors + ["\(path): \(error.name)"])
                    return
                }
                // KWin 5.27 numbers a script by the count of scripts loaded, so a number can
                // be one an unloaded script (not yet destroyed) or another running script still
                // holds, and `run` at its path then runs that one. `start` runs every loaded
                // script not yet running: this one whatever its path did (seen in test-desktop:
                // a script run at a reused number now and then did nothing).
                bus.send(Self.service, "/Scripting", "org.kde.kwin.Scripting", "start")
                state = .running
                // KWin read the file when it ran the script.
                removeScriptFile()
                if saidMissing {
                    notices.append("motionscript: kwin: KWin is on the session bus; following the focused application")
                    saidMissing = false
                }
            }
        } catch {
            failure = error as? FocusError ?? FocusError("\(error)")
        }
    }

    private func waitForKWin() {
        state = .waitingForKWin
        kwin = nil
        removeScriptFile()
        if !saidMissing {
            notices.append("warning: kwin: KWin is not on the session bus (\(Self.service)); waiting for it (recognizers with 'apps' keep the last focus known)")
            saidMissing = true
        }
    }

    /// `NameOwnerChanged(name, old, new)` for org.kde.KWin: gone (its scripts with it), or back.
    private func ownerChanged(_ arguments: [String]) {
        guard arguments.count == 3, arguments[0] == Self.service, let bus else { return }
        if arguments[2].isEmpty {
            waitForKWin()
        } else if state == .waitingForKWin || (state == .running && arguments[2] != kwin), let unique = bus.uniqueName {
            do { try load(bus: bus, unique: unique) } catch { failure = error as? FocusError ?? FocusError("\(error)") }
        }
    }

    static func isMissing(_ errorName: String) -> Bool {
        errorName == "org.freedesktop.DBus.Error.ServiceUnknown" || errorName == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    private func removeScriptFile() {
        if let scriptFile { unlink(scriptFile) }
        scriptFile = nil
    }

    static func defaultScriptDirectory() -> String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/motionscript"
        }
        return NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
    }
}
