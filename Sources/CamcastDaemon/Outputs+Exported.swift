// The outputs' public types (ReconnectPolicy in RunSettings, LatencySummary) are part of the
// daemon's settings and results: whoever imports CamcastDaemon sees them too.
@_exported import Outputs
