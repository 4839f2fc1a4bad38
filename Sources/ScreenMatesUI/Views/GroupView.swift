import ScreenMatesCore

/// The group screen: the code to share (big, where there is room), the goal and the members;
/// leaving, joining another group or creating one.
///
/// The code sits in a box on top (from 110 columns, in a panel on the left) with whatever is
/// being typed or confirmed; the members fill the rest in the leaderboard's own columns, so a
/// wide terminal shows them with bars and a tall one shows more of them. The footer shows the key table's keys, except while a code or a goal is
/// being entered: then `q` types and the footer says which keys finish the entry.
struct GroupView {
    let model: ScreensModel

    /// Rows the mode's lines may take in the top box (a prompt and a two-line message).
    static let slotRows = 3
    /// Member rows the members box keeps before the big code gives way.
    static let minimumMemberRows = 5
    /// From this width the code sits in a panel on the left and the members take the full
    /// height on the right; below it the code is a box on top of the members.
    static let sideBySideWidth = 110
    static let codePanelWidth = 46

    func draw(into frame: inout Frame) {
        let (body, footer) = frame.bounds.splitBottom(1)
        FooterView(hints: footerHints(glyphs: frame.glyphs)).draw(into: &frame, in: footer)
        guard let data = model.data else {
            frame.box(body, title: "Group")
            frame.put("Loading…", x: body.x + 3, y: body.y + 2, style: Style(.muted), maxWidth: body.width - 6)
            return
        }
        guard let group = data.group else {
            drawWithoutGroup(&frame, in: body)
            return
        }
        let members: Rect
        if body.width >= Self.sideBySideWidth {
            let columns = body.columns([Self.codePanelWidth, 0])
            drawCodePanel(&frame, in: columns[0], group: group, data: data)
            members = columns[1]
        } else {
            members = drawCodeBox(&frame, in: body, group: group, data: data)
        }
        var today = model
        today.period = .today
        today.scroll = model.groupScreen.memberScroll
        LeaderboardView(model: today, data: data, title: "Members \(frame.glyphs.bullet) today", showsTabs: false)
            .draw(into: &frame, in: members)
    }

    /// How far the members scroll on `model`'s screen: the members the box cannot show.
    static func maximumMemberScroll(_ model: ScreensModel) -> Int {
        guard let data = model.data, let group = data.group else { return 0 }
        let body = Rect(x: 0, y: 0, width: model.width, height: model.height).splitBottom(1).rest
        let members: Rect
        if body.width >= sideBySideWidth {
            members = body.columns([codePanelWidth, 0])[1]
        } else {
            let view = GroupView(model: model)
            let slot = view.slotLines(glyphs: .unicode, width: body.width - 6, data: data)
            members = body.splitTop(codeBoxHeight(body: body, code: group.code, slotCount: slot.count).height).rest
        }
        // The members box's borders and its column titles.
        return max(0, data.leaderboard(.today).count - max(0, members.height - 3))
    }

    /// The height of the code's box over the members, and whether it holds the big code.
    static func codeBoxHeight(body: Rect, code: String, slotCount: Int) -> (height: Int, big: Bool) {
        // Borders, the code's line and the share line, then a blank row and the mode's lines.
        let plainHeight = 4 + (slotCount == 0 ? 0 : slotCount + 1)
        let bigHeight = BigText.height + 1
        // The big code only where the members keep room below it, whatever mode opens.
        let showBig =
            body.height - (4 + bigHeight + slotRows + 1) >= minimumMemberRows + 3
            && BigText.width(of: code) <= body.width - 6
        return (plainHeight + (showBig ? bigHeight : 0), showBig)
    }

    /// The code in a box across the top; returns the room left below it for the members.
    private func drawCodeBox(
        _ frame: inout Frame, in body: Rect, group: DashboardContent.GroupSummary, data: DashboardContent
    ) -> Rect {
        let slot = slotLines(glyphs: frame.glyphs, width: body.width - 6, data: data)
        let bigHeight = BigText.height + 1
        let (height, showBig) = Self.codeBoxHeight(body: body, code: group.code, slotCount: slot.count)
        let (top, members) = body.splitTop(height)
        frame.box(top, title: "Group")
        let inner = top.inner
        var y = inner.y
        if showBig {
            BigText.drawCentred(
                group.code, into: &frame, in: Rect(x: inner.x, y: y, width: inner.width, height: BigText.height),
                style: Style(.accent, bold: true))
            y += bigHeight
        }
        let dot = frame.glyphs.bullet
        let goal = data.today.progress.goal
        centred(
            &frame, in: inner, y: y, style: Style(.text, bold: true),
            candidates: [
                "Code \(group.code) \(dot) \(Self.members(group.memberCount)) \(dot) daily goal \(goal) blocks",
                "\(group.code) \(dot) \(Self.members(group.memberCount)) \(dot) goal \(goal)", group.code,
            ])
        centred(
            &frame, in: inner, y: y + 1, style: Style(.muted),
            candidates: [
                "Friends join with: screenmates group join \(group.code)", "screenmates group join \(group.code)",
            ])
        y += 3
        for (text, style) in slot {
            frame.put(text, x: inner.x + 2, y: y, style: style, maxWidth: inner.width - 4)
            y += 1
        }
        return members
    }

    /// The code in a panel on the left, full height, one fact per line.
    private func drawCodePanel(
        _ frame: inout Frame, in rect: Rect, group: DashboardContent.GroupSummary, data: DashboardContent
    ) {
        frame.box(rect, title: "Group")
        let inner = rect.inner
        var y = inner.y + 1
        if BigText.drawCentred(
            group.code, into: &frame, in: Rect(x: inner.x, y: y, width: inner.width, height: inner.height - 8),
            style: Style(.accent, bold: true))
        {
            y += BigText.height + 1
        }
        let dot = frame.glyphs.bullet
        let lines: [([String], Style)] = [
            (["Code \(group.code)"], Style(.accent, bold: true)),
            (
                [
                    "\(Self.members(group.memberCount)) \(dot) daily goal \(data.today.progress.goal) blocks",
                    Self.members(group.memberCount),
                ], Style(.text, bold: true)
            ),
            ([""], Style(.muted)),
            (["Friends join with:"], Style(.muted)),
            (["screenmates group join \(group.code)", group.code], Style(.muted)),
        ]
        for (candidates, style) in lines where y < inner.maxY {
            centred(&frame, in: inner, y: y, style: style, candidates: candidates)
            y += 1
        }
        y += 1
        let slot = slotLines(glyphs: frame.glyphs, width: inner.width - 4, data: data, limit: 5)
        for (text, style) in slot where y < inner.maxY {
            frame.put(text, x: inner.x + 2, y: y, style: style, maxWidth: inner.width - 4)
            y += 1
        }
        if slot.isEmpty {
            drawActions(
                &frame, x: inner.x + 2, y: y, width: inner.width - 4, bottom: inner.maxY,
                actions: [
                    (.createGroup, "create a new group and move to it"), (.joinGroup, "join another group by its code"),
                    (.leaveGroup, "leave this group"),
                ])
        }
    }

    /// The keys of `actions` with what they do, one per line, as the key table binds them on
    /// the group screen (an action it does not bind is left out).
    private func drawActions(
        _ frame: inout Frame, x: Int, y: Int, width: Int, bottom: Int, actions: [(Action, String)]
    ) {
        var y = y
        let bindings = model.keys.all(for: .group)
        for (action, text) in actions where y < bottom {
            guard let binding = bindings.first(where: { $0.action == action }) else { continue }
            let used = frame.put(binding.label, x: x, y: y, style: Style(.key, bold: true), maxWidth: width)
            frame.put("  " + text, x: x + used, y: y, style: Style(.text), maxWidth: width - used)
            y += 1
        }
    }

    static func members(_ count: Int) -> String { "\(count) member\(count == 1 ? "" : "s")" }

    /// Not in a group: what a group is, and the keys that make or join one.
    private func drawWithoutGroup(_ frame: inout Frame, in body: Rect) {
        frame.box(body, title: "Group")
        let inner = body.inner
        let x = inner.x + 2
        let width = inner.width - 4
        var y = inner.y + 1
        frame.put("You are not in a group.", x: x, y: y, style: Style(.text, bold: true), maxWidth: width)
        y += 2
        for line in WordWrap.lines(
            "A group shares one daily goal and a live leaderboard, so friends keep each other under the limit.",
            width: width)
        {
            frame.put(line, x: x, y: y, style: Style(.text), maxWidth: width)
            y += 1
        }
        y += 1
        drawActions(
            &frame, x: x + 2, y: y, width: width - 2, bottom: inner.maxY,
            actions: [
                (.createGroup, "create a group, then share its code"),
                (.joinGroup, "join a group with the code you were given"),
            ])
        y += 3
        for (text, style) in slotLines(glyphs: frame.glyphs, width: width, data: model.data) where y < inner.maxY {
            frame.put(text, x: x, y: y, style: style, maxWidth: width)
            y += 1
        }
    }

    /// The lines the current mode shows: the prompt, what is typed and what is wrong with it,
    /// or the outcome of the last action.
    func slotLines(glyphs: Glyphs, width: Int, data: DashboardContent?, limit: Int = slotRows) -> [(String, Style)] {
        let state = model.groupScreen
        let current = data?.group?.code
        func message(_ text: String, _ style: Style) -> [(String, Style)] {
            WordWrap.lines(text, width: width, limit: max(1, limit - 1), ellipsis: glyphs.ellipsis).map { ($0, style) }
        }
        if state.busy { return [("One moment…", Style(.muted))] }
        var lines: [(String, Style)] = []
        switch state.mode {
        case .overview:
            break
        case .confirmLeave:
            return message(
                "Leave group \(current ?? "")? Press y to leave; any other key keeps you in it.",
                Style(.warning, bold: true))
        case .joinCode:
            let text = SafeText.displayable(state.codeInput.text)
            let shown = SafeText.truncated(text, toCells: max(1, width - 16), ellipsis: glyphs.ellipsis)
            lines.append(("Code to join: \(shown)\(glyphs.cursor)", Style(.accent, bold: true)))
            if state.message == nil {
                switch state.codeVerdict {
                case .success(let code)?:
                    let switching = current.map { $0 == code.value ? " (you are already in it)" : "; you leave \($0)" }
                    lines.append(("\(glyphs.check) \(code)\(switching ?? "")", Style(.good)))
                case .failure(let problem)?:
                    lines += message(problem.message, Style(.warning))
                case nil:
                    lines += message("Type the 6-character code; case and spaces do not matter.", Style(.muted))
                }
            }
        case .createGoal:
            let arrows = "\(glyphs.arrowLeft) \(state.goal) \(glyphs.arrowRight)"
            lines.append(("Daily goal of the new group: \(arrows) blocks", Style(.accent, bold: true)))
            if let current {
                lines += message("Creating a group moves you out of \(current).", Style(.muted))
            }
        }
        if let text = state.message {
            let mark = state.messageIsError ? glyphs.cross : glyphs.check
            lines += message("\(mark) \(text)", Style(state.messageIsError ? .error : .good, bold: true))
        }
        return Array(lines.prefix(limit))
    }

    /// The key table's keys on the overview; a mode's own keys while it is open.
    func footerHints(glyphs: Glyphs) -> [KeyHint] {
        let state = model.groupScreen
        if state.busy { return [] }
        switch state.mode {
        case .overview:
            // Leaving is offered only to a member of a group.
            let inGroup = model.data?.group != nil
            return model.keys.footer(for: .group).filter { inGroup || $0.action != .leaveGroup }.map(KeyHint.init)
        case .confirmLeave:
            return [KeyHint("y", "leave"), KeyHint("any other key", "stay")]
        case .joinCode:
            return [KeyHint("enter", "join"), KeyHint("esc", "cancel"), KeyHint("ctrl-u", "clear")]
        case .createGoal:
            return [
                KeyHint("\(glyphs.arrowLeft)/\(glyphs.arrowRight)", "goal"), KeyHint("enter", "create"),
                KeyHint("esc", "cancel"),
            ]
        }
    }

    /// The first of `candidates` that fits, centred on row `y` of `rect`.
    private func centred(_ frame: inout Frame, in rect: Rect, y: Int, style: Style, candidates: [String]) {
        let width = rect.width - 2
        let text = DashboardView.fitting(candidates, width: width, ellipsis: frame.glyphs.ellipsis)
        frame.put(text, x: rect.x + 1 + max(0, (width - CellWidth.of(text)) / 2), y: y, style: style, maxWidth: width)
    }
}
