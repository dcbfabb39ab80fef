import Foundation
import MotionGestures

/// The GNOME Shell extension motionscript installs (`motionscript init --gnome-extension`):
/// Mutter tells the focused window to no client, so the extension owns `busName` on the session
/// bus, emits `FocusChanged` at every `notify::focus-window` (and title change of the focused
/// window), and answers `Current` with the same fields: the Wayland app id or X11 class
/// (`wm_class`; the GTK application id when there is none), the class, the X11 instance, the
/// title and the pid, all strings ("" for what is missing; all empty: no window focused).
/// GNOME Shell 45 and later load extensions as ES modules, 43 and 44 the older way: `files`
/// writes the one the installed shell takes.
public enum GnomeExtension {
    public static let uuid = "motionscript-focus@motionscript"
    static let busName = "org.motionscript.GnomeFocus"
    static let objectPath = "/org/motionscript/GnomeFocus"
    static let interface = "org.motionscript.GnomeFocus"

    /// The folder GNOME Shell finds the user's extensions in.
    public static func userFolder(environment: [String: String]) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/gnome-shell/extensions/" + uuid
    }

    /// Whether the extension is installed for the user or system-wide (`XDG_DATA_DIRS`).
    static func isInstalled(environment: [String: String]) -> Bool {
        let system = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map { "\($0)/gnome-shell/extensions/\(uuid)" }
        return ([userFolder(environment: environment)] + system).contains {
            FileManager.default.fileExists(atPath: $0 + "/metadata.json")
        }
    }

    /// The installed GNOME Shell's major version (`gnome-shell --version`: "GNOME Shell 43.9"), if it says.
    public static func shellMajorVersion(fromVersionOutput output: String) -> Int? {
        guard let word = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).last(where: { $0.first?.isNumber == true }) else { return nil }
        return Int(word.prefix(while: { $0.isNumber }))
    }

    /// The extension's files for a GNOME Shell major version (nil: unknown, the ES module kind).
    public static func files(shellMajorVersion major: Int?) -> [(name: String, text: String)] {
        let modules = (major ?? 45) >= 45
        let versions = modules ? ["45", "46", "47", "48", "49"] : ["43", "44"]
        let metadata = """
            {
              "uuid": "\(uuid)",
              "name": "motionscript focus",
              "description": "Tells motionscript which application has the focus, for per-application gestures (apps = in motionscript's scripts). Installed by `motionscript init --gnome-extension`.",
              "shell-version": [\(versions.map { "\"\($0)\"" }.joined(separator: ", "))],
              "version": 1
            }

            """
        return [("metadata.json", metadata), ("extension.js", modules ? moduleScript : legacyScript)]
    }

    /// What the reporter does, in both kinds of extension.
    static let reporter = """
        const BUS_NAME = '\(busName)';
        const OBJECT_PATH = '\(objectPath)';
        const INTERFACE = `<node><interface name="\(interface)">
          <method name="Current">
            <arg type="s" direction="out" name="id"/><arg type="s" direction="out" name="wmClass"/>
            <arg type="s" direction="out" name="wmInstance"/><arg type="s" direction="out" name="title"/>
            <arg type="s" direction="out" name="pid"/>
          </method>
          <signal name="FocusChanged">
            <arg type="s" name="id"/><arg type="s" name="wmClass"/><arg type="s" name="wmInstance"/>
            <arg type="s" name="title"/><arg type="s" name="pid"/>
          </signal>
        </interface></node>`;

        function text(value) {
            return value === undefined || value === null ? '' : String(value);
        }

        function fields(window) {
            if (!window)
                return ['', '', '', '', ''];
            const wmClass = text(window.get_wm_class());
            const id = wmClass || text(window.get_gtk_application_id()) || text(window.get_sandboxed_app_id());
            return [id, wmClass, text(window.get_wm_class_instance()), text(window.get_title()), text(window.get_pid())];
        }

        // Owns the bus name while enabled; pushes each focus change as a signal.
        class FocusReporter {
            enable() {
                this._window = null;
                this._titleId = 0;
                this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
                this._object.export(Gio.DBus.session, OBJECT_PATH);
                this._nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME,
                    Gio.BusNameOwnerFlags.NONE, null, null);
                this._focusId = global.display.connect('notify::focus-window', () => this._focusChanged());
                this._focusChanged();
            }

            disable() {
                global.display.disconnect(this._focusId);
                this._follow(null);
                Gio.bus_unown_name(this._nameId);
                this._object.unexport();
                this._object = null;
            }

            Current() {
                return fields(this._window);
            }

            _follow(window) {
                if (this._window && this._titleId) {
                    try {
                        this._window.disconnect(this._titleId);
                    } catch (e) {
                        // The window is gone.
                    }
                }
                this._window = window;
                this._titleId = window ? window.connect('notify::title', () => this._emit()) : 0;
            }

            _focusChanged() {
                this._follow(global.display.focus_window);
                this._emit();
            }

            _emit() {
                if (this._object)
                    this._object.emit_signal('FocusChanged', new GLib.Variant('(sssss)', fields(this._window)));
            }
        }
        """

    /// GNOME Shell 45 and later: an ES module.
    static let moduleScript = """
        // motionscript focus: tells motionscript the focused application (motionscript's docs/desktop.md).
        import Gio from 'gi://Gio';
        import GLib from 'gi://GLib';
        import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

        \(reporter)

        export default class MotionscriptFocusExtension extends Extension {
            enable() {
                this._reporter = new FocusReporter();
                this._reporter.enable();
            }

            disable() {
                this._reporter.disable();
                this._reporter = null;
            }
        }

        """

    /// GNOME Shell 43 and 44.
    static let legacyScript = """
        // motionscript focus: tells motionscript the focused application (motionscript's docs/desktop.md).
        const {Gio, GLib} = imports.gi;

        \(reporter)

        class MotionscriptFocusExtension {
            enable() {
                this._reporter = new FocusReporter();
                this._reporter.enable();
            }

            disable() {
                this._reporter.disable();
                this._reporter = null;
            }
        }

        function init() {
            return new MotionscriptFocusExtension();
        }

        """

    /// The app `FocusChanged`'s (or `Current`'s) fields tell; nil when no window is focused.
    static func app(from arguments: [String]) -> AppInfo?? {
        guard arguments.count >= 5 else { return nil }
        let id = [arguments[0], arguments[1], arguments[2]].first { !$0.isEmpty }
        guard let id else { return .some(nil) }
        return .some(AppInfo(id: id, className: arguments[1].isEmpty ? nil : arguments[1],
                             instance: arguments[2].isEmpty ? nil : arguments[2],
                             title: arguments[3], pid: Int(arguments[4]).flatMap { $0 > 0 ? $0 : nil }))
    }
}
