#!/usr/bin/env python3
"""The monitor's cost while it follows the terminal, X11, sway, GNOME Shell and KWin, for the sources' notes (ScreenMatesSources catalogue).

Runs `screenmates monitor --source terminal` against a private tmux server with a client
attached (from a pane of a second tmux server) whose pane runs `cat`, `--source x11` against
Xvfb + openbox + an xterm, `--source sway` against a headless sway with two foot windows,
`--source gnome` against a headless GNOME Shell with ScreenMates' extension (.ci/gnome-session)
and `--source kde` against KWin on its virtual backend (.ci/kwin-session), each of those two with
two GTK windows (.ci/desktop-window, app ids btop and nvim), each for --seconds (default 300):
once with nobody touching anything, and once with input every second (a line typed into the
pane; the mouse moved; the focus moved between the windows: swaymsg on sway, alt+tab through
mutter's RemoteDesktop keyboard on GNOME, KWin's "Walk Through Windows" shortcut on KDE).

The monitor's own CPU is its CPU-time clock (clock_getcpuclockid: all its threads' time on a
CPU, those that ended too, in nanoseconds, not the 10 ms ticks of /proc/PID/stat); the tmux
clients it ran and reaped are added from /proc/PID/stat (ticks). It also reads the peer's CPU
the same way (the tmux server, Xvfb, sway, gnome-shell, kwin_wayland) over the same time, and
the monitor's resident memory (VmRSS) at the end, and prints one line per run with CPU seconds
per hour of following.

    swift build -c release --product screenmates
    python3 .ci/bench-sources.py --binary .build/release/screenmates [--seconds 300] [--only terminal|x11|sway|gnome|kde]

GNOME needs gnome-shell, KDE kwin-wayland; both need dbus-daemon, gdbus, and /usr/bin/python3
with python3-gi and gir1.2-gtk-3.0 (the windows, and GNOME's keyboard).
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")
CI = os.path.dirname(os.path.abspath(__file__))


def cpu_seconds(pid, children=True):
    """The process's CPU time: all its threads', ended ones too (its CPU-time clock, ns), and with
    `children` its reaped children's (ticks)."""
    # The clock clock_getcpuclockid(pid) gives: MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED). Summing
    # /proc/PID/task/*/schedstat instead misses every thread that ended in between (the monitor's
    # worker threads come and go), and can even go down.
    seconds = time.clock_gettime(((~pid) << 3) | 2)
    if children:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # cutime cstime: fields 16-17 of the line, 14-15 after "state".
        seconds += (int(fields[13]) + int(fields[14])) / TICKS
    return seconds


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def setup_home(binary, home, env):
    subprocess.run(
        [binary, "setup", "--home", home, "--name", "Bench", "--vice", "btop", "--productive", "neovim"],
        env=env, check=True, stdout=subprocess.DEVNULL)


def follow(binary, home, env, source, seconds, peer_pid, poke):
    said = open(os.path.join(home, "bench-monitor.err"), "w+")
    monitor = subprocess.Popen(
        [binary, "monitor", "--home", home, "--source", source], env=env,
        stdout=subprocess.DEVNULL, stderr=said)
    time.sleep(3)  # start-up is not following
    start_cpu, start_peer, start = cpu_seconds(monitor.pid), cpu_seconds(peer_pid, False), time.monotonic()
    while time.monotonic() - start < seconds:
        time.sleep(1)
        if poke:
            poke()
    elapsed = time.monotonic() - start
    used = cpu_seconds(monitor.pid) - start_cpu
    peer = cpu_seconds(peer_pid, False) - start_peer
    rss = rss_mib(monitor.pid)
    monitor.terminate()
    status = monitor.wait(timeout=30)
    said.seek(0)
    following = [line.strip() for line in said if "following" in line]
    print(f"  {following[-1] if following else 'it followed nothing'}", flush=True)
    return used, peer, elapsed, rss, status


def report(name, used, peer, elapsed, rss, status):
    print(
        f"{name}: monitor {used:.3f} s CPU over {elapsed:.0f} s = {used / elapsed * 3600:.2f} s/h "
        f"({used / elapsed * 100:.4f} %); peer {peer:.2f} s ({peer / elapsed * 3600:.1f} s/h); "
        f"RSS {rss:.1f} MiB; exit {status}", flush=True)


def bench_terminal(binary, seconds, work):
    tmux_dir = os.path.join(work, "tmux")
    os.makedirs(tmux_dir)
    env = dict(os.environ, TMUX_TMPDIR=tmux_dir, LANG="C.UTF-8", TERM="xterm-256color")
    env.pop("TMUX", None)
    home = os.path.join(work, "home-terminal")
    setup_home(binary, home, env)
    # The pane runs `cat`, which reads what is typed into it (a line at a time), as a shell or an
    # editor would.
    subprocess.run(["tmux", "-f", "/dev/null", "new-session", "-d", "-s", "work", "cat"], env=env, check=True)
    subprocess.run(["tmux", "-f", "/dev/null", "-L", "outer", "new-session", "-d", "-x", "100", "-y", "30",
                    "env -u TMUX tmux attach -t work"], env=env, check=True)
    for _ in range(100):
        clients = subprocess.run(["tmux", "list-clients"], env=env, capture_output=True, text=True).stdout
        if clients.strip():
            break
        time.sleep(0.1)
    else:
        raise SystemExit("the tmux client did not attach")
    server = int(subprocess.run(["tmux", "display", "-p", "#{pid}"], env=env, check=True,
                                capture_output=True, text=True).stdout)
    try:
        for typing in (False, True):
            def poke():
                subprocess.run(["tmux", "-L", "outer", "send-keys", "x", "Enter"], env=env, check=True)
            result = follow(binary, home, env, "terminal", seconds, server, poke if typing else None)
            report(f"terminal ({'a line typed every second' if typing else 'nobody typing'})", *result)
    finally:
        subprocess.run(["tmux", "-L", "outer", "kill-server"], env=env)
        subprocess.run(["tmux", "kill-server"], env=env)


def bench_x11(binary, seconds, work):
    number = 250
    while os.path.exists(f"/tmp/.X{number}-lock"):
        number += 1
    display = f":{number}"
    xvfb = subprocess.Popen(["Xvfb", display, "-noreset", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=display)
    children = [xvfb]
    try:
        for _ in range(200):
            if os.path.exists(f"/tmp/.X11-unix/X{number}"):
                break
            time.sleep(0.05)
        children.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        # Windows mapped before openbox is up are not managed: wait for its check window.
        for _ in range(400):
            check = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True, text=True)
            if "window id" in check.stdout:
                break
            time.sleep(0.025)
        children.append(subprocess.Popen(["xterm", "-class", "btop", "-e", "sleep", "100000"], env=env))
        window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--class", "btop"], env=env,
                                check=True, capture_output=True, text=True).stdout.split()[0]
        subprocess.run(["xdotool", "windowactivate", "--sync", window], env=env, check=True)
        home = os.path.join(work, "home-x11")
        setup_home(binary, home, env)
        for typing in (False, True):
            def poke():
                subprocess.run(["xdotool", "mousemove_relative", "1", "1"], env=env, check=True)
            result = follow(binary, home, env, "x11", seconds, xvfb.pid, poke if typing else None)
            report(f"x11 ({'input every second' if typing else 'nobody typing'})", *result)
    finally:
        for child in reversed(children):
            child.terminate()
            child.wait(timeout=30)


def bench_sway(binary, seconds, work):
    runtime = os.path.join(work, "sway")
    os.makedirs(runtime)
    config = os.path.join(runtime, "config")
    with open(config, "w") as f:
        f.write("output HEADLESS-1 resolution 800x600\n")
    command = ["sway", "-c", config]
    if os.getuid() == 0:
        # sway refuses to run as root: as nobody, in a runtime directory of its own.
        os.chmod(work, 0o711)
        os.chmod(runtime, 0o700)
        os.chown(runtime, 65534, 65534)
        os.chown(config, 65534, 65534)
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
    sway_env = {"PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
                "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"}
    sway = subprocess.Popen(command, env=sway_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        socket = wayland = None
        for _ in range(400):
            names = os.listdir(runtime)
            socket = next((n for n in names if n.startswith("sway-ipc.")), None)
            wayland = next((n for n in names if n.startswith("wayland-") and not n.endswith(".lock")), None)
            if socket and wayland:
                break
            time.sleep(0.025)
        else:
            raise SystemExit("sway did not start")
        socket = os.path.join(runtime, socket)
        def swaymsg(*arguments):
            return subprocess.run(["swaymsg", "-s", socket, *arguments], capture_output=True, text=True).stdout
        for _ in range(400):
            if "human_readable" in swaymsg("-t", "get_version"):
                break
            time.sleep(0.025)
        for app in ("btop", "nvim"):
            swaymsg("exec", f"foot --app-id {app} sleep 100000")
            for _ in range(400):
                if f'"app_id": "{app}"' in swaymsg("-t", "get_tree"):
                    break
                time.sleep(0.025)
        swaymsg("[app_id=btop] focus")
        env = dict(os.environ, SWAYSOCK=socket, WAYLAND_DISPLAY=wayland, XDG_RUNTIME_DIR=runtime)
        home = os.path.join(work, "home-sway")
        setup_home(binary, home, env)
        for moving in (False, True):
            focus = ["btop"]
            def poke():
                focus[0] = "nvim" if focus[0] == "btop" else "btop"
                swaymsg(f"[app_id={focus[0]}] focus")
            result = follow(binary, home, env, "sway", seconds, sway.pid, poke if moving else None)
            report(f"sway ({'the focus moved every second' if moving else 'nobody touching anything'})", *result)
    finally:
        sway.terminate()
        sway.wait(timeout=30)


def start_desktop(script, directory):
    """Starts .ci/SCRIPT (gnome-session, kwin-session) in DIRECTORY; the environment it prints."""
    started = subprocess.run([os.path.join(CI, script), "start", directory], capture_output=True, text=True,
                             timeout=180)
    if started.returncode != 0:
        raise SystemExit(f"{script} did not start: {started.stderr}")
    return dict(line.split("=", 1) for line in started.stdout.splitlines() if "=" in line)


def desktop_window(desktop_env, app, shown):
    """A GTK window whose app id and title are APP on the desktop (a new window takes the focus),
    once `shown(app)` says the desktop has it."""
    # The session's environment only: the desktop's programs run on the machine's real clock
    # (no LD_PRELOAD, no FAKETIME), as the session scripts' do.
    env = dict(desktop_env, PATH="/usr/bin:/bin", LANG="C.UTF-8", GDK_BACKEND="wayland")
    window = subprocess.Popen([os.path.join(CI, "desktop-window"), app, app], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        if shown(app):
            return window
        if window.poll() is not None:
            raise SystemExit(f"the {app} window ended ({window.returncode})")
        time.sleep(0.05)
    raise SystemExit(f"the {app} window did not show")


def gdbus(desktop_env, destination, path, method, *arguments):
    env = dict(desktop_env, PATH="/usr/bin:/bin")
    return subprocess.run(["gdbus", "call", "--session", "--timeout", "10", "--dest", destination,
                           "--object-path", path, "--method", method, *arguments],
                          env=env, capture_output=True, text=True).stdout


# Keys through mutter's RemoteDesktop API, as .ci/gnome-session's `keys` presses them, but from one
# session kept open: `keys` makes a session (a new virtual keyboard) per call and takes over a
# second, so it cannot move the focus every second. Each line read is one alt+tab.
ALT_TAB = r"""
import sys, time
from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION)
name = "org.gnome.Mutter.RemoteDesktop"
def call(path, interface, method, arguments=None):
    return bus.call_sync(name, path, interface, method, arguments, None, Gio.DBusCallFlags.NONE, 5000, None)
session = call("/org/gnome/Mutter/RemoteDesktop", name, "CreateSession").unpack()[0]
call(session, name + ".Session", "Start")
time.sleep(0.3)  # the virtual keyboard is added to the seat first
def key(keysym, pressed):
    call(session, name + ".Session", "NotifyKeyboardKeysym", GLib.Variant("(ub)", (keysym, pressed)))
print("ready", flush=True)
for line in sys.stdin:
    key(0xFFE9, True)   # alt
    key(0xFF09, True)   # tab
    time.sleep(0.05)
    key(0xFF09, False)
    time.sleep(0.05)
    key(0xFFE9, False)
    print("pressed", flush=True)
call(session, name + ".Session", "Stop")
"""


def bench_gnome(binary, seconds, work):
    directory = os.path.join(work, "gnome")
    children = []
    try:
        desktop_env = start_desktop("gnome-session", directory)
        with open(os.path.join(directory, "gnome-shell.pid")) as f:
            shell = int(f.read())
        def focused(app):
            return f"'{app}'" in gdbus(desktop_env, "org.screenmates.FocusedWindow", "/org/screenmates/FocusedWindow",
                                       "org.screenmates.FocusedWindow.Get").split(",")[0]
        for app in ("btop", "nvim"):
            children.append(desktop_window(desktop_env, app, focused))
        env = dict(os.environ, **desktop_env)
        home = os.path.join(work, "home-gnome")
        setup_home(binary, home, env)
        for moving in (False, True):
            poke = None
            if moving:
                keys = subprocess.Popen(["/usr/bin/python3", "-c", ALT_TAB], env=dict(desktop_env, PATH="/usr/bin:/bin"),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                children.append(keys)
                if keys.stdout.readline().strip() != "ready":
                    raise SystemExit("mutter's RemoteDesktop keyboard did not start")
                def poke():
                    keys.stdin.write("alt+tab\n")
                    keys.stdin.flush()
                    keys.stdout.readline()
                # The keyboard moves the focus, or the run would measure nothing happening. The
                # headless seat loses the first keys of a new virtual keyboard now and then: a press
                # that changed nothing is made again.
                before = "nvim" if focused("nvim") else "btop"
                moved = False
                for _ in range(3):
                    poke()
                    for _ in range(40):
                        moved = not focused(before)
                        if moved:
                            break
                        time.sleep(0.05)
                    if moved:
                        break
                if not moved:
                    raise SystemExit("alt+tab did not move the focus on GNOME Shell")
            result = follow(binary, home, env, "gnome", seconds, shell, poke)
            report(f"gnome ({'the focus moved every second' if moving else 'nobody touching anything'})", *result)
    finally:
        for child in reversed(children):
            if child.stdin:
                child.stdin.close()
            child.terminate()
            child.wait(timeout=30)
        subprocess.run([os.path.join(CI, "gnome-session"), "stop", directory])


def bench_kde(binary, seconds, work):
    directory = os.path.join(work, "kwin")
    children = []
    try:
        desktop_env = start_desktop("kwin-session", directory)
        with open(os.path.join(directory, "kwin.pid")) as f:
            kwin = int(f.read())
        def shown(app):
            # KWin's own window search (what KRunner asks), by title.
            return f"'{app}'" in gdbus(desktop_env, "org.kde.KWin", "/WindowsRunner", "org.kde.krunner1.Match", app)
        for app in ("btop", "nvim"):
            children.append(desktop_window(desktop_env, app, shown))
        env = dict(os.environ, **desktop_env)
        home = os.path.join(work, "home-kde")
        setup_home(binary, home, env)
        for moving in (False, True):
            def poke():
                # Alt+Tab: the window used before.
                gdbus(desktop_env, "org.kde.kglobalaccel", "/component/kwin",
                      "org.kde.kglobalaccel.Component.invokeShortcut", "Walk Through Windows")
            result = follow(binary, home, env, "kde", seconds, kwin, poke if moving else None)
            report(f"kde ({'the focus moved every second' if moving else 'nobody touching anything'})", *result)
    finally:
        for child in reversed(children):
            child.terminate()
            child.wait(timeout=30)
        subprocess.run([os.path.join(CI, "kwin-session"), "stop", directory])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=".build-ci/release/screenmates")
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--only", choices=["terminal", "x11", "sway", "gnome", "kde"])
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    work = tempfile.mkdtemp(prefix="sm-bench-sources-")
    try:
        if arguments.only in (None, "terminal"):
            bench_terminal(binary, arguments.seconds, work)
        if arguments.only in (None, "x11"):
            bench_x11(binary, arguments.seconds, work)
        if arguments.only in (None, "sway"):
            bench_sway(binary, arguments.seconds, work)
        if arguments.only in (None, "gnome"):
            bench_gnome(binary, arguments.seconds, work)
        if arguments.only in (None, "kde"):
            bench_kde(binary, arguments.seconds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
