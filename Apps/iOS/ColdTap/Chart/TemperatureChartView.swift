import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// SwiftUI wrapper for `TemperatureChartUIView`.
struct TemperatureChartView: UIViewRepresentable {
    var input: ChartInput
    var accessibilitySummary: String

    func makeUIView(context: Context) -> TemperatureChartUIView {
        TemperatureChartUIView(frame: .zero)
    }

    func updateUIView(_ view: TemperatureChartUIView, context: Context) {
        view.input = input
        view.accessibilityLabel = accessibilitySummary
    }
}
