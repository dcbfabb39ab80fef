/// The focused application as a desktop reports it: `id` is the Wayland `app_id` or, on X11
/// (and for X11 clients under sway), the `WM_CLASS` class. Immutable, so every frame, gesture
/// and stream value that mentions it shares one object.
public final class AppInfo: Sendable, Equatable, CustomStringConvertible {
    /// The Wayland `app_id`, or the X11 class: what `apps =` names first.
    public let id: String
    /// X11 `WM_CLASS` class (sway: `window_properties.class`; Hyprland: the class).
    public let className: String?
    /// X11 `WM_CLASS` instance.
    public let instance: String?
    /// The window title.
    public let title: String?
    /// The client's process id, when the desktop tells it.
    public let pid: Int?
    /// `id`, `className` and `instance` lowercased: what `apps =` names are compared with
    /// (case-insensitive), made once here rather than at every gesture.
    let matchKeys: [String]

    /// An app as a provider or an app line describes it.
    public init(id: String, className: String? = nil, instance: String? = nil, title: String? = nil, pid: Int? = nil) {
        self.id = id
        self.className = className
        self.instance = instance
        self.title = title
        self.pid = pid
        var keys = [id.lowercased()]
        for extra in [className, instance] {
            if let key = extra?.lowercased(), !keys.contains(key) { keys.append(key) }
        }
        matchKeys = keys
    }

    /// Whether `name` (lowercased) names this application: its id, class or instance.
    func isNamed(_ lowercasedName: String) -> Bool {
        matchKeys.contains(lowercasedName)
    }

    /// Equal in every field (a title change is a change).
    public static func == (a: AppInfo, b: AppInfo) -> Bool {
        a === b || (a.id == b.id && a.className == b.className && a.instance == b.instance
                    && a.title == b.title && a.pid == b.pid)
    }

    /// `id (title)`, for messages.
    public var description: String { title.map { "\(id) (\($0))" } ?? id }
}

/// A change of the focused application at an input time: the app, or nil when no window has
/// the focus (an empty workspace).
public struct FocusChange: Sendable, Equatable {
    /// The app now focused; nil: none.
    public var app: AppInfo?

    /// A change to `app`.
    public init(app: AppInfo?) {
        self.app = app
    }
}
