import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesMonitorRuntime

/// Which sequence carries a desktop notice, decided from the terminal; through tmux wrapped in
/// its passthrough; and nothing where the terminal is not known to show one.
@Suite struct DesktopNoticeCarrierTests {
    private static func detect(
        _ environment: [String: String], tmux: (String, String)? = nil
    ) -> DesktopNoticeCarrier {
        DesktopNoticeCarrier.detect(environment: environment, tmuxClient: { tmux.map { ($0.0, $0.1) } })
    }

    @Test func eachKnownTerminalGetsItsSequenceAndOthersNone() {
        let cases: [([String: String], DesktopNoticeCarrier.Kind)] = [
            (["TERM": "xterm-kitty"], .kitty),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], .kitty),
            (["TERM": "xterm-256color", "VTE_VERSION": "7600"], .osc777AndOsc9),
            (["TERM": "foot"], .osc777AndOsc9),
            (["TERM": "xterm-ghostty"], .osc777AndOsc9),
            (["TERM": "rxvt-unicode-256color"], .osc777AndOsc9),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .osc777AndOsc9),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .osc777AndOsc9),
            (["TERM": "xterm-256color", "WT_SESSION": "x"], .osc777AndOsc9),
            // The Linux console prints an unknown OSC; plain xterm and unknown terminals get none.
            (["TERM": "linux"], .none),
            (["TERM": "xterm-256color"], .none),
            ([:], .none),
        ]
        for (environment, kind) in cases {
            let terminal = Self.detect(environment)
            #expect(terminal.kind == kind, "\(environment)")
            #expect(!terminal.throughTmux)
            #expect(terminal.advice == nil)
        }
    }

    @Test func insideTmuxTheClientsTerminalDecidesAndPassthroughIsChecked() {
        let inside = ["TMUX": "/tmp/tmux-1000/default,123,0", "TERM": "tmux-256color", "TERM_PROGRAM": "tmux"]
        let kitty = Self.detect(inside, tmux: ("xterm-kitty", "0"))
        #expect(kitty.kind == .kitty && kitty.throughTmux && kitty.tmuxPassesThrough == false)
        #expect(kitty.advice?.contains("allow-passthrough on") == true)
        #expect(kitty.summary.contains("through tmux") && kitty.summary.contains("allow-passthrough"))
        for shown in ["1", "on", "all"] {
            let passing = Self.detect(inside, tmux: ("foot", shown))
            #expect(passing.kind == .osc777AndOsc9 && passing.tmuxPassesThrough == true && passing.advice == nil)
        }
        // tmux's own TERM_PROGRAM says nothing of the terminal; a variable the terminal set for
        // the tmux server still does.
        #expect(Self.detect(inside, tmux: ("xterm-256color", "1")).kind == .none)
        var fromKitty = inside
        fromKitty["KITTY_WINDOW_ID"] = "1"
        #expect(Self.detect(fromKitty, tmux: nil).kind == .kitty)
        // Nothing to carry: no advice to give either.
        #expect(Self.detect(inside, tmux: ("linux", "0")).advice == nil)
    }

    /// tmux is given a short time to answer (it answers in milliseconds): one that does not is
    /// taken for one that cannot be asked, and is stopped; one that answers in time is heard.
    @Test func tmuxIsGivenAShortTimeToAnswer() async throws {
        let directory = NSTemporaryDirectory() + "screenmates-tmux-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func script(_ name: String, _ body: String) throws -> String {
            let path = directory + "/" + name
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            return path
        }
        let silent = try script("silent-tmux", "exec sleep 3600")
        let started = ContinuousClock.now
        #expect(await DesktopNoticeCarrier.askTmux(silent, timeLimit: .milliseconds(300)) == nil)
        // Well under the hour it would sleep (tests running beside it may hold the threads the
        // time limit's task resumes on for a while).
        #expect(ContinuousClock.now - started < .seconds(60), "given up on, not waited for")
        let answering = try script("tmux", "printf 'foot\\ton\\n'")
        let answer = await DesktopNoticeCarrier.askTmux(answering, timeLimit: .seconds(60))
        #expect(answer?.termName == "foot" && answer?.allowPassthrough == "on")
    }

    @Test func sequencesByKind() {
        let osc = DesktopNoticeCarrier(kind: .osc777AndOsc9, throughTmux: false)
        #expect(
            osc.sequences(title: "Over", body: "9 of 8", id: "a1")
                == "\u{1B}]777;notify;Over;9 of 8\u{1B}\\\u{1B}]9;Over: 9 of 8\u{1B}\\")
        let kitty = DesktopNoticeCarrier(kind: .kitty, throughTmux: false)
        #expect(
            kitty.sequences(title: "Over", body: "9 of 8", id: "a1")
                == "\u{1B}]99;i=sma1:d=0;Over\u{1B}\\\u{1B}]99;i=sma1:d=1:p=body;9 of 8\u{1B}\\")
        let none = DesktopNoticeCarrier(kind: .none, throughTmux: true, tmuxPassesThrough: true)
        #expect(none.sequences(title: "Over", body: "9 of 8", id: "a1").isEmpty)
        let tmuxKitty = DesktopNoticeCarrier(kind: .kitty, throughTmux: true, tmuxPassesThrough: true)
        #expect(
            tmuxKitty.sequences(title: "Over", body: "x", id: "a1")
                == "\u{1B}Ptmux;\u{1B}\u{1B}]99;i=sma1:d=0;Over\u{1B}\u{1B}\\\u{1B}\\"
                + "\u{1B}Ptmux;\u{1B}\u{1B}]99;i=sma1:d=1:p=body;x\u{1B}\u{1B}\\\u{1B}\\")
    }

    /// Whatever a notice holds, tmux's wrapping carries exactly the sequence the terminal would
    /// get without tmux, and the only control character written is ESC.
    @Test func tmuxCarriesTheSameSequencesAndNothingElse() async {
        let pieces = ["bo", " went over", ";", "\u{1B}", "\u{1B}\\", "\u{7}", "\u{9C}", "漢", "\n", "Ptmux;"]
        let text = Gen<String?>.element(of: pieces).map { $0! }.array(of: 0...8).map { $0.joined() }
        await propertyCheck(count: 200, input: text, text) { title, body in
            let notice = Notice(
                kind: .mateOver(userID: UserID("bo234567")), day: LocalDate(iso8601: "2026-11-21")!, title: title,
                body: body)
            for kind in [DesktopNoticeCarrier.Kind.osc777AndOsc9, .kitty] {
                let direct = DesktopNotifier.sequences(
                    for: notice, terminal: DesktopNoticeCarrier(kind: kind, throughTmux: false))
                let wrapped = DesktopNotifier.sequences(
                    for: notice, terminal: DesktopNoticeCarrier(kind: kind, throughTmux: true))
                #expect(wrapped.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F || $0 == "\u{1B}" })
                // Unwrapped: each DCS's content with its doubled ESCs made single again.
                let unwrapped = wrapped.components(separatedBy: "\u{1B}Ptmux;").dropFirst().map { part in
                    String(part.dropLast(2)).replacingOccurrences(of: "\u{1B}\u{1B}", with: "\u{1B}")
                }.joined()
                #expect(unwrapped == direct, "\(wrapped.debugDescription)")
                #expect(wrapped.hasSuffix("\u{1B}\\"))
            }
        }
    }
}
