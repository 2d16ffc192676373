#if canImport(Combine)
    import Combine
#else
    import CombineStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif
#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif
#if canImport(UIKit)
    import UIKit
#else
    import UIKitStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

@main
struct ColdTapApp: App {
    @StateObject private var model = AppModel()

    var body: some Scene {
        WindowGroup {
            TabView {
                NavigationStack { ScanView() }
                    .tabItem { Label("Scan", systemImage: "wave.3.right") }
                NavigationStack { HistoryView() }
                    .tabItem { Label("History", systemImage: "clock") }
                NavigationStack { SettingsView() }
                    .tabItem { Label("Settings", systemImage: "gearshape") }
            }
            .environmentObject(model)
            .environmentObject(model.settings)
            .environmentObject(model.history)
            .environmentObject(model.station)
            // Reads made offline go to the station when the app comes back to the front.
            .onReceive(NotificationCenter.default.publisher(for: UIApplication.didBecomeActiveNotification)) { _ in
                Task { await model.station.flush() }
            }
        }
    }
}
