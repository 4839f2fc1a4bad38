import ScreenMatesCore

/// `view(state) -> frame`: the whole screen for a model, at the model's size. Below the
/// minimum size it draws the "too small" screen, whichever screen the model is on.
public enum ScreenRenderer {
    public static func render(_ model: ScreensModel, glyphs: Glyphs = .unicode) -> Frame {
        var frame = Frame(width: model.width, height: model.height, glyphs: glyphs)
        if model.isTooSmall {
            TooSmallView(width: model.width, height: model.height).draw(into: &frame)
            return frame
        }
        switch model.screen {
        case .setup:
            if let flow = model.setup { SetupView(flow: flow).draw(into: &frame) }
        case .group:
            GroupView(model: model).draw(into: &frame)
        case .help:
            HelpView(model: model).draw(into: &frame)
        case .notices:
            NoticesView(model: model).draw(into: &frame)
        case .debug:
            DebugView(model: model).draw(into: &frame)
        case .history:
            HistoryView(model: model).draw(into: &frame)
        case .settings:
            SettingsView(model: model).draw(into: &frame)
        case .challenges:
            ChallengesView(model: model).draw(into: &frame)
        case .profile:
            ProfileView(model: model).draw(into: &frame)
        case .week:
            WeekView(model: model).draw(into: &frame)
        case .dashboard:
            if let data = model.data {
                DashboardView(model: model, data: data).draw(into: &frame)
            } else {
                frame.put("Loading…", x: 2, y: 1, style: Style(.muted))
            }
        }
        // On the dashboard only: elsewhere a toast waits, so it never hides another screen.
        if model.screen == .dashboard, let toast = model.data?.toast {
            ToastView(toast: toast).draw(into: &frame)
        }
        return frame
    }
}
