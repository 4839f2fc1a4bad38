import ScreenMatesCore
import Testing

@Suite struct ConfigFileTests {
    @Test func everyKeyIsReadInTheFormsPeopleWrite() {
        let file = ConfigFile(
            text: """
                # a comment
                theme = "dark"
                day_start_hour = 4   # night owl
                block_minutes = 20
                exchange_rate = 1.5
                daily_goal = 6
                notifications = on
                notification_bell = true
                notification_desktop = no
                vice_apps = ["TikTok", "Words, With \\"Friends\\""]
                productive_apps = Kindle, Xcode
                hidden_apps = []
                public_ranking = on
                prune_keep_days = 30

                """)
        let (preferences, problems) = file.read()
        #expect(problems.isEmpty, "\(problems)")
        #expect(preferences.theme == .dark)
        #expect(preferences.dayStartHour == 4)
        #expect(preferences.blockMinutes == 20)
        #expect(preferences.exchangeRate == 1.5)
        #expect(preferences.dailyGoal == 6)
        #expect(preferences.notifications == true)
        #expect(preferences.notificationBell == true)
        #expect(preferences.notificationDesktop == false)
        #expect(preferences.viceApps == ["TikTok", "Words, With \"Friends\""])
        #expect(preferences.productiveApps == ["Kindle", "Xcode"])
        #expect(preferences.hiddenApps == [])
        #expect(preferences.publicRanking == true)
        #expect(preferences.pruneKeepDays == 30)
        #expect(ConfigKey.allCases.allSatisfy(preferences.sets))
    }

    @Test func aMalformedLineIsReportedWithItsLineAndKeyAndTheRestStillCounts() {
        let file = ConfigFile(
            text: """
                theme = light
                day_start_hour = 25
                block_minutes = fifteen
                this line has no equals sign
                colour = blue
                exchange_rate =
                vice_apps = ["TikTok"
                notifications = maybe
                daily_goal = 5
                """)
        let (preferences, problems) = file.read()
        #expect(preferences.theme == .light)
        #expect(preferences.dailyGoal == 5)
        #expect(preferences.dayStartHour == nil && preferences.blockMinutes == nil)
        #expect(preferences.exchangeRate == nil && preferences.viceApps == nil && preferences.notifications == nil)
        #expect(problems.map(\.line) == [2, 3, 4, 5, 6, 7, 8])
        #expect(
            problems.map(\.key) == [
                "day_start_hour", "block_minutes", nil, "colour", "exchange_rate", "vice_apps", "notifications",
            ])
        #expect(
            problems[0].description
                == "line 2 (day_start_hour): 25 is out of range; expected a whole number from 0 to 23")
        #expect(problems[1].reason.contains("fifteen is not allowed"))
        #expect(problems[3].reason.contains("unknown key"))
        #expect(problems[5].reason.contains("closing ]"))
    }

    @Test func outOfRangeValuesAreRefusedAtBothEnds() {
        for (line, key) in [
            ("day_start_hour = -1", "day_start_hour"), ("block_minutes = 0", "block_minutes"),
            ("block_minutes = 241", "block_minutes"), ("exchange_rate = 10.5", "exchange_rate"),
            ("daily_goal = 97", "daily_goal"), ("theme = sepia", "theme"), ("exchange_rate = nan", "exchange_rate"),
        ] {
            let problems = ConfigFile(text: line).read().problems
            #expect(problems.count == 1 && problems.first?.key == key, "\(line)")
        }
    }

    @Test func hostileTextInAMessageIsMadeHarmless() {
        let problems = ConfigFile(text: "theme = \u{1B}[2Jevil").read().problems
        #expect(problems.count == 1)
        #expect(!problems[0].description.unicodeScalars.contains("\u{1B}"))
    }

    @Test func settingAKeyChangesOnlyItsLineAndKeepsCommentsAndOrder() {
        var file = ConfigFile(
            text: """
                # mine
                theme = dark  # I like it dark
                day_start_hour = 4
                day_start_hour = 5
                """)
        file.set(.dayStartHour, to: ConfigFile.value(6))
        file.set(.viceApps, to: ConfigFile.value(["TikTok", "Say \"hi\""]))
        #expect(
            file.text == """
                # mine
                theme = dark  # I like it dark
                day_start_hour = 6
                # \(ConfigKey.viceApps.summary)
                vice_apps = ["TikTok", "Say \\"hi\\""]

                """)
        // What the file writes, it reads back the same.
        #expect(file.read().preferences.viceApps == ["TikTok", "Say \"hi\""])
        #expect(file.read().preferences.dayStartHour == 6)
        #expect(file.lineNumber(of: .dayStartHour) == 3)
    }

    @Test func writtenValuesAreValidTOMLScalars() {
        #expect(ConfigFile.value(1.0) == "1.0")
        #expect(ConfigFile.value(1.25) == "1.25")
        #expect(ConfigFile.value(true) == "true")
        #expect(ConfigFile.value("dark") == "\"dark\"")
        #expect(ConfigFile.value([]) == "[]")
    }
}
