import Config
import Media
import Testing

@Suite struct OverlayConfigTests {
    static let output = "outputs:\n  - path: /tmp/out.flv\n"

    static func parse(_ overlay: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: output + "overlay:\n" + overlay, fileName: "camcast.yaml")
    }

    @Test func noneByDefault() throws {
        let overlay = try CamcastConfig.parse(yaml: Self.output, fileName: "camcast.yaml").overlay
        #expect(overlay.items.isEmpty)
        #expect(overlay.font == "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
        #expect(overlay.clockUnsetText == "--:--:--")
    }

    @Test func readsItemsWithTheirDefaults() throws {
        let overlay = try Self.parse("""
              clock_unset_text: "no clock"
              items:
                - text: "%Y-%m-%d %H:%M:%S"
                  position: bottom-right
                  margin: 8
                  height: 48
                  colour: "#FF8000"
                  box: black
                  box_alpha: 0.25
                - text: Front door

            """).overlay
        #expect(overlay.clockUnsetText == "no clock")
        #expect(overlay.items.count == 2)
        let clock = overlay.items[0]
        #expect(clock.text == "%Y-%m-%d %H:%M:%S" && clock.position == .bottomRight && clock.margin == 8 && clock.height == 48)
        #expect(clock.colour == .init(red: 255, green: 128, blue: 0))
        #expect(clock.contrast == .box(.black, alpha: 0.25))
        let name = overlay.items[1]
        #expect(name.position == .topLeft && name.margin == 16 && name.height == 32 && name.colour == .white)
        #expect(name.contrast == .outline(.black))
    }

    @Test func outlineNoneDrawsBareText() throws {
        #expect(try Self.parse("  items:\n    - text: a\n      outline: none\n").overlay.items[0].contrast == .none)
    }

    /// Each problem names its key path and line; all are reported at once.
    @Test(arguments: [
        ("  font: fonts/x.ttf\n", "overlay.font", "is not an absolute path"),
        ("  font: /nonexistent/x.ttf\n", "overlay.font", "no such file"),
        ("  items: text\n", "overlay.items", "expected a list"),
        ("  items:\n    - position: top\n", "overlay.items[0].text", "is required"),
        ("  items:\n    - text: a\n      position: middle\n", "overlay.items[0].position", "is not a position"),
        ("  items:\n    - text: a\n      height: 2\n", "overlay.items[0].height", "out of range"),
        ("  items:\n    - text: a\n      margin: -1\n", "overlay.items[0].margin", "out of range"),
        ("  items:\n    - text: a\n      colour: purplish\n", "overlay.items[0].colour", "is not a colour"),
        ("  items:\n    - text: a\n      outline: black\n      box: white\n", "overlay.items[0].outline", "give one of outline or box"),
        ("  items:\n    - text: a\n      box_alpha: 0.5\n", "overlay.items[0].box_alpha", "box is not"),
        ("  items:\n    - text: a\n      box: black\n      box_alpha: 2\n", "overlay.items[0].box_alpha", "opacity from 0"),
        ("  items:\n    - txt: a\n", "overlay.items[0].txt", "did you mean `text`"),
        ("  colour: red\n", "overlay.colour", "unknown key"),
    ])
    func reportsBadValues(yaml: String, keyPath: String, fragment: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(yaml) }
        let problem = error?.problems.first { $0.keyPath == keyPath }
        #expect(problem != nil, "no problem for \(keyPath) in \(String(describing: error))")
        #expect(problem?.description.contains(fragment) == true, "\(String(describing: problem))")
        #expect(problem?.line != nil)
    }
}
