import Schedule
import Testing

@Suite struct ScheduleBoundTests {
    @Test func boundsParseAsWritten() throws {
        #expect(try ScheduleBound(parsing: "07:30") == .clock(LocalTime(hour: 7, minute: 30)!))
        #expect(try ScheduleBound(parsing: "7:05") == .clock(LocalTime(hour: 7, minute: 5)!))
        #expect(try ScheduleBound(parsing: "sunrise") == .solar(.sunrise, offsetSeconds: 0))
        #expect(try ScheduleBound(parsing: "sunrise-30m") == .solar(.sunrise, offsetSeconds: -1800))
        #expect(try ScheduleBound(parsing: "Sunset+15m") == .solar(.sunset, offsetSeconds: 900))
        #expect(try ScheduleBound(parsing: "dusk+1h") == .solar(.dusk, offsetSeconds: 3600))
        #expect(try ScheduleBound(parsing: "dawn-1h30m") == .solar(.dawn, offsetSeconds: -5400))
        for text in ["07:30", "sunrise", "sunrise-30m", "sunset+15m", "dusk+1h", "dawn-1h30m"] {
            #expect(try ScheduleBound(parsing: text).description == text)
        }
    }

    @Test(arguments: ["24:00", "7:5", "07:60", "noon", "sunset+15", "sunset+15s", "sunset+m", "sunset 15m", "sunrise+13h", "sunset+30m1h", ""])
    func badBoundsAreRefused(_ text: String) {
        #expect(throws: ScheduleBound.ParseError.self) { try ScheduleBound(parsing: text) }
    }

    @Test func crossingMidnightIsDecidedByTheWindowsShape() throws {
        #expect(try window("22:00", "06:00").crossesMidnight)
        #expect(try window("sunset", "sunrise").crossesMidnight)
        #expect(try window("dusk", "02:00").crossesMidnight)
        #expect(try !window("07:00", "sunset").crossesMidnight)
        #expect(try !window("sunrise-30m", "sunset+15m").crossesMidnight)
        #expect(try !window("sunset", "23:00").crossesMidnight)
        #expect(try window("00:00", "00:00").crossesMidnight)  // Config refuses `to` equal to `from`
    }
}
