// scripts/test-desktop's client window: `gjs scripts/desktop-window.js APP` opens a GTK 3 window
// whose Wayland app id (and X11 class) is APP (GTK takes it from the program name) and title
// "APP window", and stays until it is killed.
imports.gi.versions.Gtk = '3.0';
const {GLib, Gtk} = imports.gi;
const app = ARGV[0];
GLib.set_prgname(app);
Gtk.init(null);
const window = new Gtk.Window({title: `${app} window`});
window.connect('destroy', () => Gtk.main_quit());
window.show_all();
Gtk.main();
