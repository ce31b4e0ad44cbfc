import Capture
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
                text: item.text, position: item.position, margin: item.margin,
                height: item.height, colour: item.colour, contrast: item.contrast)
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

    /// A camera source with the operator's slate (`overlay.slate_text`, `overlay.slate_image`): the
    /// picture is decoded and the font opened now, so a bad one is a configuration error. Other
    /// sources have no slate: a file or a test pattern does not go away.
    static func withSlate(_ config: CamcastConfig.OverlayConfig, _ source: RunSettings.Source, problem: (String, String) -> Void) -> RunSettings.Source {
        guard config.slateText != nil || config.slateImage != nil, case .device(var device) = source else { return source }
        let slate = SlateSettings(text: config.slateText ?? "", imagePath: config.slateImage, fontPath: config.font)
        if let path = slate.imagePath, case .failure(let error) = SlateImage.load(path: path) {
            problem("overlay.slate_image", error.description)
            return source
        }
        if !slate.text.isEmpty {
            do {
                try OverlayStage.validate(OverlaySettings(items: [OverlayItem(text: "slate")], fontPath: slate.fontPath))
            } catch {
                problem("overlay.font", error.description)
                return source
            }
        }
        device.slate = slate
        return .device(device)
    }
}
