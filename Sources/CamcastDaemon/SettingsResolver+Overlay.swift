import Capture
import Config
import Media
import Overlay

extension SettingsResolver {
    /// The overlay's settings, or nil with no items. The font is opened with FreeType here, at
    /// start, in check-config and on every reload, so a file that is not a font is a configuration
    /// error (exit 78, or a rejected reload) rather than a failed run. It is opened whenever
    /// `overlay:` would draw with it or names it, whatever the source: a slate's font is checked
    /// for a file source too, which has no slate today but may be a camera after the next edit.
    static func overlaySettings(_ config: CamcastConfig.OverlayConfig, problem: (String, String) -> Void) -> OverlaySettings? {
        let items = config.items.map { item in
            OverlayItem(
                text: item.text, position: item.position, margin: item.margin, height: item.height, colour: item.colour,
                contrast: item.contrast)
        }
        let settings = OverlaySettings(items: items, fontPath: config.font, clockUnsetText: config.clockUnsetText)
        let fontUsed = !items.isEmpty || !(config.slateText ?? "").isEmpty || config.font != OverlayDefaults.fontPath
        if fontUsed {
            do {
                try OverlayStage.validate(settings)
            } catch {
                problem("overlay.font", error.description)
                return nil
            }
        }
        return items.isEmpty ? nil : settings
    }

    /// A camera source with the operator's slate (`overlay.slate_text`, `overlay.slate_image`). The
    /// picture is decoded now, for any source, so a file that is not a JPEG is a configuration
    /// error; the font was opened by `overlaySettings`. Other sources get no slate: a file or a
    /// test pattern does not go away.
    static func withSlate(_ config: CamcastConfig.OverlayConfig, _ source: RunSettings.Source, problem: (String, String) -> Void) -> RunSettings.Source {
        guard config.slateText != nil || config.slateImage != nil else { return source }
        let slate = SlateSettings(text: config.slateText ?? "", imagePath: config.slateImage, fontPath: config.font)
        if let path = slate.imagePath, case .failure(let error) = SlateImage.load(path: path) {
            problem("overlay.slate_image", error.description)
            return source
        }
        guard case .device(var device) = source else { return source }
        device.slate = slate
        return .device(device)
    }
}
