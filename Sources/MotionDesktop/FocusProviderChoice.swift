/// Which desktop provider a run uses: `--app-provider NAME` (`sway` or `i3`, `hyprland`, `x11`,
/// `none`), or else the first the environment names: `SWAYSOCK` (or `I3SOCK`) → sway,
/// `HYPRLAND_INSTANCE_SIGNATURE` → hyprland, `DISPLAY` → x11. GNOME and KDE tell the focused
/// window to no client without a shell extension or a KWin script: not supported (their X11
/// sessions work through x11; docs/desktop.md).
public enum FocusProviderChoice {
    public static let names = ["sway", "i3", "hyprland", "x11", "none"]

    /// The source to use (nil: none), or a reason it cannot be made (a forced provider whose
    /// variables are missing).
    public static func source(forced: String?, environment: [String: String]) -> Result<FocusSource?, FocusError> {
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
        case "x11"?:
            return .success(X11FocusSource(display: display))
        case let other?:
            return .failure(FocusError("unknown app provider \(other) (sway, hyprland, x11 or none)"))
        case nil:
            if let swaySocket { return .success(SwayFocusSource(path: swaySocket)) }
            if let hyprland { return .success(HyprlandFocusSource(directory: hyprland)) }
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
