import Testing

/// The golden-file helper itself: how it reports a missing file and a difference.
@Suite(.disabled(if: Golden.isUpdating, "would write the files it checks for"))
struct GoldenTests {
    @Test func aMissingGoldenFailsWithHowToCreateIt() throws {
        let problem = try #require(Golden.mismatch("anything\n", goldenAt: Golden.url(named: "no-such-golden")))
        #expect(problem.contains("is missing. Create it with"))
        #expect(problem.contains("SCREENMATES_UPDATE_GOLDENS=1 swift test"))
    }

    @Test func aDifferenceFailsWithALineDiff() throws {
        let problem = try #require(Golden.mismatch("no\n", goldenAt: Golden.url(named: "too-small-20x5")))
        #expect(problem.contains("-    2 | Terminal too small"))
    }

    @Test func aMatchingFrameIsNoProblem() throws {
        let url = Golden.url(named: "too-small-20x5")
        let contents = try String(contentsOf: url, encoding: .utf8)
        #expect(Golden.mismatch(contents, goldenAt: url) == nil)
    }

    @Test func theLineDiffShowsChangedLinesWithContext() {
        let diff = Golden.lineDiff(expected: "a\nb\nc\nd\ne\nf\n", actual: "a\nb\nC\nd\ne\nf\ng\n")
        #expect(
            diff == """
                     2 |b
                -    3 |c
                +      |C
                     4 |d
                     6 |f
                +      |g
                     7 |
                """)
    }
}
