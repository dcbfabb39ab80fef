import MotionGestures

/// One desktop's way of telling the focused application: a connection that, once made, makes a
/// file descriptor readable when there is news, and reads it without blocking.
/// `FocusTracker` drives one: connects, reads, reconnects after a failure.
public protocol FocusSource: AnyObject {
    /// The provider's name (`sway`, `hyprland`, `wlroots`, `x11`), for messages.
    var name: String { get }
    /// Connects and asks for the current focus and its changes. Throws `FocusError` with the
    /// reason when the desktop cannot be reached.
    func connect() throws
    /// Readable when there is something for `read()` (valid between connect and disconnect).
    var fileDescriptor: Int32 { get }
    /// Reads what arrived, never blocking: the focus changes it carried, in order (nil: no
    /// window focused). Throws `FocusError` when the connection is lost.
    func read() throws -> [AppInfo?]
    /// Some desktops have no change event (X11 without an EWMH window manager): the tracker
    /// calls `refresh()` this often (seconds); nil: never.
    var refreshInterval: Double? { get }
    /// Asks again for the current focus (see `refreshInterval`); returns it when it can.
    func refresh() throws -> [AppInfo?]
    func disconnect()
    /// Whether the connection has something queued to write and waits for the descriptor to
    /// be writable too (a D-Bus connection may; a socket written whole at connect never does).
    var wantsToWrite: Bool { get }
    /// What the provider has to say that is no failure of the connection (the desktop's side
    /// is missing and waited for, or back), each said once, for the tracker's warnings.
    func takeNotices() -> [String]
}

extension FocusSource {
    public var refreshInterval: Double? { nil }
    public func refresh() throws -> [AppInfo?] { [] }
    public var wantsToWrite: Bool { false }
    public func takeNotices() -> [String] { [] }
}

/// Why a desktop provider cannot be used (a warning, never an exit).
public struct FocusError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
