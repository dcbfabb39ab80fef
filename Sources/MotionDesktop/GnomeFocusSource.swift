import Foundation
import MotionGestures

/// GNOME Shell (43 and later) over the session bus, through motionscript's extension
/// (`GnomeExtension`): the provider listens to its `FocusChanged` signal and asks `Current` at
/// connection and whenever the extension's bus name gets an owner (enabled, or the shell
/// restarted). Without the extension it says once whether it is missing or disabled, and how
/// to install or enable it, and waits for it.
public final class GnomeFocusSource: FocusSource {
    public let name = "gnome"
    let address: String?
    let environment: [String: String]
    private var bus: SessionBus?
    private var owner: String?
    private var changes: [AppInfo?] = []
    private var notices: [String] = []
    private var failure: FocusError?
    private var saidMissing = false

    /// - Parameters:
    ///   - address: the bus (nil: the user's session bus).
    ///   - environment: where to look for the extension's files (`XDG_DATA_HOME`, `HOME`,
    ///     `XDG_DATA_DIRS`), for the message when it does not answer.
    public init(address: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.address = address
        self.environment = environment
    }

    public func connect() throws {
        let bus = try SessionBus(address: address)
        let rule = "type='signal',sender='\(GnomeExtension.busName)',path='\(GnomeExtension.objectPath)',interface='\(GnomeExtension.interface)',member='FocusChanged'"
        try bus.subscribe(rule) { [unowned self] message in
            // The bus delivers the name's owner's signals; a signal from the owner `Current`
            // answered before the owner is known is taken too.
            if owner == nil || message.sender == owner, let change = GnomeExtension.app(from: message.arguments()) {
                changes.append(change)
            }
        }
        try bus.subscribe(SessionBus.ownerChangeRule(of: GnomeExtension.busName)) { [unowned self] message in
            let arguments = message.arguments()
            guard arguments.count == 3 else { return }
            if arguments[2].isEmpty {
                owner = nil
                saidMissing = false
                sayMissing(disabledNow: true)
            } else {
                askCurrent()
            }
        }
        self.bus = bus
        owner = nil
        failure = nil
        askCurrent()
    }

    public var fileDescriptor: Int32 { bus?.fileDescriptor ?? -1 }
    public var wantsToWrite: Bool { bus?.wantsToWrite ?? false }

    public func read() throws -> [AppInfo?] {
        guard let bus else { throw FocusError("not connected") }
        try bus.process()
        if let failure { throw failure }
        defer { changes.removeAll() }
        return changes
    }

    public func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    public func disconnect() {
        bus = nil
        owner = nil
    }

    private func askCurrent() {
        guard let bus else { return }
        do {
            try bus.call(GnomeExtension.busName, GnomeExtension.objectPath, GnomeExtension.interface, "Current") { [unowned self] reply in
                if let error = reply.error {
                    if KWinFocusSource.isMissing(error.name) {
                        sayMissing(disabledNow: false)
                    } else {
                        failure = FocusError("the GNOME Shell extension \(GnomeExtension.uuid) did not answer: \(error.name): \(error.text)")
                    }
                    return
                }
                owner = reply.sender
                if saidMissing {
                    notices.append("motionscript: gnome: the GNOME Shell extension answers; following the focused application")
                    saidMissing = false
                }
                if let change = GnomeExtension.app(from: reply.arguments()) { changes.append(change) }
            }
        } catch {
            failure = error as? FocusError ?? FocusError("\(error)")
        }
    }

    private func sayMissing(disabledNow: Bool) {
        guard !saidMissing else { return }
        saidMissing = true
        notices.append("warning: gnome: " + Self.missingText(installed: GnomeExtension.isInstalled(environment: environment), disabledNow: disabledNow)
                       + " (recognizers with 'apps' keep the last focus known; motionscript waits for it)")
    }

    /// Why the extension does not answer, and what to do.
    static func missingText(installed: Bool, disabledNow: Bool) -> String {
        let uuid = GnomeExtension.uuid
        if disabledNow {
            return "the GNOME Shell extension \(uuid) stopped (disabled, or GNOME Shell restarted); enable it: gnome-extensions enable \(uuid)"
        }
        if installed {
            return "the GNOME Shell extension \(uuid) is installed but not enabled; enable it: gnome-extensions enable \(uuid) (a new extension is seen by GNOME Shell on Wayland after you log out and in)"
        }
        return "the GNOME Shell extension \(uuid) is not installed; install it: motionscript init --gnome-extension, log out and in, then gnome-extensions enable \(uuid)"
    }
}
