import MotionGestures

/// The KWin script `KWinFocusSource` loads: KWin tells the focused window only to its own
/// scripts, so this one tells it on to motionscript, calling `Activated` on the connection that
/// loaded it (its unique bus name: no well-known name, so several motionscript processes each
/// have their own script). KWin 6 names the signal `windowActivated` and the property
/// `activeWindow`; 5.27 `clientActivated` and `activeClient`. Every argument is a string
/// (`callDBus` turns a JavaScript number into a double or an int, depending on the version).
/// Title changes of the focused window are changes too, as on sway.
enum KWinScript {
    static let objectPath = "/org/motionscript/Focus"
    static let interface = "org.motionscript.Focus"
    static let member = "Activated"

    /// The script for the connection named `destination` (`:1.42`).
    static func text(destination: String) -> String {
        """
        // motionscript: tells the focused window to motionscript (docs/desktop.md). Loaded and
        // unloaded by motionscript over D-Bus; it calls only the process that loaded it.
        (function () {
            var destination = \(javaScriptString(destination));
            var current = null;
            function text(value) { return value === undefined || value === null ? "" : String(value); }
            function send() {
                var w = current;
                callDBus(destination, "\(objectPath)", "\(interface)", "\(member)",
                         w ? text(w.resourceClass) : "", w ? text(w.resourceName) : "",
                         w ? text(w.desktopFileName) : "", w ? text(w.caption) : "", w ? text(w.pid) : "");
            }
            function activated(window) {
                if (current) {
                    try { current.captionChanged.disconnect(send); } catch (e) {}
                }
                current = window || null;
                if (current) {
                    try { current.captionChanged.connect(send); } catch (e) {}
                }
                send();
            }
            if (workspace.windowActivated) {
                workspace.windowActivated.connect(activated);
                activated(workspace.activeWindow);
            } else {
                workspace.clientActivated.connect(activated);
                activated(workspace.activeClient);
            }
        })();

        """
    }

    /// The app `Activated`'s arguments tell: resource class (the Wayland app id, or the X11
    /// class), resource name (the X11 instance; on Wayland the program's name), desktop file
    /// name, caption, pid; nil when no window is focused (no class, name nor desktop file).
    static func app(from arguments: [String]) -> AppInfo?? {
        guard arguments.count >= 5 else { return nil }
        let resourceClass = arguments[0], resourceName = arguments[1], desktopFile = arguments[2]
        guard let id = [resourceClass, desktopFile, resourceName].first(where: { !$0.isEmpty }) else { return .some(nil) }
        return .some(AppInfo(id: id, className: resourceClass.isEmpty ? nil : resourceClass,
                             instance: resourceName.isEmpty ? nil : resourceName,
                             title: arguments[3], pid: Int(arguments[4]).flatMap { $0 > 0 ? $0 : nil }))
    }

    /// `s` as a JavaScript string literal.
    static func javaScriptString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
