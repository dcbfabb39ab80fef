// scripts/test-desktop's stand-in for a user switching windows in GNOME Shell (org.gnome.Shell.Eval
// is closed outside unsafe mode): org.motionscript.TestShell Windows() and Activate(wmClass).
const {Gio} = imports.gi;
const Main = imports.ui.main;

const INTERFACE = `<node><interface name="org.motionscript.TestShell">
  <method name="Windows"><arg type="s" direction="out" name="classes"/></method>
  <method name="Activate"><arg type="s" direction="in" name="wmClass"/><arg type="b" direction="out" name="found"/></method>
</interface></node>`;

class TestShell {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
        this._object.export(Gio.DBus.session, '/org/motionscript/TestShell');
        this._nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.motionscript.TestShell',
            Gio.BusNameOwnerFlags.NONE, null, null);
    }

    disable() {
        Gio.bus_unown_name(this._nameId);
        this._object.unexport();
    }

    _windows() {
        return global.get_window_actors().map(actor => actor.meta_window).filter(w => w.get_wm_class());
    }

    Windows() {
        return this._windows().map(w => w.get_wm_class()).sort().join(',');
    }

    Activate(wmClass) {
        // GNOME Shell starts in the overview, where no window has the focus.
        Main.overview.hide();
        const window = this._windows().find(w => w.get_wm_class() === wmClass);
        if (window)
            window.activate(global.get_current_time());
        return !!window;
    }
}

function init() {
    return new TestShell();
}
