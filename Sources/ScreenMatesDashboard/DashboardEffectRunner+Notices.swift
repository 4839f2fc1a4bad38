import Logging
import ScreenMatesCore
import ScreenMatesMonitorRuntime

/// The effects of notices: looking at those due, ringing the bell and sending them to the
/// desktop the way this terminal carries them (found out once: `findNoticeCarrier`), and the
/// debug panel's test notice.
extension DashboardEffectRunner {
    func lookAtNotices(mates: [NotificationScheduler.Mate]?, _ state: DashboardState) -> DashboardEvent {
        let outcome = NoticeCenter(store: store, since: state.noticesSince)
            .evaluate(figures: state.figures, mates: mates, now: clock.now())
        for record in outcome.shown { logger.info("notice shown", metadata: ["key": "\(record.notice.key)"]) }
        return .noticesLooked(outcome)
    }

    func deliver(_ notices: [Notice], bell: Bool, desktop carrier: DesktopNoticeCarrier?) {
        if bell { screen.bell() }
        guard let carrier else { return }
        let ascii = screen.glyphs.asciiOnly
        screen.writeSequence(
            notices.map { DesktopNotifier.sequences(for: $0, terminal: carrier, asciiOnly: ascii) }.joined())
        DesktopNotifier.notifySend(notices, in: tasks)
    }

    /// Finds out how desktop notices reach the desktop from this terminal: at once outside tmux;
    /// inside it tmux is asked in the background (within `DesktopNoticeCarrier.tmuxTimeLimit`),
    /// never on the loop's thread, and the answer comes through the inbox.
    func findNoticeCarrier() -> [DashboardEvent] {
        let environment = dependencies.options.environment
        let logger = self.logger
        guard DesktopNoticeCarrier.inTmux(environment) else {
            let found = DesktopNoticeCarrier.detect(environment: environment, tmuxClient: { nil })
            Self.log(found, logger)
            return [.noticeCarrierFound(found)]
        }
        let inbox = self.inbox
        tasks.start {
            let found = await DesktopNoticeCarrier.detect(environment: environment)
            Self.log(found, logger)
            inbox.post(.noticeCarrierFound(found))
        }
        return []
    }

    static func log(_ carrier: DesktopNoticeCarrier, _ logger: Logger) {
        logger.info(
            "desktop notices", metadata: ["terminal": "\(carrier.kind.rawValue)", "tmux": "\(carrier.throughTmux)"])
        if let advice = carrier.advice { logger.warning("\(advice)") }
    }

    func sendTestNotice(_ state: DashboardState) -> DashboardEvent {
        let notice = NotificationScheduler.test(now: clock.now(), calendar: state.figures.calendar)
        do {
            _ = try store.claim(deliver: [notice], countAsSent: [], at: clock.now(), toasted: false)
            return .testNoticeSent
        } catch {
            logger.error("recording a test notice failed: \(error.message)")
            return .testNoticeFailed(error.message)
        }
    }
}
