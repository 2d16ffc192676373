// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ColdTap",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NFCTags", targets: ["NFCTags"]),
        .library(name: "LoggerFormats", targets: ["LoggerFormats"]),
        .library(name: "ColdChain", targets: ["ColdChain"]),
        .library(name: "TempChart", targets: ["TempChart"]),
        .library(name: "CoreNFCTransport", targets: ["CoreNFCTransport"]),
        .library(name: "LoggerSessions", targets: ["LoggerSessions"]),
        .executable(name: "coldtap", targets: ["coldtap"]),
        .executable(name: "coldtap-bench", targets: ["coldtap-bench"]),
        .executable(name: "FuzzNDEF", targets: ["FuzzNDEF"]),
    ],
    targets: [
        // Layer 1: NFC Forum NDEF codec.
        // Exclusivity checks are off for the codec only: the dynamic checks that Foundation's
        // inlined Data code carries cost about 15% of small-message parsing (coldtap-bench ndef).
        .target(name: "NDEF", swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        // Layer 2: tag platforms and virtual tags.
        .target(name: "NFCTags", dependencies: ["NDEF"]),
        // Layer 3: logger payload decoders.
        .target(name: "LoggerFormats", dependencies: ["NDEF"], resources: [.copy("Descriptors")]),
        // Layer 4: cold-chain statistics and rules.
        .target(name: "ColdChain", dependencies: ["LoggerFormats"]),
        // Layer 5: chart model, SVG canvas, report layout.
        .target(name: "TempChart", dependencies: ["ColdChain"]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .target(name: "CairoCanvas", dependencies: [
            "TempChart",
            .target(name: "CCairo", condition: .when(platforms: [.linux])),
        ]),
        // Loggers that answer commands (NHS31xx): readout sessions and a virtual NHS3100; above NFCTags and LoggerFormats.
        .target(name: "LoggerSessions", dependencies: ["NDEF", "NFCTags", "LoggerFormats"]),
        // Readers.
        .systemLibrary(name: "CPCSCLite", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .target(name: "PCSC", dependencies: [
            "NFCTags",
            .target(name: "CPCSCLite", condition: .when(platforms: [.linux, .macOS])),
        ], linkerSettings: [
            .linkedLibrary("pcsclite", .when(platforms: [.linux])),
            .linkedFramework("PCSC", .when(platforms: [.macOS])),
        ]),
        .target(name: "CoreNFCTransport", dependencies: ["NFCTags"]),
        // The command line: all commands live in a library so tests can run them in-process.
        .target(name: "ColdTapCommands", dependencies: [
            "NDEF", "NFCTags", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas", "PCSC", "LoggerSessions",
        ]),
        .executableTarget(name: "coldtap", dependencies: ["ColdTapCommands"]),
        .executableTarget(name: "coldtap-bench", dependencies: [
            "NDEF", "NFCTags", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas", "ColdTapCommands", "LoggerSessions",
        ]),
        // libFuzzer entry point; built apart by `make fuzz`.
        .executableTarget(name: "FuzzNDEF", dependencies: ["NDEF"]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF"]),
        .testTarget(name: "NFCTagsTests", dependencies: ["NFCTags", "NDEF"]),
        .testTarget(name: "LoggerFormatsTests", dependencies: ["LoggerFormats", "NFCTags", "NDEF"]),
        .testTarget(name: "ColdChainTests", dependencies: ["ColdChain", "LoggerFormats"]),
        .testTarget(name: "TempChartTests", dependencies: ["TempChart", "CairoCanvas", "ColdChain", "LoggerFormats"]),
        .testTarget(name: "LoggerSessionsTests", dependencies: ["LoggerSessions", "NFCTags", "LoggerFormats", "NDEF"]),
        .testTarget(name: "PCSCTests", dependencies: ["PCSC", "NFCTags"]),
        .testTarget(name: "CoreNFCTransportTests", dependencies: ["CoreNFCTransport", "NFCTags", "NDEF"]),
        .testTarget(name: "CommandsTests", dependencies: ["ColdTapCommands", "NDEF", "NFCTags", "LoggerFormats", "ColdChain"]),
    ],
    swiftLanguageModes: [.v6]
)
