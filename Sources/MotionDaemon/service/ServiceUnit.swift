#if canImport(Glibc)
import Glibc
#endif

/// The systemd user unit for `motionscript daemon` (docs/desktop.md): Type=notify, so systemd
/// knows when the plugins are loaded (READY=1) and shows the counts (STATUS=); `systemctl --user
/// reload` sends SIGHUP, which reloads every plugin; Restart=on-failure brings back a daemon that
/// failed (it exits non-zero only for real failures: a device going away is not one).
public enum ServiceUnit {
    public static let fileName = "motionscript.service"

    public static func text(binary: String) -> String {
        """
        # motionscript: every plugin (*.lua) in ~/.config/motionscript, as a systemd user service.
        # Written by `motionscript init --service`; see docs/desktop.md.
        [Unit]
        Description=motionscript gestures (the plugins in ~/.config/motionscript)
        Documentation=man:motionscript(1)
        PartOf=graphical-session.target
        After=graphical-session.target

        # Sessions that systemd starts (GNOME, KDE…) reach graphical-session.target, with their
        # environment imported. Sessions it does not start (sway, i3, openbox…) start the
        # service themselves, with what launched commands and the focus providers need (SWAYSOCK
        # or HYPRLAND_INSTANCE_SIGNATURE decide the provider):
        #   systemctl --user import-environment \(ServiceUnit.sessionVariables.joined(separator: " "))
        #   systemctl --user start motionscript
        # `motionscript init --autostart` writes an XDG autostart entry that does both.

        [Service]
        Type=notify
        NotifyAccess=main
        # Add --notify for a desktop notification (notify-send) when a plugin fails:
        #   ExecStart=\(binary) daemon --notify
        ExecStart=\(binary) daemon
        ExecReload=/bin/kill -HUP $MAINPID
        # The JSON Lines are for `ctl monitor` and debugging; diagnostics reach the journal with
        # their priority (error, warning, info).
        StandardOutput=null
        Restart=on-failure
        RestartSec=2
        # Programs the gestures launched keep running when the service restarts.
        KillMode=process

        [Install]
        WantedBy=graphical-session.target

        """
    }

    /// The session's variables the service needs: the display for the commands it launches,
    /// the compositor's socket for the focus provider (`--app-provider`'s choice).
    public static let sessionVariables = ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP"]

    /// `~/.config/systemd/user/motionscript.service` (XDG_CONFIG_HOME honoured).
    public static var userPath: String { configHome + "/systemd/user/" + fileName }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    static var configHome: String {
        getenv("XDG_CONFIG_HOME").flatMap { $0.pointee == 0 ? nil : String(cString: $0) }
            ?? ((getenv("HOME").map { String(cString: $0) } ?? ".") + "/.config")
    }

    /// The path of the running program (what ExecStart should start).
    public static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/usr/bin/motionscript"
    }
}
