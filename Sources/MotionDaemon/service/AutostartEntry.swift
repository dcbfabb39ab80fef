/// The XDG autostart entry `motionscript init --autostart` writes
/// (`~/.config/autostart/motionscript.desktop`, docs/daemon.md "The service"): sessions that read
/// autostart entries (openbox, Xfce, LXQt, sway or i3 with `dex -a`) start the daemon at login.
/// With a systemd user manager that has the unit, the session's variables are imported and the
/// service started (it restarts on failure, reloads, logs to the journal); without one — no
/// systemd, or no unit — the daemon runs as the session's own child.
public enum AutostartEntry {
    public static let fileName = "motionscript.desktop"

    public static func text(binary: String) -> String {
        let variables = ServiceUnit.sessionVariables.joined(separator: " ")
        let start = "systemctl --user import-environment \(variables) 2>/dev/null && systemctl --user start motionscript 2>/dev/null || exec \(binary) daemon"
        return """
            [Desktop Entry]
            Type=Application
            Name=motionscript
            Comment=Touchpad and touchscreen gestures (the plugins in ~/.config/motionscript)
            Exec=sh -c "\(start)"
            Terminal=false
            NoDisplay=true
            X-GNOME-Autostart-enabled=true

            """
    }

    /// `~/.config/autostart/motionscript.desktop` (XDG_CONFIG_HOME honoured).
    public static var userPath: String { ServiceUnit.configHome + "/autostart/" + fileName }
}
