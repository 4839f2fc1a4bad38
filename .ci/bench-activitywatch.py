#!/usr/bin/env python3
"""The ActivityWatch figures its Measurements article quotes, against the real aw-server.

1. import: events read and blocks derived per second by `screenmates import activitywatch`
   from a server holding a month of one-second heartbeats (each its own event: the most a
   watcher can leave, since ActivityWatch usually merges them).
2. delay: from the heartbeat whose time crosses a block boundary (1-minute blocks) to the
   dashboard's screen showing the new block (tmux, the screen read every 50 ms), with
   `screenmates monitor --source activitywatch` following a server fed like aw-watcher-window
   and aw-watcher-afk feed it (one heartbeat a second each).
3. idle: the monitor's CPU time and resident memory while following (with the watchers
   sending, and with nothing new).

    python3 .ci/bench-activitywatch.py [--days 30] [--hours 8] [--samples 5] [--idle-seconds 60]

Uses .build-ci/release/screenmates when it exists (swift build -c release --scratch-path .build-ci),
else the debug build. aw-server 0.12 from PyPI keeps a month only in its persistent (peewee)
storage, which works with peewee < 3.18 alone: the script makes .build-ci/aw-bench-venv with
those (the follow part uses .build-ci/aw-venv, as .ci/run installs it, with in-memory storage).
Only loopback addresses are used; every process started is stopped at the end.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, executable, storage, data_home):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, XDG_DATA_HOME=data_home, XDG_CACHE_HOME=data_home, XDG_CONFIG_HOME=data_home)
        self.process = subprocess.Popen(
            [executable, "--testing", "--host", "127.0.0.1", "--port", str(self.port), "--storage", storage],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.call("GET", "/api/0/info")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("aw-server did not start")

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, method=method, data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as response:
            return response.read()

    def buckets(self, host):
        self.call("POST", f"/api/0/buckets/aw-watcher-window_{host}",
                  {"client": "bench", "type": "currentwindow", "hostname": host})
        self.call("POST", f"/api/0/buckets/aw-watcher-afk_{host}",
                  {"client": "bench", "type": "afkstatus", "hostname": host})

    def cpu_seconds(self):
        return cpu_seconds(self.process.pid)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def iso(instant):
    return instant.astimezone(datetime.timezone.utc).isoformat()


def run(binary, *arguments, check=True):
    result = subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=3600)
    if check and result.returncode != 0:
        raise SystemExit(f"{arguments} failed ({result.returncode}): {result.stderr}")
    return result


def bench_venv():
    venv = os.path.join(ROOT, ".build-ci/aw-bench-venv")
    executable = os.path.join(venv, "bin/aw-server")
    if not os.access(executable, os.X_OK):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin/pip"), "install", "--quiet", "--disable-pip-version-check",
                        "aw-server", "peewee<3.18"], check=True)
    return executable


def bench_import(binary, days, hours, scratch):
    server = Server(bench_venv(), "peewee", os.path.join(scratch, "aw-import"))
    try:
        host = "bench"
        server.buckets(host)
        apps = [("Code", "main.swift"), ("firefox", "Lofi - YouTube — Mozilla Firefox"), ("Slack", "general")]
        today = datetime.datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        first = today - datetime.timedelta(days=days)
        started = time.monotonic()
        posted = 0
        for day in range(days):
            start = first + datetime.timedelta(days=day, hours=9)
            for part in range(0, hours * 3600, 3600):
                windows, presence = [], []
                for second in range(part, part + 3600):
                    at = iso(start + datetime.timedelta(seconds=second))
                    app, title = apps[(second // 600) % len(apps)]
                    windows.append({"timestamp": at, "duration": 1.0, "data": {"app": app, "title": title}})
                    presence.append({"timestamp": at, "duration": 1.0, "data": {"status": "not-afk"}})
                server.call("POST", f"/api/0/buckets/aw-watcher-window_{host}/events", windows)
                server.call("POST", f"/api/0/buckets/aw-watcher-afk_{host}/events", presence)
                posted += len(windows) + len(presence)
        fill = time.monotonic() - started
        home = os.path.join(scratch, "import-home")
        run(binary, "setup", "--home", home, "--name", "bench", "--vice", "YouTube", "--productive", "vscode")
        since = first.date().isoformat()
        arguments = ["import", "activitywatch", "--home", home, "--url", server.url, "--host", host, "--since", since]
        server_cpu = server.cpu_seconds()
        before = os.times()
        started = time.monotonic()
        first_run = run(binary, *arguments)
        elapsed = time.monotonic() - started
        after = os.times()
        own_cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        server_cpu = server.cpu_seconds() - server_cpu
        read = int(re.search(r"Read (\d+) ActivityWatch events", first_run.stdout).group(1))
        blocks = int(re.search(r": (\d+) blocks? \(", first_run.stdout).group(1))
        started = time.monotonic()
        again = run(binary, *arguments)
        again_elapsed = time.monotonic() - started
        print(f"Import: {days} days x {hours} h of one-second heartbeats, window and AFK, each its own event "
              f"({posted} events, posted in {fill:.0f} s)")
        print(f"  screenmates import activitywatch: {elapsed:.1f} s, {read} events read, {blocks} blocks")
        print(f"  {read / elapsed:,.0f} events read and {blocks / elapsed:,.0f} blocks derived per second "
              f"(wall clock, aw-server serving the events included)")
        print(f"  CPU: screenmates {own_cpu:.1f} s ({read / max(own_cpu, 0.001):,.0f} events per CPU second), "
              f"aw-server {server_cpu:.1f} s")
        print(f"  the same import again: {again_elapsed:.1f} s; "
              + re.search(r"(\d+ of them were there already)", again.stdout).group(1))
    finally:
        server.stop()


class Screen:
    """Reads the dashboard's blocks figure every 50 ms and remembers when it changed."""

    def __init__(self, socket_name):
        self.socket_name = socket_name
        self.changes = []  # (monotonic, blocks)
        self.stop = False
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        last = None
        while not self.stop:
            text = subprocess.run(["tmux", "-L", self.socket_name, "capture-pane", "-p", "-t", "dash"],
                                  capture_output=True, text=True).stdout
            match = re.search(r"(\d+) / \d+ blocks", text)
            if match and int(match.group(1)) != last:
                last = int(match.group(1))
                self.changes.append((time.monotonic(), last))
            time.sleep(0.05)


def bench_follow(binary, aw_server, samples, idle_seconds, scratch):
    server = Server(aw_server, "memory", os.path.join(scratch, "aw-follow"))
    socket_name = f"bench-aw-{os.getpid()}"
    monitor = None
    try:
        host = "bench"
        server.buckets(host)
        home = os.path.join(scratch, "follow-home")
        run(binary, "setup", "--home", home, "--name", "bench", "--vice", "Discord", "--productive", "vscode",
            "--goal", "96")
        run(binary, "config", "--home", home, "set", "block_minutes", "1")
        subprocess.run(["tmux", "-L", socket_name, "-f", "/dev/null", "new-session", "-d", "-s", "dash", "-x", "120",
                        "-y", "40", f"env LANG=C.UTF-8 {binary} --home {home} dashboard"], check=True)
        monitor = subprocess.Popen(
            [binary, "monitor", "--home", home, "--source", "activitywatch", "--url", server.url, "--host", host,
             "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        screen = Screen(socket_name)
        time.sleep(3)
        # One heartbeat a second from each watcher, as aw-watcher-window and aw-watcher-afk send them.
        heartbeats = []  # (seconds of focus so far, monotonic when the server had it)
        cpu_before = cpu_seconds(monitor.pid)
        started_at = datetime.datetime.now(datetime.timezone.utc)
        following_started = time.monotonic()
        while len([h for h in heartbeats if h[0] >= 60 * samples]) == 0:
            now = datetime.datetime.now(datetime.timezone.utc)
            server.call("POST", f"/api/0/buckets/aw-watcher-afk_{host}/heartbeat?pulsetime=185",
                        {"timestamp": iso(now), "duration": 0, "data": {"status": "not-afk"}})
            server.call("POST", f"/api/0/buckets/aw-watcher-window_{host}/heartbeat?pulsetime=2",
                        {"timestamp": iso(now), "duration": 0, "data": {"app": "discord", "title": "#general"}})
            heartbeats.append(((now - started_at).total_seconds(), time.monotonic()))
            time.sleep(max(0, 1 - (time.monotonic() - heartbeats[-1][1])))
        following = time.monotonic() - following_started
        busy_cpu = cpu_seconds(monitor.pid) - cpu_before
        time.sleep(5)
        delays = []
        for k in range(1, samples + 1):
            crossing = next(at for seconds, at in heartbeats if seconds >= 60 * k)
            shown = next((at for at, blocks in screen.changes if blocks >= k and at >= crossing), None)
            if shown is not None:
                delays.append(shown - crossing)
        # Nothing new: the watchers stopped.
        cpu_before = cpu_seconds(monitor.pid)
        time.sleep(idle_seconds)
        quiet_cpu = cpu_seconds(monitor.pid) - cpu_before
        rss = resident_mib(monitor.pid)
        screen.stop = True
        delays.sort()
        print(f"Follow: heartbeat crossing a block boundary to the dashboard's screen, {len(delays)} of {samples} "
              f"crossings seen (the monitor reads ActivityWatch every 2 s):")
        if delays:
            print(f"  median {delays[len(delays) // 2] * 1000:.0f} ms, min {delays[0] * 1000:.0f} ms, "
                  f"max {delays[-1] * 1000:.0f} ms")
        print(f"  monitor CPU while following (watchers sending): {busy_cpu * 1000:.0f} ms over {following:.0f} s "
              f"({busy_cpu / following * 100:.2f} %)")
        print(f"  monitor CPU with nothing new: {quiet_cpu * 1000:.0f} ms over {idle_seconds} s "
              f"({quiet_cpu / idle_seconds * 100:.2f} %); resident memory {rss:.1f} MiB")
    finally:
        if monitor is not None:
            monitor.terminate()
            monitor.wait(20)
        subprocess.run(["tmux", "-L", socket_name, "kill-server"], capture_output=True)
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--hours", type=int, default=8, help="hours of heartbeats a day")
    parser.add_argument("--samples", type=int, default=5, help="block crossings to time")
    parser.add_argument("--idle-seconds", type=int, default=60)
    parser.add_argument("--only", choices=["import", "follow"])
    options = parser.parse_args()
    release = os.path.join(ROOT, ".build-ci/release/screenmates")
    binary = release if os.path.exists(release) else os.path.join(ROOT, ".build-ci/debug/screenmates")
    aw_server = os.environ.get("SCREENMATES_TEST_AW_SERVER") or os.path.join(ROOT, ".build-ci/aw-venv/bin/aw-server")
    if not os.access(aw_server, os.X_OK):
        raise SystemExit("needs aw-server: python3 -m venv .build-ci/aw-venv && .build-ci/aw-venv/bin/pip install aw-server")
    print(f"binary: {binary}")
    scratch = tempfile.mkdtemp(prefix="screenmates-bench-aw-")
    try:
        if options.only in (None, "import"):
            bench_import(binary, options.days, options.hours, scratch)
        if options.only in (None, "follow"):
            bench_follow(binary, aw_server, options.samples, options.idle_seconds, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
