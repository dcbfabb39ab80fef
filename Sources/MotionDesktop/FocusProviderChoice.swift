/// Which desktop provider a run uses: `--app-provider NAME` (`sway` or `i3`, `hyprland`, `kwin`,
/// `gnome`, `x11`, `none`), or else the first the environment names: `SWAYSOCK` (or `I3SOCK`) →
/// sway, `HYPRLAND_INSTANCE_SIGNATURE` → hyprland, `XDG_CURRENT_DESKTOP` naming KDE → kwin and
/// naming GNOME → gnome (in a Wayland session, `WAYLAND_DISPLAY` set; in an X11 one only when
/// KWin or GNOME Shell answers on the session bus, else x11 serves), `DISPLAY` → x11. On KDE and
/// GNOME's Wayland sessions `DISPLAY` names Xwayland, which sees only X11 windows: their own
/// providers come first (docs/desktop.md).
public enum FocusProviderChoice {
    public static let names = ["sway", "i3", "hyprland", "kwin", "gnome", "x11", "none"]

    /// The source to use (nil: none), or a reason it cannot be made (a forced provider whose
    /// variables are missing).
    /// - Parameter answers: whether a name has an owner on the session bus (asked only in an X11
    ///   session of KDE or GNOME; tests inject one).
    public static func source(forced: String?, environment: [String: String],
                              answers: ((String) -> Bool)? = nil) -> Result<FocusSource?, FocusError> {
        let answers = answers ?? { SessionBus.probe(name: $0) }
        let swaySocket = environment["SWAYSOCK"].flatMap(nonEmpty) ?? environment["I3SOCK"].flatMap(nonEmpty)
        let hyprland: String? = environment["HYPRLAND_INSTANCE_SIGNATURE"].flatMap(nonEmpty).map { signature in
            (environment["XDG_RUNTIME_DIR"].flatMap(nonEmpty) ?? "/run/user/\(getuidValue())") + "/hypr/" + signature
        }
        let display = environment["DISPLAY"].flatMap(nonEmpty)
        switch forced {
        case "none"?:
            return .success(nil)
        case "sway"?, "i3"?:
            guard let swaySocket else { return .failure(FocusError("--app-provider sway needs SWAYSOCK (or I3SOCK) set")) }
            return .success(SwayFocusSource(path: swaySocket))
        case "hyprland"?:
            guard let hyprland else { return .failure(FocusError("--app-provider hyprland needs HYPRLAND_INSTANCE_SIGNATURE set")) }
            return .success(HyprlandFocusSource(directory: hyprland))
        case "kwin"?:
            return .success(KWinFocusSource())
        case "gnome"?:
            return .success(GnomeFocusSource(environment: environment))
        case "x11"?:
            return .success(X11FocusSource(display: display))
        case let other?:
            return .failure(FocusError("unknown app provider \(other) (sway, hyprland, kwin, gnome, x11 or none)"))
        case nil:
            if let swaySocket { return .success(SwayFocusSource(path: swaySocket)) }
            if let hyprland { return .success(HyprlandFocusSource(directory: hyprland)) }
            let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
            let wayland = environment["WAYLAND_DISPLAY"].flatMap(nonEmpty) != nil
            if desktops.contains("KDE"), wayland || answers("org.kde.KWin") { return .success(KWinFocusSource()) }
            if desktops.contains("GNOME"), wayland || answers("org.gnome.Shell") {
                return .success(GnomeFocusSource(environment: environment))
            }
            if let display { return .success(X11FocusSource(display: display)) }
            return .success(nil)
        }
    }

    private static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }
}

#if canImport(Glibc)
import Glibc
private func getuidValue() -> UInt32 { getuid() }
#endif
