import CSDBus
import Foundation
import Synchronization
import Testing
import MotionGestures
@testable import MotionDesktop

/// A private dbus-daemon for one test: the providers' D-Bus side without a compositor (a fake
/// KWin, a fake GNOME Shell extension).
private final class PrivateBus {
    let process = Process()
    let address: String

    private static let counter = Mutex(0)
    private let path: String

    init() throws {
        let n = Self.counter.withLock { value in value += 1; return value }
        path = NSTemporaryDirectory() + "motionscript-test-bus-\(getpid())-\(n)"
        unlink(path)
        address = "unix:path=" + path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--nopidfile", "--address=" + address]
        // Neither of the test process's outputs: a daemon left behind (the test process
        // crashed before this object's deinit) would hold `swift test`'s pipe open, and the
        // run would wait for it forever after the last test.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Listening once a connection is taken (at most 5 s).
        for _ in 0..<500 where (try? SessionBus(address: address)) == nil { usleep(10_000) }
    }

    deinit {
        // SIGKILL: a child of the test process may inherit SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        unlink(path)
    }
}

/// Takes `name` on the bus (blocking: a test's fake service).
private func own(_ bus: SessionBus, _ name: String) throws {
    #expect(sd_bus_request_name(bus.bus, name, 0) >= 0)
}

/// Handles what arrives on every connection until `done` holds (at most 5 s of waiting for
/// descriptors, never a fixed sleep deciding the order).
private func pump(_ buses: [SessionBus], until done: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(5)
    while try !done() {
        guard Date() < deadline else { Issue.record("timed out"); return }
        for bus in buses { try bus.process() }
        if try done() { return }
        var fds = buses.map { pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN) | ($0.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 50)
    }
}

/// A fake KWin: `/Scripting` loads (reads the file, answers an id) and unloads; the script's
/// object runs at KWin 6's path or at 5's.
private final class FakeKWin {
    let bus: SessionBus
    var loaded: [(file: String, text: String, plugin: String)] = []
    var unloaded: [String] = []
    var runs = 0
    var starts = 0

    init(address: String, kwin6: Bool) throws {
        bus = try SessionBus(address: address)
        try own(bus, "org.kde.KWin")
        try bus.serve(path: "/Scripting") { [unowned self] message in
            let arguments = message.arguments()
            switch message.member {
            case "loadScript":
                loaded.append((arguments[0], (try? String(contentsOfFile: arguments[0], encoding: .utf8)) ?? "", arguments[1]))
                return [.int32(7)]
            case "unloadScript":
                unloaded.append(arguments[0])
                return [.bool(true)]
            case "start":
                starts += 1
                return []
            default: return nil
            }
        }
        try bus.serve(path: kwin6 ? "/Scripting/Script7" : "/7") { [unowned self] message in
            guard message.member == "run" else { return false }
            runs += 1
            return true
        }
    }

    /// What the script does at an activation: `Activated(class, name, desktop file, caption, pid)`.
    func activate(_ destination: String, _ fields: [String], from caller: SessionBus? = nil, replied: @escaping () -> Void = {}) throws {
        try (caller ?? bus).call(destination, KWinScript.objectPath, KWinScript.interface, KWinScript.member, fields) { _ in replied() }
    }
}

/// The destination the loaded script calls (its `var destination = "…"`).
private func destination(in script: String) -> String? {
    guard let start = script.range(of: "var destination = \"")?.upperBound,
          let end = script[start...].firstIndex(of: "\"") else { return nil }
    return String(script[start..<end])
}

@Suite(.timeLimit(.minutes(1))) struct DBusFocusTests {
    @Test func theKWinArgumentsMakeTheApp() {
        let app = KWinScript.app(from: ["org.kde.dolphin", "dolphin", "org.kde.dolphin", "Home — Dolphin", "4242"])
        #expect(app == .some(AppInfo(id: "org.kde.dolphin", className: "org.kde.dolphin", instance: "dolphin", title: "Home — Dolphin", pid: 4242)))
        // No class (an X11 window without WM_CLASS): the desktop file, then the name.
        #expect(KWinScript.app(from: ["", "xterm", "", "t", "0"]) == .some(AppInfo(id: "xterm", instance: "xterm", title: "t")))
        #expect(KWinScript.app(from: ["", "", "", "", ""]) == .some(nil))
        #expect(KWinScript.app(from: ["firefox"]) == nil)
    }

    @Test func theScriptCallsItsOwnConnectionInBothKWinAPIs() {
        let text = KWinScript.text(destination: ":1.42")
        #expect(destination(in: text) == ":1.42")
        #expect(text.contains("workspace.windowActivated.connect(activated)"))
        #expect(text.contains("workspace.clientActivated.connect(activated)"))
        #expect(text.contains("callDBus(destination, \"/org/motionscript/Focus\", \"org.motionscript.Focus\", \"Activated\""))
        #expect(KWinScript.javaScriptString("a\"b\\c\n\u{2028}") == #""a\"b\\c\u000a\u2028""#)
    }

    @Test(arguments: [true, false]) func kwinLoadsRunsReportsAndUnloadsTheScript(kwin6: Bool) throws {
        let daemon = try PrivateBus()
        let kwin = try FakeKWin(address: daemon.address, kwin6: kwin6)
        let folder = NSTemporaryDirectory() + "kwin-test-\(getpid())-\(kwin6)"
        let source = KWinFocusSource(address: daemon.address, scriptDirectory: folder)
        try source.connect()
        var changes: [AppInfo?] = []
        let sourceBus = { [source] in try source.read() }
        try pump([kwin.bus]) { changes += try sourceBus(); return kwin.runs == 1 && kwin.starts == 1 }
        #expect(kwin.loaded.count == 1)
        let script = try #require(kwin.loaded.first)
        #expect(script.plugin.hasPrefix("motionscript-focus-"))
        #expect(script.file.hasPrefix(folder + "/kwin-focus-"))
        let target = try #require(destination(in: script.text))

        try kwin.activate(target, ["firefox", "Navigator", "firefox", "Home", "321"])
        try pump([kwin.bus]) { changes += try sourceBus(); return !changes.isEmpty }
        #expect(changes == [AppInfo(id: "firefox", className: "firefox", instance: "Navigator", title: "Home", pid: 321)])
        // The file is gone once KWin ran it.
        #expect(!FileManager.default.fileExists(atPath: script.file))

        // Another client calling the same method is not KWin: ignored. Then KWin's "no window".
        let other = try SessionBus(address: daemon.address)
        var answered = false
        changes = []
        try kwin.activate(target, ["evil", "", "", "", ""], from: other) { answered = true }
        try pump([kwin.bus, other]) { changes += try sourceBus(); return answered }
        try kwin.activate(target, ["", "", "", "", ""])
        try pump([kwin.bus, other]) { changes += try sourceBus(); return !changes.isEmpty }
        #expect(changes == [nil])

        source.disconnect()
        try pump([kwin.bus]) { !kwin.unloaded.isEmpty }
        #expect(kwin.unloaded == [script.plugin])
        #expect(source.takeNotices().isEmpty)
        withExtendedLifetime(daemon) {}
    }

    @Test func kwinMissingIsSaidOnceAndWaitedFor() throws {
        let daemon = try PrivateBus()
        let source = KWinFocusSource(address: daemon.address, scriptDirectory: NSTemporaryDirectory() + "kwin-wait-\(getpid())")
        try source.connect()
        var notices: [String] = []
        try pump([]) { _ = try source.read(); notices += source.takeNotices(); return !notices.isEmpty }
        #expect(notices == ["warning: kwin: KWin is not on the session bus (org.kde.KWin); waiting for it (recognizers with 'apps' keep the last focus known)"])
        let kwin = try FakeKWin(address: daemon.address, kwin6: true)
        try pump([kwin.bus]) { _ = try source.read(); notices += source.takeNotices(); return kwin.runs == 1 && notices.count == 2 }
        #expect(notices.last == "motionscript: kwin: KWin is on the session bus; following the focused application")
        source.disconnect()
        withExtendedLifetime(daemon) {}
    }

    @Test func theGnomeArgumentsMakeTheApp() {
        #expect(GnomeExtension.app(from: ["org.gnome.Nautilus", "org.gnome.Nautilus", "", "Files", "77"])
                == .some(AppInfo(id: "org.gnome.Nautilus", className: "org.gnome.Nautilus", title: "Files", pid: 77)))
        #expect(GnomeExtension.app(from: ["", "", "", "", ""]) == .some(nil))
        #expect(GnomeExtension.app(from: []) == nil)
    }

    @Test func theGnomeExtensionFitsTheShellVersion() throws {
        #expect(GnomeExtension.shellMajorVersion(fromVersionOutput: "GNOME Shell 43.9\n") == 43)
        #expect(GnomeExtension.shellMajorVersion(fromVersionOutput: "GNOME Shell 47.beta\n") == 47)
        #expect(GnomeExtension.shellMajorVersion(fromVersionOutput: "") == nil)
        let legacy = GnomeExtension.files(shellMajorVersion: 43)
        #expect(legacy.map(\.name) == ["metadata.json", "extension.js"])
        #expect(legacy[0].text.contains(#""shell-version": ["43", "44"]"#))
        #expect(legacy[1].text.contains("function init()") && legacy[1].text.contains("imports.gi"))
        let modules = GnomeExtension.files(shellMajorVersion: nil)
        #expect(modules[0].text.contains(#""shell-version": ["45", "46", "47", "48", "49"]"#))
        #expect(modules[1].text.contains("export default class") && !modules[1].text.contains("imports.gi"))
        let metadata = try JSONSerialization.jsonObject(with: Data(modules[0].text.utf8)) as? [String: Any]
        #expect(metadata?["uuid"] as? String == "motionscript-focus@motionscript")
        #expect(modules[1].text.contains("global.display.connect('notify::focus-window'"))
    }

    @Test func theGnomeMessageSaysWhatToDo() throws {
        let home = NSTemporaryDirectory() + "gnome-home-\(getpid())"
        let environment = ["HOME": home, "XDG_DATA_DIRS": "/nonexistent"]
        #expect(!GnomeExtension.isInstalled(environment: environment))
        #expect(GnomeFocusSource.missingText(installed: false, disabledNow: false).contains("install it: motionscript init --gnome-extension"))
        let folder = GnomeExtension.userFolder(environment: environment)
        #expect(folder == home + "/.local/share/gnome-shell/extensions/motionscript-focus@motionscript")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{}".write(toFile: folder + "/metadata.json", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(GnomeExtension.isInstalled(environment: environment))
        #expect(GnomeFocusSource.missingText(installed: true, disabledNow: false).contains("enable it: gnome-extensions enable motionscript-focus@motionscript"))
    }

    @Test func gnomeFollowsTheExtensionsSignalsAndWaitsForIt() throws {
        let daemon = try PrivateBus()
        let source = GnomeFocusSource(address: daemon.address, environment: ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent"])
        try source.connect()
        var notices: [String] = []
        var changes: [AppInfo?] = []
        try pump([]) { changes += try source.read(); notices += source.takeNotices(); return !notices.isEmpty }
        #expect(notices.count == 1 && notices[0].contains("is not installed"))

        // The extension appears (enabled): the provider asks Current at once.
        let shell = try SessionBus(address: daemon.address)
        try shell.serve(path: GnomeExtension.objectPath) { message in
            message.member == "Current" ? ["kitty", "kitty", "kitty", "~", "12"].map { .string($0) } : nil
        }
        try own(shell, GnomeExtension.busName)
        try pump([shell]) { changes += try source.read(); notices += source.takeNotices(); return !changes.isEmpty }
        #expect(changes == [AppInfo(id: "kitty", className: "kitty", instance: "kitty", title: "~", pid: 12)])
        #expect(notices.last == "motionscript: gnome: the GNOME Shell extension answers; following the focused application")

        // A focus change: the signal.
        var signal: OpaquePointer?
        #expect(sd_bus_message_new_signal(shell.bus, &signal, GnomeExtension.objectPath, GnomeExtension.interface, "FocusChanged") >= 0)
        for field in ["firefox", "firefox", "Navigator", "Home", "321"] { BusValue.string(field).append(to: signal!) }
        #expect(sd_bus_send(shell.bus, signal, nil) >= 0)
        sd_bus_message_unref(signal)
        changes = []
        try pump([shell]) { changes += try source.read(); return !changes.isEmpty }
        #expect(changes == [AppInfo(id: "firefox", className: "firefox", instance: "Navigator", title: "Home", pid: 321)])

        // Disabled: said once, with how to enable it.
        #expect(sd_bus_release_name(shell.bus, GnomeExtension.busName) >= 0)
        notices = []
        try pump([shell]) { _ = try source.read(); notices += source.takeNotices(); return !notices.isEmpty }
        #expect(notices.count == 1 && notices[0].contains("gnome-extensions enable motionscript-focus@motionscript"))
        source.disconnect()
        withExtendedLifetime(daemon) {}
    }

    @Test func kdeAndGnomeAreChosenFromTheirSessions() throws {
        func chosen(_ environment: [String: String], answering: Set<String> = []) -> String? {
            guard case .success(let source) = FocusProviderChoice.source(forced: nil, environment: environment,
                                                                          answers: { answering.contains($0) }) else { return "failure" }
            return source?.name
        }
        #expect(chosen(["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]) == "kwin")
        #expect(chosen(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]) == "gnome")
        // X11 sessions: only when KWin or GNOME Shell answers; else X11 serves.
        #expect(chosen(["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"]) == "x11")
        #expect(chosen(["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"], answering: ["org.kde.KWin"]) == "kwin")
        #expect(chosen(["XDG_CURRENT_DESKTOP": "GNOME", "DISPLAY": ":0"], answering: ["org.gnome.Shell"]) == "gnome")
        #expect(chosen(["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "w", "SWAYSOCK": "/s"]) == "sway")
        #expect(chosen(["XDG_CURRENT_DESKTOP": "XFCE", "DISPLAY": ":0"], answering: ["org.kde.KWin"]) == "x11")
        guard case .success(let kwin) = FocusProviderChoice.source(forced: "kwin", environment: [:]),
              case .success(let gnome) = FocusProviderChoice.source(forced: "gnome", environment: [:]) else {
            Issue.record("kwin and gnome are names")
            return
        }
        #expect(kwin?.name == "kwin" && gnome?.name == "gnome")
        #expect(FocusProviderChoice.names.contains("kwin") && FocusProviderChoice.names.contains("gnome"))
        let reason = try FocusProviderChoice.choose(forced: nil, environment: ["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"],
                                                    answers: { $0 == "org.kde.KWin" }).get().reason
        #expect(reason == "XDG_CURRENT_DESKTOP names KDE, KWin answers on the session bus")
    }
}
