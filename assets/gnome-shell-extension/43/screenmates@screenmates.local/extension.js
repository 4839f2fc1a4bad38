// ScreenMates: the focused window's application id (Wayland app_id, X11 WM_CLASS class) and
// title, on the session bus: org.screenmates.FocusedWindow at /org/screenmates/FocusedWindow,
// method Get() -> (ss), signal Changed(ss) when focus or the focused window's title changes;
// Minimize(s app_id) -> b and Close(s app_id) -> b act on the focused window, and only while its
// application id is still app_id (a window that took the focus in between is left alone): Close
// asks the application, as the window's close button would (it may ask to save first).
// GNOME Shell 40-44 (legacy imports); 45 and later load the ES module in ../../45.
'use strict';
const {Gio, GLib} = imports.gi;

const NAME = 'org.screenmates.FocusedWindow';
const PATH = '/org/screenmates/FocusedWindow';
const XML = `<node><interface name="${NAME}">
<method name="Get"><arg name="app_id" type="s" direction="out"/><arg name="title" type="s" direction="out"/></method>
<method name="Minimize"><arg name="app_id" type="s" direction="in"/><arg name="done" type="b" direction="out"/></method>
<method name="Close"><arg name="app_id" type="s" direction="in"/><arg name="done" type="b" direction="out"/></method>
<signal name="Changed"><arg name="app_id" type="s"/><arg name="title" type="s"/></signal>
</interface></node>`;

class FocusedWindow {
    enable() {
        this._dbus = Gio.DBusExportedObject.wrapJSObject(XML, this);
        this._dbus.export(Gio.DBus.session, PATH);
        this._owner = Gio.bus_own_name_on_connection(Gio.DBus.session, NAME, Gio.BusNameOwnerFlags.NONE, null, null);
        this._focus = global.display.connect('notify::focus-window', () => this._follow());
        this._follow();
    }

    disable() {
        global.display.disconnect(this._focus);
        this._window?.disconnect(this._title);
        this._window = null;
        Gio.bus_unown_name(this._owner);
        this._dbus.unexport();
        this._dbus = null;
    }

    Get() {
        const window = global.display.focus_window;
        return [window?.get_wm_class() ?? '', window?.get_title() ?? ''];
    }

    Minimize(appId) {
        const window = this._focused(appId);
        if (!window?.can_minimize())
            return false;
        window.minimize();
        return true;
    }

    Close(appId) {
        const window = this._focused(appId);
        if (!window?.can_close())
            return false;
        window.delete(global.get_current_time());
        return true;
    }

    _focused(appId) {
        const window = global.display.focus_window;
        return appId !== '' && window?.get_wm_class() === appId ? window : null;
    }

    _follow() {
        this._window?.disconnect(this._title);
        this._window = global.display.focus_window;
        this._title = this._window?.connect('notify::title', () => this._changed());
        this._changed();
    }

    _changed() {
        this._dbus.emit_signal('Changed', new GLib.Variant('(ss)', this.Get()));
    }
}

function init() {
    return new FocusedWindow();
}
