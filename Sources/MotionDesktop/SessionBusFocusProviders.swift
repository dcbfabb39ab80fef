/// KDE Plasma (KWin) and GNOME Shell: their `FocusProviderChoice` entries, both over the session
/// bus. The environment selects one when `XDG_CURRENT_DESKTOP` names its desktop in a Wayland
/// session (there `DISPLAY` names Xwayland, which sees only X11 windows), and in an X11 session
/// only when KWin or GNOME Shell answers on the session bus (else x11 serves as before).
extension FocusProvider {
    /// Whether a name has an owner on the session bus, asked once at start (at most 0.5 s), only
    /// by the kwin and gnome entries in an X11 session of KDE or GNOME.
    public static let sessionBusAnswers: @Sendable (String) -> Bool = { SessionBus.probe(name: $0) }

    public static let kwin = FocusProvider(
        name: "kwin", variable: nil,
        detect: { env in sessionDetect(env, desktop: "KDE", service: "org.kde.KWin", what: "KWin") },
        make: { _ in .success(KWinFocusSource()) })

    public static let gnome = FocusProvider(
        name: "gnome", variable: nil,
        detect: { env in sessionDetect(env, desktop: "GNOME", service: "org.gnome.Shell", what: "GNOME Shell") },
        make: { env in .success(GnomeFocusSource(environment: env.variables)) })

    /// Why `desktop`'s entry is chosen, or nil.
    private static func sessionDetect(_ env: FocusEnvironment, desktop: String, service: String, what: String) -> String? {
        guard env.currentDesktop(is: desktop) else { return nil }
        if env.value("WAYLAND_DISPLAY") != nil { return "XDG_CURRENT_DESKTOP names \(desktop), WAYLAND_DISPLAY is set" }
        return env.answers(service) ? "XDG_CURRENT_DESKTOP names \(desktop), \(what) answers on the session bus" : nil
    }
}
