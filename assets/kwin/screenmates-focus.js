// ScreenMates: tells the monitor (org.screenmates.Monitor on the session bus) which window is
// active, on every activation and when the active window's title changes:
//   WindowActivated(s app_id, s title)  -- app_id: resourceClass (Wayland app_id, X11 class),
//                                          both empty when no window is active.
// KWin 5.27 (workspace.clientActivated, activeClient) and 6 (windowActivated, activeWindow).
// The monitor loads it through org.kde.kwin.Scripting and unloads it when it stops.
// The monitor puts its own unique bus name here when it loads the script, so that several
// monitors (and a monitor started again) each hear of the focus.
const service = "org.screenmates.Monitor";
const iface = "org.screenmates.Monitor";
let watched = null;

function report(window) {
    if (window !== watched) {
        if (watched) watched.captionChanged.disconnect(retitled);
        watched = window;
        if (window) window.captionChanged.connect(retitled);
    }
    callDBus(service, "/org/screenmates/Monitor", iface, "WindowActivated",
        window ? String(window.resourceClass) : "", window ? String(window.caption) : "");
}

function retitled() {
    report(watched);
}

(workspace.windowActivated || workspace.clientActivated).connect(report);
report(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
