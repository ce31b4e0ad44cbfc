import Config
import Overlay

extension SettingsResolver {
    /// The overlay's settings, or nil with no items. The font is opened with FreeType here, at
    /// start and on every reload, so a file that is not a font is a configuration error (exit 78,
    /// or a rejected reload) rather than a failed run.
    static func overlaySettings(_ config: CamcastConfig.OverlayConfig, problem: (String, String) -> Void) -> OverlaySettings? {
        guard !config.items.isEmpty else { return nil }
        let items = config.items.map { item in
            OverlayItem(
                text: item.text, position: OverlayPosition(rawValue: item.position.rawValue) ?? .topLeft, margin: item.margin,
                height: item.height, colour: colour(item.colour), contrast: contrast(item.contrast))
        }
        let settings = OverlaySettings(items: items, fontPath: config.font, clockUnsetText: config.clockUnsetText)
        do {
            try OverlayStage.validate(settings)
        } catch {
            problem("overlay.font", error.description)
            return nil
        }
        return settings
    }

    private static func colour(_ colour: CamcastConfig.OverlayConfig.Colour) -> OverlayColour {
        OverlayColour(red: colour.red, green: colour.green, blue: colour.blue)
    }

    private static func contrast(_ contrast: CamcastConfig.OverlayConfig.Contrast) -> OverlayContrast {
        switch contrast {
        case .none: .none
        case .outline(let outline): .outline(colour(outline))
        case .box(let box, let alpha): .box(colour(box), alpha: alpha)
        }
    }
}
