import SwiftUI

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
        }
    }
}
